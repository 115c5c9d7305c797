// Admin pages: matches with filters, a match's details and step-by-step replay, player ledgers,
// and the record of admin views of matches in progress; moderation's pages (reports, sanctions,
// corrections, the audit, fair play) are static/admin/moderation.js.
import { html, render, useState, useEffect, useLang, Toasts, LangSwitcher, errorText } from '../ui.js';
import { t, setLang, preferredLang, gameName } from '../i18n.js';
import { api, revokeToken } from '../api.js';
import { ReplayViewer } from '../replay.js';
import { GRADES, GradeBadge, fmtAccuracy, ownDecisions, useAnalysis } from '../analysis.js';
import { TOKEN_KEY, adminApi, fmtDate, usePage, Pager } from './session.js';
import { Reports, Sanctions, Corrections, Audit, FairPlay } from './moderation.js';

const GAMES = ['standard', 'boat_house', 'kaluki', 'double_rum', 'knock', 'continental', 'queen_city', 'phom', 'german', 'nowrang'];

function Login({ onDone }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const auth = await api('/api/auth/login', { method: 'POST', body: { username, password }, token: null });
      const me = await api('/api/me', { token: auth.token });
      if (me.role !== 'admin') throw Object.assign(new Error(''), { code: 'not_admin' });
      localStorage.setItem(TOKEN_KEY, auth.token);
      onDone(me);
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="panel narrow" onSubmit=${submit} data-testid="admin-login">
    <h1>${t('admin.login')}</h1>
    <label class="field">${t('auth.username')}<input name="username" value=${username} required onInput=${(e) => setUsername(e.target.value)} /></label>
    <label class="field">${t('auth.password')}<input name="password" type="password" value=${password} required onInput=${(e) => setPassword(e.target.value)} /></label>
    ${error && html`<p class="form-error" role="alert">${errorText(error, { detail: true })}</p>`}
    <button class="btn primary wide" type="submit">${t('auth.submit.login')}</button>
  </form>`;
}

/* ------------------------------------------------------------------ matches */

function Matches({ onOpen }) {
  const [filters, setFilters] = useState({ player: '', game: '', status: '', since: '', until: '' });
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  const load = async (e) => {
    if (e) e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filters)) {
      if (!v) continue;
      if (k === 'since') q.set(k, new Date(v + 'T00:00:00').toISOString());
      else if (k === 'until') q.set(k, new Date(v + 'T23:59:59').toISOString());
      else q.set(k, v);
    }
    try {
      setList((await adminApi('/api/admin/matches?' + q)).matches);
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    load();
  }, []);
  const set = (k) => (e) => setFilters({ ...filters, [k]: e.target.value });
  const names = (m) => m.seats.map((s) => s.name + (s.bot ? ' \u2699' : '')).join(', ');
  return html`<section class="panel">
    <h2>${t('admin.matches')}</h2>
    <form class="filters" onSubmit=${load} data-testid="match-filters">
      <label class="field">${t('admin.filter.player')}<input value=${filters.player} onInput=${set('player')} /></label>
      <label class="field">${t('admin.filter.game')}<select value=${filters.game} onChange=${set('game')}>
        <option value="">${t('admin.any')}</option>${GAMES.map((g) => html`<option value=${g}>${gameName(g)}</option>`)}</select></label>
      <label class="field">${t('admin.filter.status')}<select value=${filters.status} onChange=${set('status')}>
        <option value="">${t('admin.any')}</option>${['active', 'finished', 'abandoned'].map((s) => html`<option value=${s}>${t('match.status.' + s)}</option>`)}</select></label>
      <label class="field">${t('admin.filter.since')}<input type="date" value=${filters.since} onInput=${set('since')} /></label>
      <label class="field">${t('admin.filter.until')}<input type="date" value=${filters.until} onInput=${set('until')} /></label>
      <button class="btn primary" type="submit">${t('admin.search')}</button>
    </form>
    ${error && html`<p class="form-error" role="alert">${errorText(error, { detail: true })}</p>`}
    ${list && (list.length === 0
      ? html`<p class="muted">${t('admin.no_matches')}</p>`
      : html`<table class="data" data-testid="match-list">
        <thead><tr><th>${t('admin.col.created')}</th><th>${t('admin.col.game')}</th><th>${t('admin.col.players')}</th>
          <th>${t('admin.col.status')}</th><th>${t('admin.col.totals')}</th><th>${t('admin.col.stake')}</th></tr></thead>
        <tbody>${list.map((m) => html`<tr class="clickable" key=${m.id} data-match=${m.id} tabindex="0"
            onClick=${() => onOpen(m.id)} onKeyDown=${(e) => e.key === 'Enter' && onOpen(m.id)}>
          <td>${fmtDate(m.created_at)}</td><td>${gameName(m.game)}</td><td>${names(m)}</td>
          <td>${t('match.status.' + m.status)}</td><td>${(m.totals || []).join(' / ')}</td><td>${m.stake}</td>
        </tr>`)}</tbody></table>`)}
  </section>`;
}

/** Every seat's analysis of the match (PROTOCOL.md §10): its player's own decisions, accuracy,
 * points given up and how many of them had each grade, and the decisions the server made for
 * them (their timer, a stand-in: "Who decided"), which count in none of these. */
function SeatAnalysis({ got, names }) {
  if (got.state !== 'ready') return null;
  const a = got.analysis;
  const count = (seat, grade) => ownDecisions(a, seat).filter((d) => d.grade === grade).length;
  const playedFor = (seat) => a.decisions.filter((d) => d.seat === seat && d.played_for).length;
  return html`<section class="panel" data-testid="admin-analysis"><h2>${t('analysis.title')}</h2>
    <div class="table-scroll"><table class="data"><thead><tr><th scope="col">${t('admin.seat')}</th><th scope="col">${t('result.player')}</th>
      <th scope="col">${t('analysis.decisions')}</th><th scope="col">${t('analysis.match_accuracy')}</th><th scope="col">${t('analysis.loss_total')}</th>
      ${GRADES.map((g) => html`<th scope="col"><${GradeBadge} grade=${g} /></th>`)}<th scope="col">${t('analysis.played_for_count')}</th></tr></thead>
      <tbody>${a.seats.map((s) => html`<tr key=${s.seat} data-testid=${'admin-analysis-' + s.seat}><td>${s.seat + 1}</td><td>${names[s.seat]}</td>
        <td class="num">${s.decisions}</td><td class="num">${fmtAccuracy(s.accuracy)}</td><td class="num">${s.loss.toFixed(1)}</td>
        ${GRADES.map((g) => html`<td class="num">${count(s.seat, g)}</td>`)}
        <td class="num" data-testid=${'admin-played-for-' + s.seat}>${playedFor(s.seat)}</td></tr>`)}</tbody></table></div></section>`;
}

function Replay({ matchId, names }) {
  const [steps, setSteps] = useState(null);
  const [error, setError] = useState(null);
  const analysis = useAnalysis(matchId, adminApi);
  useEffect(() => {
    adminApi(`/api/admin/matches/${matchId}/states`).then((d) => setSteps(d.steps), setError);
  }, [matchId]);
  if (error) return html`<p class="form-error" role="alert">${errorText(error, { detail: true })}</p>`;
  if (!steps) return html`<p class="muted">${t('app.loading')}</p>`;
  return html`<${SeatAnalysis} got=${analysis} names=${names} />
    <${ReplayViewer} steps=${steps} names=${names} label=${t('replay.board')} analysis=${analysis} />`;
}

function MatchDetail({ matchId, onBack }) {
  const [log, setLog] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    adminApi(`/api/admin/matches/${matchId}`).then(setLog, setError);
  }, [matchId]);
  if (error) return html`<p class="form-error" role="alert">${errorText(error, { detail: true })}</p>`;
  if (!log) return html`<p class="muted">${t('app.loading')}</p>`;
  const m = log.match;
  const names = m.seats.map((s) => s.name);
  const download = () => {
    const clean = { game: log.game, options: log.options, players: log.players, hands: log.hands };
    const blob = new Blob([JSON.stringify(clean, null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `match-${matchId}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  const acct = (d) => (!d ? t('admin.bank_mint') : d.kind === 'wallet' ? t('admin.wallet_of', { name: names[m.seats.findIndex((s) => s.player_id === d.player_id)] || d.player_id })
    : d.kind === 'escrow' ? t('admin.escrow_of', { n: d.seat + 1 }) : t('admin.bank'));
  return html`<div class="admin-grid">
    <div class="row"><button type="button" class="btn small" onClick=${onBack}>\u2190 ${t('admin.back')}</button>
      <h1>${gameName(m.game)}</h1><span class="spacer"></span>
      <button type="button" class="btn" data-testid="download-log" onClick=${download}>${t('admin.download')}</button></div>
    <section class="panel">
      <h2>${t('admin.match')}</h2>
      <p>${t('admin.col.status')}: ${t('match.status.' + m.status)} · ${t('admin.col.created')}: ${fmtDate(m.created_at)} · ${t('admin.col.stake')}: ${m.stake}</p>
      <table class="data"><thead><tr><th>${t('admin.seat')}</th><th>${t('result.player')}</th><th>${t('score.total')}</th></tr></thead>
        <tbody>${m.seats.map((s) => html`<tr><td>${s.seat + 1}</td><td>${s.name}${s.bot ? html` <span class="badge">${t('table.bot')}</span>` : ''}</td>
          <td>${(m.totals || [])[s.seat] ?? ''}</td></tr>`)}</tbody></table>
      <h2>${t('admin.options')}</h2><pre class="json">${JSON.stringify(log.options, null, 1)}</pre>
    </section>
    <section class="panel"><h2>${t('admin.results')}</h2>
      <table class="data" data-testid="results"><thead><tr><th>${t('score.hand')}</th><th>${t('admin.winner')}</th><th>${t('admin.reason')}</th>
        ${names.map((n) => html`<th>${n}</th>`)}</tr></thead>
        <tbody>${log.results.map((r) => html`<tr><td>${r.hand + 1}</td><td>${r.winner !== null ? names[r.winner] : '\u2014'}</td>
          <td>${t.has('reason.' + r.reason) ? t('reason.' + r.reason) : r.reason}</td>${r.scores.map((x) => html`<td>${x}</td>`)}</tr>`)}</tbody></table></section>
    <section class="panel"><h2>${t('admin.transfers')}</h2>
      ${log.transfers.length === 0 ? html`<p class="muted">${t('admin.none')}</p>` : html`<table class="data"><thead><tr>
        <th>${t('admin.from')}</th><th>${t('admin.to')}</th><th>${t('admin.amount')}</th><th>${t('admin.reason')}</th><th>${t('score.hand')}</th></tr></thead>
        <tbody>${log.transfers.map((x) => html`<tr><td>${acct(x.from)}</td><td>${acct(x.to)}</td><td>${x.amount}</td><td>${x.reason}</td><td>${x.hand === null || x.hand === undefined ? '' : x.hand + 1}</td></tr>`)}</tbody></table>`}</section>
    <${Replay} matchId=${matchId} names=${names} />
  </div>`;
}

