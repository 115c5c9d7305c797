// A player's public profile (#/player/{id}): name, member since, per game matches, win rate,
// average score per hand, chips won and rating, and the recent matches.
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';
import { MatchRows, fmtDate, signed } from './history.js';

export function Profile({ id, me }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api(`/api/players/${encodeURIComponent(id)}`).then(setData, setError);
  }, [id]);
  if (error) return html`<section class="panel narrow"><p class="form-error" role="alert">${errorText(error)}</p></section>`;
  if (!data) return html`<p class="muted">${t('app.loading')}</p>`;
  const pct = (x) => (x === null ? '\u2014' : `${Math.round(x * 100)} %`);
  return html`<section class="panel profile" data-testid="profile">
    <div class="row"><h1 data-testid="profile-name">${data.name}</h1>
      ${data.is_guest ? html`<span class="badge">${t('profile.guest')}</span>` : ''}<span class="spacer"></span>
      ${me && me.id === data.id && html`<a class="btn small" href="#/account" data-testid="profile-edit">${t('profile.edit')}</a>`}</div>
    <p class="muted">${t('profile.member_since', { date: fmtDate(data.member_since) })}</p>
    <h2>${t('profile.games')}</h2>
    ${data.games.length === 0 ? html`<p class="muted">${t('profile.no_games')}</p>` : html`<table class="data" data-testid="profile-games">
      <thead><tr><th scope="col">${t('profile.col.game')}</th><th scope="col">${t('profile.col.matches')}</th>
        <th scope="col">${t('profile.col.win_rate')}</th><th scope="col">${t('profile.col.average')}</th>
        <th scope="col">${t('profile.col.chips')}</th><th scope="col">${t('profile.col.rating')}</th></tr></thead>
      <tbody>${data.games.map((g) => html`<tr key=${g.game} data-game=${g.game}>
        <td><a href=${'#/leaderboard/' + g.game}>${gameName(g.game)}</a></td><td class="num">${g.matches}</td>
        <td class="num">${pct(g.win_rate)}</td><td class="num">${g.average_score ?? '\u2014'}</td>
        <td class="num">${signed(g.chips)}</td>
        <td class="num" data-testid=${'profile-rating-' + g.game}>${g.rating ? g.rating.rating.toFixed(2) : '\u2014'}</td></tr>`)}</tbody></table>`}
    <h2>${t('profile.recent')}</h2>
    ${data.recent.length === 0 ? html`<p class="muted">${t('profile.no_games')}</p>`
      : html`<${MatchRows} matches=${data.recent} showReplay=${Boolean(me && me.id === data.id)} />`}
  </section>`;
}
