// The Tournaments page (#/tournaments, PROTOCOL.md §8, docs/server.md "Tournaments"): the
// sit-and-go knockouts that register, run and are over, refreshed every few seconds while the
// page is open, and the form that creates one (any player). One tournament's page, its bracket
// and standings, is static/tournament.js.
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName } from './i18n.js';
import { api, ApiError } from './api.js';
import { OptionField, collectOptions } from './host.js';

const REFRESH_MS = 5000;
const POLL_MS = 3000; // one tournament, while it registers or runs
const LIVE = ['registering', 'running'];
const MAX_TABLE_SEATS = 6; // PROTOCOL.md §8: 2–6, and within the game's range

/** The prizes field ("70, 30") as whole percentages; a refusal of the server's own code
 * (bad_prizes) when it is not a list of whole numbers. */
export function parsePrizes(text) {
  const parts = String(text).split(/[\s,;%]+/).filter(Boolean);
  const prizes = parts.map(Number);
  if (!prizes.length || !prizes.every(Number.isInteger)) throw new ApiError('bad_prizes', 'not whole numbers', 0);
  return prizes;
}

/** The tournament, asked again every POLL_MS while it registers or runs: [data, setData,
 * error]. `stopped`: not asked at all (the caller knows what it needed). A hidden tab is not
 * asked unless `hidden` (a table's result screen must learn its player's next table even
 * then, or they would be played for). */
export function useTournament(id, { stopped = false, hidden = false } = {}) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let alive = true;
    let timer = null;
    const load = async () => {
      let live = true;
      if (hidden || !document.hidden) {
        try {
          const got = await api(`/api/tournaments/${encodeURIComponent(id)}`);
          live = LIVE.includes(got.status);
          if (alive) { setData(got); setError(null); }
        } catch (e) {
          live = e.status !== 404;
          if (alive) setError(e);
        }
      }
      if (alive && live) timer = setTimeout(load, POLL_MS);
    };
    if (!stopped) load();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [id, stopped]);
  return [data, setData, error];
}

/** "3 / 4 players · Entry 100 chips": a tournament's line in a list. */
export function summary(x) {
  const entry = x.entry ? t('tournament.entry_value', { n: x.entry }) : t('tournament.free');
  return `${t('tournament.entrants', { n: x.registered.length, players: x.players })} · ${entry}`;
}

export function StatusBadge({ status }) {
  return html`<span class=${'status tstatus-' + status}>${t('tournament.status.' + status)}</span>`;
}

function Listed({ items, empty }) {
  if (!items.length) return html`<p class="muted">${empty}</p>`;
  return html`<ul class="tournament-list">${items.map((x) => html`<li key=${x.id} data-tournament=${x.id}>
    <a href=${'#/tournament/' + x.id} data-testid=${'tournament-' + x.id}><strong>${x.name}</strong></a>
    <span>${gameName(x.game)}</span>
    <${StatusBadge} status=${x.status} />
    <span class="muted">${summary(x)}</span>
  </li>`)}</ul>`;
}

export function Tournaments() {
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let alive = true;
    const load = () => {
      if (document.hidden) return; // nobody looks: the next tick asks again
      api('/api/tournaments').then((d) => {
        if (alive) { setList(d.tournaments); setError(null); }
      }, (e) => alive && setError(e));
    };
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, []);
  const of = (...statuses) => (list || []).filter((x) => statuses.includes(x.status));
  return html`<section class="tournaments" data-testid="tournaments">
    <h1>${t('tournaments.title')}</h1>
    <p class="muted">${t('tournaments.explain')}</p>
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
    <div class="tournaments-cols">
      <div class="tournament-lists">
        ${list === null ? html`<p class="muted">${t('app.loading')}</p>` : html`
          <section class="panel" aria-labelledby="t-registering-h" data-testid="tournaments-registering">
            <h2 id="t-registering-h">${t('tournaments.registering')}</h2>
            <${Listed} items=${of('registering')} empty=${t('tournaments.none_registering')} /></section>
          <section class="panel" aria-labelledby="t-running-h" data-testid="tournaments-running">
            <h2 id="t-running-h">${t('tournaments.running')}</h2>
            <${Listed} items=${of('running')} empty=${t('tournaments.none')} /></section>
          <section class="panel" aria-labelledby="t-over-h" data-testid="tournaments-over">
            <h2 id="t-over-h">${t('tournaments.over')}</h2>
            <${Listed} items=${of('finished', 'cancelled')} empty=${t('tournaments.none')} /></section>`}
      </div>
      <${CreateTournament} />
    </div>
  </section>`;
}