/* ------------------------------------------------------------------ players */

function Players() {
  const [q, setQ] = useState('');
  const [list, setList] = useState(null);
  const [ledger, setLedger] = useState(null);
  const [error, setError] = useState(null);
  const search = async (e) => {
    if (e) e.preventDefault();
    try {
      setList((await adminApi('/api/admin/players?q=' + encodeURIComponent(q))).players);
    } catch (err) {
      setError(err);
    }
  };
  const open = async (id) => {
    try {
      setLedger(await adminApi(`/api/admin/players/${id}/ledger`));
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    search();
  }, []);
  const acct = (d) => (!d ? t('admin.bank_mint') : t('admin.account_' + d.kind));
  return html`<div class="admin-grid">
    <section class="panel"><h2>${t('admin.players')}</h2>
      <form class="filters" onSubmit=${search}><label class="field">${t('admin.filter.name')}
        <input value=${q} onInput=${(e) => setQ(e.target.value)} /></label>
        <button class="btn primary" type="submit">${t('admin.search')}</button></form>
      ${error && html`<p class="form-error" role="alert">${errorText(error, { detail: true })}</p>`}
      ${list && html`<table class="data" data-testid="player-list"><thead><tr><th>${t('auth.name')}</th><th>${t('auth.username')}</th><th>${t('admin.role')}</th></tr></thead>
        <tbody>${list.map((p) => html`<tr class="clickable" tabindex="0" onClick=${() => open(p.id)} onKeyDown=${(e) => e.key === 'Enter' && open(p.id)}>
          <td>${p.name}</td><td>${p.username || t('admin.guest')}</td><td>${t('admin.role_' + p.role)}</td></tr>`)}</tbody></table>`}
    </section>
    ${ledger && html`<section class="panel" data-testid="ledger"><h2>${t('admin.ledger', { name: ledger.player.name })}</h2>
      <p>${t('me.balance')}: <strong>${ledger.balance}</strong></p>
      <table class="data"><thead><tr><th>${t('admin.when')}</th><th>${t('admin.from')}</th><th>${t('admin.to')}</th><th>${t('admin.amount')}</th><th>${t('admin.reason')}</th></tr></thead>
        <tbody>${ledger.transfers.map((x) => html`<tr><td>${fmtDate(x.at)}</td><td>${acct(x.from)}</td><td>${acct(x.to)}</td><td>${x.amount}</td><td>${x.reason}</td></tr>`)}</tbody></table>
    </section>`}
  </div>`;
}

