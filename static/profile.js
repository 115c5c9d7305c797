// A player's public profile (#/player/{id}): name, member since, per game matches, win rate
// (wins and losses counted by the ratings' own-play rule: docs/server.md),
// average score per hand, chips won and rating, and the recent matches; on the player's own
// profile, their accuracy per game over time (GET /api/me/accuracy: the analysed matches).
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';
import { MatchRows, fmtDate, signed } from './history.js';
import { fmtAccuracy } from './analysis.js';

const W = 240;
const H = 60;

/** One game's accuracies, oldest first, as a line from 0 to 100 %: an image with its figures
 * in its label. */
function Sparkline({ points, label }) {
  const x = (i) => (points.length === 1 ? W / 2 : 4 + (i * (W - 8)) / (points.length - 1));
  const y = (a) => H - 4 - (a * (H - 8)) / 100;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.accuracy).toFixed(1)}`).join(' ');
  return html`<svg class="sparkline" viewBox=${`0 0 ${W} ${H}`} width=${W} height=${H} role="img" aria-label=${label}>
    <line x1="0" x2=${W} y1=${y(50)} y2=${y(50)} class="sparkline-mid" />
    <polyline points=${line} class="sparkline-line" />
    ${points.map((p, i) => html`<circle cx=${x(i)} cy=${y(p.accuracy)} r="3" class="sparkline-dot" />`)}
  </svg>`;
}

/** My accuracy per game over time, from my analysed matches. */
function AccuracyOverTime() {
  const [points, setPoints] = useState(null);
  useEffect(() => {
    api('/api/me/accuracy').then((d) => setPoints(d.matches), () => setPoints([]));
  }, []);
  if (points === null) return null;
  const games = [...new Set(points.map((p) => p.game))];
  return html`<h2>${t('profile.accuracy')}</h2>
    ${games.length === 0 ? html`<p class="muted" data-testid="profile-accuracy-none">${t('profile.accuracy_none')}</p>`
      : html`<table class="data" data-testid="profile-accuracy"><thead><tr><th scope="col">${t('profile.col.game')}</th>
        <th scope="col">${t('profile.col.analysed')}</th><th scope="col">${t('profile.col.latest')}</th>
        <th scope="col">${t('profile.col.mean')}</th><th scope="col">${t('profile.col.over_time')}</th></tr></thead>
        <tbody>${games.map((g) => {
          const mine = points.filter((p) => p.game === g);
          const mean = mine.reduce((sum, p) => sum + p.accuracy, 0) / mine.length;
          const label = t('profile.accuracy_chart', { game: gameName(g), list: mine.map((p) => fmtAccuracy(p.accuracy)).join(', ') });
          return html`<tr key=${g} data-game=${g}><td>${gameName(g)}</td><td class="num">${mine.length}</td>
            <td class="num" data-testid=${'profile-accuracy-' + g}>${fmtAccuracy(mine[mine.length - 1].accuracy)}</td>
            <td class="num">${fmtAccuracy(mean)}</td><td><${Sparkline} points=${mine} label=${label} /></td></tr>`;
        })}</tbody></table>`}`;
}

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
        <td class="num" data-testid=${'profile-won-' + g.game}>${pct(g.win_rate)}
          <div class="muted small-text">${t('profile.won_lost', { wins: g.wins, losses: g.losses })}</div></td>
        <td class="num">${g.average_score ?? '\u2014'}</td>
        <td class="num">${signed(g.chips)}</td>
        <td class="num" data-testid=${'profile-rating-' + g.game}>${g.rating ? g.rating.rating.toFixed(2) : '\u2014'}</td></tr>`)}</tbody></table>`}
    ${me && me.id === data.id && html`<${AccuracyOverTime} />`}
    <h2>${t('profile.recent')}</h2>
    ${data.recent.length === 0 ? html`<p class="muted">${t('profile.no_games')}</p>`
      : html`<${MatchRows} matches=${data.recent} showReplay=${Boolean(me && me.id === data.id)} />`}
  </section>`;
}
