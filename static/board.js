// Leaderboards per game (#/leaderboard/{game}): rated players best first, paged, and my rank.
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';
import { GAMES } from './history.js';

const PAGE = 20;

export function Leaderboard({ game, meId }) {
  const [offset, setOffset] = useState(0);
  const [board, setBoard] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => setOffset(0), [game]);
  useEffect(() => {
    api(`/api/leaderboards/${encodeURIComponent(game)}?limit=${PAGE}&offset=${offset}`)
      .then((d) => { setBoard(d); setError(null); }, setError);
  }, [game, offset]);
  const me = board && board.me;
  return html`<section class="panel board" data-testid="leaderboard">
    <div class="row"><h1>${t('board.title', { game: gameName(game) })}</h1><span class="spacer"></span>
      <label class="field inline">${t('board.game')}
        <select data-testid="board-game" value=${game} onChange=${(e) => { location.hash = '#/leaderboard/' + e.target.value; }}>
          ${GAMES.map((g) => html`<option value=${g}>${gameName(g)}</option>`)}</select></label></div>
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
    ${board && html`<p class="muted">${t('board.min_matches', { n: board.min_matches })}</p>
      ${me && html`<p class="board-me" data-testid="board-me">${me.rank
        ? t('board.your_rank', { rank: me.rank, total: board.total, rating: me.rating.toFixed(2) })
        : t('board.not_ranked', { n: me.matches, min: board.min_matches })}</p>`}
      ${board.players.length === 0
        ? html`<p class="muted" data-testid="board-empty">${t('board.empty')}</p>`
        : html`<table class="data" data-testid="board-list">
          <thead><tr><th scope="col">${t('board.col.rank')}</th><th scope="col">${t('board.col.player')}</th>
            <th scope="col">${t('board.col.rating')}</th><th scope="col">${t('board.col.matches')}</th></tr></thead>
          <tbody>${board.players.map((p) => html`<tr key=${p.player_id} class=${p.player_id === meId ? 'mine' : ''}>
            <td class="num">${p.rank}</td><td><a href=${'#/player/' + p.player_id}>${p.name}</a></td>
            <td class="num">${p.rating.toFixed(2)}</td><td class="num">${p.matches}</td></tr>`)}</tbody></table>
          <div class="row"><span class="spacer"></span>
            <button type="button" class="btn small" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>${t('board.prev')}</button>
            <button type="button" class="btn small" disabled=${offset + PAGE >= board.total} onClick=${() => setOffset(offset + PAGE)}>${t('board.next')}</button></div>`}`}
  </section>`;
}
