// A tournament's table (PROTOCOL.md §8 "Arrival" and "Where to be", docs/server.md "Tournament
// arrival"): before its first deal, who is here and when the deal comes; after its match, what
// comes next for this player: the next table (one click, or by itself after a countdown), the
// end of the round to wait for, or their way out of the tournament and their place.
import { html, useState, useEffect, useNow } from './ui.js';
import { t, gameName } from './i18n.js';
import { useTournament } from './tournaments.js';
import { PlayerName, menuPlayer } from './moderation.js';

const GO_AFTER = 10; // seconds before the next table opens by itself
const SPARE = 3; // seconds of the next table's wait for players left when it does

/** Whether the room is a tournament's table that waits for its players (no hand dealt yet). */
export function awaitsPlayers(msg) {
  return !!(msg.room.deal_at && msg.view && msg.view.hand_no < 0);
}

/** The table before its first deal: "Waiting for players (2 of 4 here); the deal starts in
 * 42 s", and the seats, each here or not. */
export function ArrivalWait({ room, view, me }) {
  const now = useNow(true);
  const presence = view.presence || [];
  const here = presence.filter((p) => p === 'connected').length;
  const left = Math.max(0, Math.ceil(room.deal_at - now));
  return html`<div class="panel arrival" data-testid="arrival-wait">
    <div class="row wrap"><h1>${gameName(room.game)}</h1><span class="badge">${t('tournament.badge')}</span></div>
    <p class="arrival-line" role="status" data-testid="arrival-line">${t('arrival.waiting', { here, seats: view.players, n: left })}</p>
    <p class="help">${t('arrival.explain')}</p>
    <ol class="seat-list" data-testid="seats">${room.players.map((p, i) => p && html`<li key=${i} class="taken">
      <span class="seat-no">${i + 1}</span>
      <${PlayerName} player=${menuPlayer(p, me)} name=${p.name} testid=${'player-' + i} />
      <span class=${'badge presence ' + (presence[i] === 'connected' ? 'here' : 'disconnected')} data-testid=${'arrived-' + i}>
        ${t(presence[i] === 'connected' ? 'arrival.here' : 'arrival.not_here')}</span></li>`)}</ol>
    <a href=${'#/tournament/' + room.tournament} data-testid="tournament-link">${t('arrival.tournament_page')}</a>
  </div>`;
}

/** What comes next, on the result screen of a tournament table's match. `told`: the
 * `next_table` message this table's socket was sent, if any. */
export function TournamentNext({ room, me, told }) {
  const seated = room.players.some((p) => p && p.player_id === me.id);
  const fromSocket = told ? told.room : null;
  const [x] = useTournament(room.tournament, { stopped: !!fromSocket, hidden: true });
  const next = fromSocket || (x && x.my_table && x.my_table !== room.id ? x.my_table : null);
  let body;
  if (!seated) body = null;
  else if (next) body = html`<${NextCountdown} next=${next} arrival=${x ? x.arrival_seconds : null} />`;
  else if (x) body = html`<p data-testid="next-step">${stepText(x, room, me)}</p>`;
  else body = html`<p class="muted">${t('app.loading')}</p>`;
  return html`<div class="tournament-next" data-testid="tournament-next">${body}
    <a href=${'#/tournament/' + room.tournament} data-testid="tournament-link">${t('arrival.tournament_page')}</a></div>`;
}

/** Where the player stands once this table's match is over and no next table has opened. */
function stepText(x, room, me) {
  const mine = x.standings.find((s) => s.player === me.id);
  if (mine) return t(mine.place === 1 ? 'next.champion' : 'next.finished', { place: mine.place });
  const table = x.rounds.flatMap((r) => r.tables).find((tb) => tb.room === room.id);
  if (table && table.winner && table.winner !== me.id) return t('next.out');
  if (x.status === 'running') return t('next.wait_round');
  return t('next.over');
}

/** Going to the table `room` by itself `after` seconds from the first render (at least one),
 * and `go` to go at once: a finalist who is on the site is never played for, whichever page of
 * the tournament they are on (PROTOCOL.md §8). `stopped`: no countdown (the player chose to
 * stay). */
export function useGoesTo(room, after, stopped = false) {
  const [at] = useState(() => Date.now() / 1000 + Math.max(1, after));
  const now = useNow(true);
  const left = Math.max(0, Math.ceil(at - now));
  const go = () => {
    location.hash = '#/room/' + room;
  };
  useEffect(() => {
    if (left === 0 && !stopped) go();
  }, [left, stopped]);
  return { left, go };
}

/** How long before a table's first deal (at `dealAt`, epoch seconds) a page that waits goes
 * there by itself: SPARE seconds before it. */
export function goesBefore(dealAt) {
  return dealAt - SPARE - Date.now() / 1000;
}

/** The next table: go now, or by itself after the countdown (shorter when its players are
 * waited for less than that). */
function NextCountdown({ next, arrival }) {
  const { left, go } = useGoesTo(next, Math.min(GO_AFTER, (arrival || GO_AFTER + SPARE) - SPARE));
  return html`<div class="row wrap next-table" role="status" data-testid="next-table">
    <span>${t('next.open', { n: left })}</span>
    <button type="button" class="btn primary" data-testid="go-next-table" onClick=${go}>${t('next.go')}</button>
  </div>`;
}