/* ------------------------------------------------------------------ views of matches in progress */

const VIEWS_PAGE = 50;

function Views({ onOpen }) {
  const page = usePage('/api/admin/views', 'views', VIEWS_PAGE);
  const { list, error, offset } = page;
  return html`<section class="panel" data-testid="views">
    <h2>${t('admin.views_title')}</h2>
    <p class="muted">${t('admin.views_help')}</p>
    ${error && html`<p class="form-error" role="alert">${errorText(error, { detail: true })}</p>`}
    ${list && (list.length === 0 && offset === 0
      ? html`<p class="muted">${t('admin.no_views')}</p>`
      : html`<table class="data" data-testid="view-list">
        <thead><tr><th>${t('admin.when')}</th><th>${t('admin.col.admin')}</th><th>${t('admin.match')}</th>
          <th>${t('admin.col.route')}</th></tr></thead>
        <tbody>${list.map((v) => html`<tr key=${v.id}><td>${fmtDate(v.at)}</td><td>${v.admin_name}</td>
          <td><a href="#" onClick=${(e) => { e.preventDefault(); onOpen(v.match_id); }}>${v.match_id}</a></td>
          <td><code>${v.route}</code></td></tr>`)}</tbody></table>`)}
    <${Pager} page=${page} />
  </section>`;
}