function CreateTournament() {
  const [games, setGames] = useState([]);
  const [game, setGame] = useState('standard');
  const [values, setValues] = useState({});
  const [form, setForm] = useState({ name: '', players: 4, table_seats: 2, entry: 100, prizes: '70, 30', turn_seconds: 30,
                                     arrival_seconds: 60 });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  useEffect(() => {
    api('/api/games').then((d) => setGames(d.games), setError);
  }, []);
  const chosen = games.find((g) => g.key === game);
  const set = (name) => (e) => setForm((f) => ({ ...f, [name]: e.target.value }));
  const pick = (key) => {
    const g = games.find((x) => x.key === key);
    setGame(key);
    setValues({});
    setForm((f) => ({ ...f, table_seats: Math.min(Math.max(Number(f.table_seats), g.min_players), g.max_players, MAX_TABLE_SEATS) }));
  };
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const body = { game, options: chosen ? collectOptions(chosen.options_schema, values) : {},
                     players: Number(form.players), table_seats: Number(form.table_seats), entry: Number(form.entry) || 0,
                     prizes: parsePrizes(form.prizes), turn_seconds: Number(form.turn_seconds),
                     arrival_seconds: Number(form.arrival_seconds) };
      if (form.name.trim()) body.name = form.name.trim();
      const made = await api('/api/tournaments', { method: 'POST', body });
      location.hash = `#/tournament/${made.id}`;
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const seatChoices = chosen ? Array.from({ length: Math.min(chosen.max_players, MAX_TABLE_SEATS) - chosen.min_players + 1 },
    (_, i) => chosen.min_players + i) : [Number(form.table_seats)];
  const props = chosen ? chosen.options_schema.properties || {} : {};
  return html`<form class="panel create-tournament" onSubmit=${submit} aria-labelledby="t-create-h" data-testid="create-tournament">
    <h2 id="t-create-h">${t('tournaments.create_title')}</h2>
    <label class="field">${t('tournaments.name')}
      <input name="t_name" maxlength="32" value=${form.name} placeholder=${t('tournaments.name_placeholder')}
             onInput=${set('name')} /></label>
    <label class="field">${t('tournaments.game')}
      <select name="t_game" value=${game} onChange=${(e) => pick(e.target.value)}>
        ${games.map((g) => html`<option value=${g.key} key=${g.key}>${gameName(g.key)}</option>`)}
      </select></label>
    ${Object.keys(props).length > 0 && html`<details class="t-options">
      <summary>${t('tournaments.options', { game: gameName(game) })}</summary>
      ${Object.entries(props).map(([name, prop]) => html`<${OptionField} key=${game + name} name=${name} prop=${prop}
          value=${values[name]} onChange=${(k, v) => setValues((old) => ({ ...old, [k]: v }))} />`)}
    </details>`}
    <label class="field">${t('tournaments.players')}
      <input type="number" name="t_players" min="2" max="64" value=${form.players} onInput=${set('players')} />
      <span class="help">${t('tournaments.players_help')}</span></label>
    <label class="field">${t('tournaments.table_seats')}
      <select name="t_table_seats" value=${form.table_seats} onChange=${set('table_seats')}>
        ${seatChoices.map((n) => html`<option value=${n} key=${n}>${n}</option>`)}
      </select></label>
    <label class="field">${t('tournaments.entry')}
      <input type="number" name="t_entry" min="0" value=${form.entry} onInput=${set('entry')} />
      <span class="help">${t('tournaments.entry_help')}</span></label>
    <label class="field">${t('tournaments.prizes')}
      <input name="t_prizes" value=${form.prizes} inputmode="numeric" onInput=${set('prizes')} />
      <span class="help">${t('tournaments.prizes_help')}</span></label>
    <label class="field">${t('tournaments.turn_seconds')}
      <input type="number" name="t_turn_seconds" min="1" max="600" value=${form.turn_seconds} onInput=${set('turn_seconds')} />
      <span class="help">${t('tournaments.turn_seconds_help')}</span></label>
    <label class="field">${t('tournaments.arrival_seconds')}
      <input type="number" name="t_arrival_seconds" min="10" max="300" value=${form.arrival_seconds} onInput=${set('arrival_seconds')} />
      <span class="help">${t('tournaments.arrival_seconds_help')}</span></label>
    ${error && html`<p class="form-error" role="alert" data-testid="tournament-error">${errorText(error)}</p>`}
    <button class="btn primary wide" type="submit" disabled=${busy || !chosen} data-testid="create-tournament-submit">
      ${t('tournaments.create')}</button>
  </form>`;
}
