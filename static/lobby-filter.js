// The lobby's filters: game, players, stake per point and turn timer (GET /api/rooms?game=…,
// docs/server.md "The lobby"). Each left at "any" filters nothing; the lobby asks the server for
// the rooms that have every value chosen.
import { html } from './ui.js';
import { t, gameName } from './i18n.js';

const SEATS = [2, 3, 4, 5, 6];

/** The query string of a filter: only the values chosen, e.g. "?game=knock&seats=2". */
export function filterQuery(filter) {
  const chosen = Object.entries(filter).filter(([, v]) => v !== '' && v !== null && v !== undefined);
  return chosen.length ? '?' + new URLSearchParams(chosen).toString() : '';
}

export function LobbyFilter({ filter, games, onChange }) {
  const set = (name) => (e) => onChange({ ...filter, [name]: e.target.value });
  const whole = (name) => (e) => {
    const text = e.target.value.trim();
    onChange({ ...filter, [name]: /^\d+$/.test(text) ? String(Number(text)) : '' });
  };
  return html`<form class="filters lobby-filter" role="search" aria-label=${t('lobby.filter.title')}
      data-testid="lobby-filter" onSubmit=${(e) => e.preventDefault()}>
    <label class="field">${t('lobby.col.game')}
      <select name="filter_game" value=${filter.game} onChange=${set('game')}>
        <option value="">${t('lobby.filter.any')}</option>
        ${games.map((g) => html`<option value=${g.key} key=${g.key}>${gameName(g.key)}</option>`)}
      </select></label>
    <label class="field">${t('playnow.seats')}
      <select name="filter_seats" value=${filter.seats} onChange=${set('seats')}>
        <option value="">${t('lobby.filter.any')}</option>
        ${SEATS.map((n) => html`<option value=${n} key=${n}>${n}</option>`)}
      </select></label>
    <label class="field">${t('lobby.filter.stake')}
      <input type="number" name="filter_stake" min="0" inputmode="numeric"
             placeholder=${t('lobby.filter.any')} value=${filter.stake} onChange=${whole('stake')} /></label>
    <label class="field">${t('lobby.filter.turn_seconds')}
      <input type="number" name="filter_turn_seconds" min="0" inputmode="numeric"
             placeholder=${t('lobby.filter.any')} value=${filter.turn_seconds}
             onChange=${whole('turn_seconds')} /></label>
  </form>`;
}