const MODERATION_TABS = ['reports', 'sanctions', 'corrections', 'audit', 'fairplay'];

function AdminApp() {
  useLang();
  const [me, setMe] = useState(null);
  const [checked, setChecked] = useState(false);
  const [tab, setTab] = useState('matches');
  const [matchId, setMatchId] = useState(null);
  useEffect(() => {
    document.title = t('admin.title');
  });
  useEffect(() => {
    if (!localStorage.getItem(TOKEN_KEY)) {
      setChecked(true);
      return;
    }
    adminApi('/api/me').then((m) => setMe(m.role === 'admin' ? m : null), () => localStorage.removeItem(TOKEN_KEY))
      .finally(() => setChecked(true));
  }, []);
  const logout = async () => {
    await revokeToken(localStorage.getItem(TOKEN_KEY));
    localStorage.removeItem(TOKEN_KEY);
    setMe(null);
  };
  const [from, setFrom] = useState(null); // the page a match was opened from, to go back to
  const openMatch = (id) => {
    setFrom(tab === 'matches' ? null : tab);
    setTab('matches');
    setMatchId(id);
  };
  const back = () => {
    setMatchId(null);
    if (from) setTab(from);
    setFrom(null);
  };
  let body;
  if (!checked) body = html`<p class="loading">${t('app.loading')}</p>`;
  else if (!me) body = html`<${Login} onDone=${setMe} />`;
  else if (tab === 'players') body = html`<${Players} />`;
  else if (tab === 'views') body = html`<${Views} onOpen=${openMatch} />`;
  else if (tab === 'reports') body = html`<${Reports} onOpen=${openMatch} />`;
  else if (tab === 'sanctions') body = html`<${Sanctions} />`;
  else if (tab === 'corrections') body = html`<${Corrections} />`;
  else if (tab === 'audit') body = html`<${Audit} onOpen=${openMatch} />`;
  else if (tab === 'fairplay') body = html`<${FairPlay} onOpen=${openMatch} />`;
  else if (matchId) body = html`<${MatchDetail} matchId=${matchId} onBack=${back} />`;
  else body = html`<${Matches} onOpen=${setMatchId} />`;
  return html`<div class="app admin">
    <header class="topbar">
      <a class="brand" href="/admin/"><span class="brand-suit" aria-hidden="true">\u2660\u2665</span> ${t('admin.title')}</a>
      ${me && html`<nav class="topnav">
        <a href="#" onClick=${(e) => { e.preventDefault(); setTab('matches'); setMatchId(null); setFrom(null); }}>${t('admin.matches')}</a>
        <a href="#" onClick=${(e) => { e.preventDefault(); setTab('players'); }}>${t('admin.players')}</a>
        <a href="#" data-testid="tab-views" onClick=${(e) => { e.preventDefault(); setTab('views'); }}>${t('admin.views')}</a>
        ${MODERATION_TABS.map((x) => html`<a href="#" data-testid=${'tab-' + x} aria-current=${tab === x ? 'page' : null}
          onClick=${(e) => { e.preventDefault(); setTab(x); }}>${t('admin.' + x)}</a>`)}</nav>`}
      <div class="topright">
        ${me && html`<span class="who">${me.name}</span><button type="button" class="btn small ghost" onClick=${logout}>${t('auth.logout')}</button>`}
        <${LangSwitcher} />
      </div>
    </header>
    <main class="content">${me && !(tab === 'matches' && matchId) && html`<h1>${t('admin.' + tab)}</h1>`}${body}</main>
    <${Toasts} />
  </div>`;
}

await setLang(preferredLang());
render(html`<${AdminApp} />`, document.getElementById('app'));
