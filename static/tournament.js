// One tournament's page (#/tournament/{id}, PROTOCOL.md §8): its settings and prizes, who is
// registered (register, unregister, and cancel for its creator), the bracket (each round's
// tables, their players and winner, who is at a table that plays, a Watch link for it, and
// the player's own table one click away while it is open: `my_table`, with how long its first
// deal waits for them) and, at the end, the standings and prizes. There is no socket for a
// tournament: the page asks again every few seconds while it registers or runs, and stops
// when it is over or the page is left.
import { html, useState, useEffect, errorText, useNow, turnAlert } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';
import { StatusBadge, summary, useTournament } from './tournaments.js';
import { goesBefore, useGoesTo } from './arrival.js';


/** The player's table of the round now running, once open (the server's `my_table`):
 * { round, n, room, dealAt } (dealAt: when its first deal comes at the latest), or null. */
export function myTable(x) {
  if (!x.my_table) return null;
  for (const r of x.rounds) {
    const i = r.tables.findIndex((tb) => tb.room === x.my_table);
    if (i >= 0) {
      const opened = Date.parse(r.tables[i].opened_at) / 1000;
      return { round: r.round, n: i + 1, room: x.my_table, dealAt: opened + x.arrival_seconds };
    }
  }
  return null;
}

/** "Go to your table": while it waits for its players, how long the first deal waits, and the
 * page going there by itself a moment before the deal unless the player chooses to stay (a
 * stand-in then plays for them, as for anyone away). */
function YourTable({ mine }) {
  const now = useNow(true);
  const [staying, setStaying] = useState(false);
  const waiting = mine.dealAt - now > 0;
  const { left: going } = useGoesTo(mine.room, goesBefore(mine.dealAt), staying || !waiting);
  const params = { round: mine.round, table: mine.n, n: Math.ceil(mine.dealAt - now) };
  return html`<div class="notice your-table" data-testid="your-table">
    <span role="status">${t(waiting ? 'tournament.table_open' : 'tournament.your_table', params)}</span>
    ${waiting && !staying && html`<span data-testid="going-to-table">${t('tournament.going', { n: going })}</span>`}
    <a class="btn primary" href=${'#/room/' + mine.room} data-testid="go-table">${t('tournament.go_table')}</a>
    ${waiting && !staying && html`<button type="button" class="btn ghost" data-testid="stay-here"
        onClick=${() => setStaying(true)}>${t('tournament.stay')}</button>`}</div>`;
}

/** A sound (and a notification when the page is not looked at) once a table opens for the
 * player while the page is open, as for their turn at a table (the player's preferences). */
function useTableAlert(room) {
  const [seen, setSeen] = useState(room);
  useEffect(() => {
    if (room && room !== seen) turnAlert(t('tournament.table_alert'));
    setSeen(room);
  }, [room]);
}

export function TournamentView({ id, me, refreshMe }) {
  const [x, setX, loadError] = useTournament(id);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const status = x && x.status;
  useTableAlert(x && x.my_table);
  useEffect(() => {
    if (status === 'finished') refreshMe(); // the prizes were paid
  }, [status]);
  if (!x) {
    return loadError ? html`<section class="panel narrow"><p class="form-error" role="alert">${errorText(loadError)}</p>
        <a class="btn" href="#/tournaments">${t('tournament.back')}</a></section>`
      : html`<p class="loading">${t('app.loading')}</p>`;
  }
  const act = async (what) => {
    setBusy(true);
    setError(null);
    try {
      setX(await api(`/api/tournaments/${x.id}/${what}`, { method: 'POST' }));
      refreshMe();
    } catch (e) {
      setError(e);
    }
    setBusy(false);
  };
  const names = Object.fromEntries(x.registered.map((p) => [p.id, p.name]));
  const registered = x.registered.some((p) => p.id === me.id);
  const mine = myTable(x);
  return html`<section class="tournament" data-testid="tournament" data-status=${x.status}>
    <p><a href="#/tournaments" data-testid="tournaments-back">${t('tournament.back')}</a></p>
    <div class="row wrap"><h1 data-testid="tournament-name">${x.name}</h1><${StatusBadge} status=${x.status} /></div>
    <p class="muted">${gameName(x.game)} · ${summary(x)}</p>
    ${mine && html`<${YourTable} key=${mine.room} mine=${mine} />`}
    ${x.status === 'cancelled' && html`<p class="notice">${t('tournament.cancelled')}</p>`}
    <div class="tournament-cols">
      <div>
        <${Facts} x=${x} />
        ${x.status === 'registering' && html`<${Registration} x=${x} me=${me} registered=${registered}
            busy=${busy} act=${act} error=${error} />`}
        ${x.status !== 'registering' && error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
      </div>
      <div>
        ${x.standings.length > 0 && html`<${Standings} x=${x} me=${me} />`}
        ${x.rounds.length > 0 && html`<${Bracket} x=${x} names=${names} me=${me} />`}
      </div>
    </div>
  </section>`;
}

