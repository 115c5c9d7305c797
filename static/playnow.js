// Play now: a seat at a table of strangers (POST /api/quickseat, docs/server.md "Quick seat").
// The player picks a game, the number of players, a stake and whether it is rated; the server
// seats them at the fullest table of exactly those settings that waits for players, or opens
// one, and the table starts by itself when every seat is taken. The line under the form says
// how many are waiting at that table now (from the lobby's rooms).
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';
import { proposedBuyIn } from './stakes.js';

/** How many people wait at quick-seat tables of these settings (free options, no timer). */
function waitingAt(rooms, table) {
  return (rooms || []).filter((r) => r.quick_seat && r.status === 'waiting' && r.game === table.game
    && r.seats === table.seats && r.stake === table.stake && r.buy_in === table.buy_in
    && r.rated === table.rated && r.turn_seconds === 0 && Object.keys(r.options).length === 0)
    .reduce((sum, r) => sum + r.taken, 0);
}

export function PlayNow({ rooms }) {
  const [games, setGames] = useState([]);
  const [game, setGame] = useState('standard');
  const [seats, setSeats] = useState(2);
  const [stake, setStake] = useState(0);
  const [rated, setRated] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  useEffect(() => {
    api('/api/games').then((d) => setGames(d.games), setError);
  }, []);
  const chosen = games.find((g) => g.key === game);
  const pickGame = (key) => {
    const g = games.find((x) => x.key === key);
    setGame(key);
    setSeats(Math.min(Math.max(seats, g.min_players), g.max_players));
  };
  const s = Math.max(0, Math.floor(Number(stake) || 0));
  const table = { game, seats, stake: s, buy_in: s ? proposedBuyIn(s) : 0, rated };
  const play = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const seated = await api('/api/quickseat', { method: 'POST', body: table });
      location.hash = `#/room/${seated.room.id}`;
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const seatChoices = chosen ? Array.from({ length: chosen.max_players - chosen.min_players + 1 },
    (_, i) => chosen.min_players + i) : [seats];
  return html`<section class="panel playnow" aria-labelledby="playnow-h" data-testid="play-now">
    <h2 id="playnow-h">${t('playnow.title')}</h2>
    <p class="muted">${t('playnow.explain')}</p>
    <form class="filters" onSubmit=${play}>
      <label class="field">${t('playnow.game')}
        <select name="playnow_game" value=${game} onChange=${(e) => pickGame(e.target.value)}>
          ${games.map((g) => html`<option value=${g.key} key=${g.key}>${gameName(g.key)}</option>`)}
        </select></label>
      <label class="field">${t('playnow.seats')}
        <select name="playnow_seats" value=${seats} onChange=${(e) => setSeats(Number(e.target.value))}>
          ${seatChoices.map((n) => html`<option value=${n} key=${n}>${n}</option>`)}
        </select></label>
      <label class="field">${t('playnow.stake')}
        <input type="number" name="playnow_stake" min="0" value=${stake}
               onInput=${(e) => setStake(e.target.value)} /></label>
      <span class="field inline"><input type="checkbox" id="playnow-rated" checked=${rated}
          onChange=${(e) => setRated(e.target.checked)} />
        <label for="playnow-rated">${t('board.rated_room')}</label></span>
      <button class="btn primary" type="submit" disabled=${busy || !chosen} data-testid="play-now-submit">
        ${t('playnow.submit')}</button>
    </form>
    <p class="help" role="status" data-testid="play-now-line">
      ${s ? t('playnow.buy_in', { buy_in: table.buy_in }) + ' · ' : ''}${t('playnow.waiting', { count: waitingAt(rooms, table) })}</p>
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
  </section>`;
}
