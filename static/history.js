// My matches (#/history) and a player's replay of a finished match (#/replay/{id}).
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName, optLabel } from './i18n.js';
import { api } from './api.js';
import { ReplayViewer } from './replay.js';
import { useAnalysis } from './analysis.js';

export const GAMES = ['standard', 'boat_house', 'kaluki', 'double_rum', 'knock', 'continental', 'queen_city', 'phom', 'german', 'nowrang'];
const PAGE = 10;

export const fmtDate = (iso) => (iso ? new Date(iso).toLocaleDateString() : '\u2014');
export const signed = (n, digits = 0) => (n > 0 ? '+' : '') + Number(n).toFixed(digits);

/** An option's value in words: Yes or No for a switch, else the value itself. */
const optionValue = (v) => (v === true ? t('history.option_yes') : v === false ? t('history.option_no') : v);

function optionsText(options) {
  const entries = Object.entries(options || {});
  if (!entries.length) return t('history.default_options');
  return entries.map(([k, v]) => `${t.has(`opt.${k}.label`) ? optLabel(k) : k}: ${optionValue(v)}`).join(', ');
}

/** One row per match that is over: shared by the history page and the profile's recent list.
 * A seat that a stand-in played out after its player resigned says so (`played_out`). */
export function MatchRows({ matches, showReplay = true }) {
  return html`<table class="data history-table" data-testid="history-list">
    <thead><tr><th scope="col">${t('history.col.date')}</th><th scope="col">${t('history.col.game')}</th>
      <th scope="col">${t('history.col.opponents')}</th><th scope="col">${t('history.col.result')}</th>
      <th scope="col">${t('history.col.score')}</th><th scope="col">${t('history.col.chips')}</th>
      <th scope="col">${t('history.col.rating')}</th>${showReplay ? html`<th scope="col"><span class="sr-only">${t('history.replay')}</span></th>` : ''}</tr></thead>
    <tbody>${matches.map((m) => html`<tr key=${m.id} data-match=${m.id}>
      <td>${fmtDate(m.finished_at || m.created_at)}</td>
      <td><strong>${gameName(m.game)}</strong><div class="muted small-text">${optionsText(m.options)}</div></td>
      <td>${m.opponents.map((o, i) => html`${i ? ', ' : ''}${o.player_id
        ? html`<a href=${'#/player/' + o.player_id}>${o.name}</a>` : html`${o.name} <span class="badge">${t('history.bot')}</span>`}`)}</td>
      <td><span class=${'result result-' + m.result} data-testid="history-result">${t('history.result.' + m.result)}</span>
        ${m.played_out ? html`<div class="muted small-text" data-testid="history-played-out">${t('history.played_out')}</div>` : ''}</td>
      <td class="num">${m.score ?? '\u2014'}</td>
      <td class="num" data-testid="history-chips">${signed(m.chips)}</td>
      <td class="num">${m.rating ? signed(m.rating.delta, 2) : '\u2014'}</td>
      ${showReplay ? html`<td class="right"><a class="btn small" href=${'#/replay/' + m.id} data-testid="history-replay">${t('history.replay')}</a></td>` : ''}
    </tr>`)}</tbody></table>`;
}

export function History() {
  const [game, setGame] = useState('');
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    const q = new URLSearchParams({ limit: PAGE, offset });
    if (game) q.set('game', game);
    api('/api/me/matches?' + q).then((d) => { setPage(d); setError(null); }, setError);
  }, [game, offset]);
  return html`<section class="panel history" data-testid="history">
    <div class="row"><h1>${t('history.title')}</h1><span class="spacer"></span>
      <label class="field inline">${t('history.filter_game')}
        <select data-testid="history-game" value=${game} onChange=${(e) => { setGame(e.target.value); setOffset(0); }}>
          <option value="">${t('history.all_games')}</option>${GAMES.map((g) => html`<option value=${g}>${gameName(g)}</option>`)}</select></label></div>
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
    ${page && (page.matches.length === 0
      ? html`<p class="muted" data-testid="history-empty">${t('history.empty')}</p>`
      : html`<${MatchRows} matches=${page.matches} />
        <div class="row"><span class="muted" data-testid="history-count">${t('history.count', { from: offset + 1, to: offset + page.matches.length, total: page.total })}</span>
          <span class="spacer"></span>
          <button type="button" class="btn small" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>${t('history.newer')}</button>
          <button type="button" class="btn small" disabled=${offset + PAGE >= page.total} onClick=${() => setOffset(offset + PAGE)}>${t('history.older')}</button></div>`)}
  </section>`;
}

export function PlayerReplay({ id }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api(`/api/matches/${encodeURIComponent(id)}/replay`).then(setData, setError);
  }, [id]);
  const analysis = useAnalysis(data ? id : null); // asked once the replay shows: the match is over
  if (error) return html`<section class="panel narrow"><p class="form-error" role="alert">${errorText(error)}</p>
    <a class="btn" href="#/history">${t('history.back')}</a></section>`;
  if (!data) return html`<p class="muted">${t('app.loading')}</p>`;
  const m = data.match;
  return html`<div class="player-replay">
    <div class="row"><a class="btn small" href="#/history">\u2190 ${t('history.back')}</a>
      <h1>${gameName(m.game)}</h1><span class="muted">${fmtDate(m.finished_at)}</span></div>
    <p class="muted" data-testid="replay-seat-note">${data.seat === null ? t('history.replay_spectator')
      : t('history.replay_as', { name: data.names[data.seat] })}</p>
    <${ReplayViewer} steps=${data.steps} names=${data.names} label=${t('history.replay_board')} analysis=${analysis} />
  </div>`;
}