function Facts({ x }) {
  return html`<section class="panel" aria-labelledby="t-facts-h">
    <h2 id="t-facts-h">${t('tournament.facts')}</h2>
    <dl class="facts">
      <dt>${t('tournament.table_seats')}</dt><dd>${x.table_seats}</dd>
      <dt>${t('tournament.entry')}</dt><dd>${x.entry ? t('me.chips', { n: x.entry }) : t('tournament.free')}</dd>
      <dt>${t('tournament.pool')}</dt><dd data-testid="prize-pool">${t('me.chips', { n: x.prize_pool })}</dd>
      <dt>${t('tournament.arrival')}</dt><dd>${t('tournament.seconds', { n: x.arrival_seconds })}</dd>
    </dl>
    <h3>${t('tournament.prizes')}</h3>
    <ol class="prizes" data-testid="prizes">${x.prizes.map((chips, i) => html`<li key=${i}>
      ${t('tournament.place_prize', { place: i + 1, chips: t('me.chips', { n: chips }) })}</li>`)}</ol>
    ${x.status === 'registering' && html`<p class="help">${t('tournament.prizes_grow')}</p>`}
  </section>`;
}

function Registration({ x, me, registered, busy, act, error }) {
  const full = x.registered.length >= x.players;
  return html`<section class="panel" aria-labelledby="t-reg-h" data-testid="registration">
    <h2 id="t-reg-h">${t('tournament.registered')}</h2>
    ${x.registered.length === 0 ? html`<p class="muted">${t('tournament.nobody')}</p>`
      : html`<ol class="entrants" data-testid="entrants">${x.registered.map((p) => html`<li key=${p.id}
          class=${p.id === me.id ? 'you' : ''}>${p.name}</li>`)}</ol>`}
    ${registered && html`<p class="help">${t('tournament.you_registered')}</p>`}
    <div class="row wrap">
      ${!registered && !full && html`<button type="button" class="btn primary" disabled=${busy}
          data-testid="register" onClick=${() => act('register')}>${t('tournament.register')}</button>`}
      ${registered && html`<button type="button" class="btn" disabled=${busy}
          data-testid="unregister" onClick=${() => act('unregister')}>${t('tournament.unregister')}</button>`}
      ${x.creator === me.id && html`<button type="button" class="btn ghost danger" disabled=${busy}
          data-testid="cancel-tournament" onClick=${() => act('cancel')}>${t('tournament.cancel')}</button>`}
    </div>
    ${error && html`<p class="form-error" role="alert" data-testid="tournament-action-error">${errorText(error)}</p>`}
  </section>`;
}

function Bracket({ x, names, me }) {
  return html`<section class="panel bracket" aria-labelledby="t-bracket-h" data-testid="bracket">
    <h2 id="t-bracket-h">${t('tournament.bracket')}</h2>
    <div class="rounds">${x.rounds.map((r) => html`<section class="round" key=${r.round} data-round=${r.round}
        aria-label=${t('tournament.round', { n: r.round })}>
      <h3>${r.tables.length === 1 && r.tables[0].room ? t('tournament.final') : t('tournament.round', { n: r.round })}</h3>
      ${r.tables.map((tb, i) => html`<${TableCard} key=${i} table=${tb} n=${i + 1} round=${r.round}
          names=${names} me=${me} />`)}
    </section>`)}</div>
  </section>`;
}

function TableCard({ table, n, round, names, me }) {
  const playing = table.room && table.winner === null;
  const seated = table.players.includes(me.id);
  const here = (p) => playing && (table.connected || []).includes(p);
  return html`<div class=${'ttable' + (playing ? ' playing' : '')} data-testid="bracket-table" data-room=${table.room || ''}>
    <div class="row wrap"><strong>${t('tournament.table', { n })}</strong>
      <span class="muted">${!table.room ? t('tournament.bye') : playing ? t('tournament.playing') : t('tournament.table_over')}</span></div>
    <ul>${table.players.map((p) => html`<li key=${p} class=${(p === table.winner ? 'winner' : '') + (p === me.id ? ' you' : '')}
        data-winner=${p === table.winner ? 'true' : 'false'}>
      ${names[p] || '\u2014'}${p === me.id ? ` ${t('tournament.you')}` : ''}
      ${p === table.winner && html` <span class="badge winner-badge">${t('tournament.winner')}</span>`}
      ${here(p) && html` <span class="badge presence here" data-testid="here">${t('tournament.here')}</span>`}</li>`)}</ul>
    ${playing && (seated
      ? html`<a class="btn small primary" href=${'#/room/' + table.room}>${t('tournament.go_table')}</a>`
      : html`<a class="btn small" href=${'#/room/' + table.room} data-testid="watch-table"
            aria-label=${t('tournament.watch_label', { table: n, round })}>${t('watch.watch')}</a>`)}
  </div>`;
}

function Standings({ x, me }) {
  return html`<section class="panel" aria-labelledby="t-standings-h" data-testid="standings">
    <h2 id="t-standings-h">${t('tournament.standings')}</h2>
    <table class="data">
      <thead><tr><th scope="col">${t('tournament.col.place')}</th><th scope="col">${t('tournament.col.player')}</th>
        <th scope="col" class="num">${t('tournament.col.prize')}</th></tr></thead>
      <tbody>${x.standings.map((s) => html`<tr key=${s.player} class=${s.player === me.id ? 'mine' : ''}>
        <td>${s.place}</td><td><a href=${'#/player/' + s.player}>${s.name}</a></td>
        <td class="num">${s.prize ? t('me.chips', { n: s.prize }) : '\u2014'}</td></tr>`)}</tbody>
    </table>
  </section>`;
}
