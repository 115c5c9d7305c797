// The admins' moderation pages (PROTOCOL.md §9, issue 24): the reports queue and its decisions,
// sanctions (chat mute, suspension) given, listed while in force and lifted early, ledger
// corrections, the audit of every admin action, and the fair-play review's pairs. A match named by a report, the audit or
// a pair's evidence opens in the admin's match page and its step replay (`onOpen`).
import { html, useState, useEffect, errorText } from '../ui.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { adminApi, fmtDate, usePage, Pager } from './session.js';

const REPORT_STATUSES = ['open', 'dismissed', 'actioned'];
const SANCTION_KINDS = ['chat_mute', 'suspension'];
const LIST_LIMIT = 500;
const AUDIT_PAGE = 50;

/** A translation where there is one, else the code itself (an admin page may show codes). */
const word = (prefix, code) => (t.has(prefix + code) ? t(prefix + code) : code);

const names = new Map(); // player id -> name, or a promise of it

/** The names of the players `ids` names (asked once each, from their public profile). */
function useNames(ids) {
  const [, bump] = useState(0);
  const key = [...new Set(ids.filter(Boolean))].sort().join(',');
  useEffect(() => {
    for (const id of key ? key.split(',') : []) {
      if (names.has(id)) continue;
      names.set(id, null);
      api(`/api/players/${encodeURIComponent(id)}`).then((p) => names.set(id, p.name), () => names.set(id, id))
        .then(() => bump((n) => n + 1));
    }
  }, [key]);
  return (id) => (id ? names.get(id) || id : '\u2014');
}

function Failure({ error }) {
  return error ? html`<p class="form-error" role="alert">${errorText(error, { detail: true })}</p>` : null;
}

function MatchLink({ id, onOpen }) {
  if (!id) return '\u2014';
  return html`<a href="#" data-open-match=${id} onClick=${(e) => { e.preventDefault(); onOpen(id); }}>${t('admin.open_match')}</a>`;
}

/* ------------------------------------------------------------------ reports */

/** Dismiss or action a report, with a note (a decided report may be decided again). */
function Decide({ report, onDecided }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState(null);
  const decide = async (status) => {
    try {
      onDecided(await adminApi(`/api/admin/reports/${report.id}`, { method: 'POST', body: { status, note } }));
      setError(null);
    } catch (e) {
      setError(e);
    }
  };
  return html`<div class="decide">
    <input aria-label=${t('admin.note')} placeholder=${t('admin.note')} maxlength="1000" value=${note}
        data-testid="decide-note" onInput=${(e) => setNote(e.target.value)} />
    <button type="button" class="btn small" data-testid="decide-dismissed" onClick=${() => decide('dismissed')}>${t('admin.dismiss')}</button>
    <button type="button" class="btn small primary" data-testid="decide-actioned" onClick=${() => decide('actioned')}>${t('admin.action')}</button>
    <${Failure} error=${error} />
  </div>`;
}

export function Reports({ onOpen }) {
  const [status, setStatus] = useState('open');
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    adminApi(`/api/admin/reports?limit=${LIST_LIMIT}`).then((d) => setList(d.reports), setError);
  }, []);
  const name = useNames((list || []).flatMap((r) => [r.reporter, r.player, r.decided_by]));
  const [justDecided, setJustDecided] = useState(new Set()); // kept in view, whatever the filter
  const decided = (r) => {
    setList(list.map((x) => (x.id === r.id ? r : x)));
    setJustDecided(new Set([...justDecided, r.id]));
  };
  const shown = (list || []).filter((r) => !status || r.status === status || justDecided.has(r.id));
  return html`<section class="panel" data-testid="reports">
    <label class="field inline">${t('admin.col.status')}
      <select value=${status} data-testid="reports-status" onChange=${(e) => { setStatus(e.target.value); setJustDecided(new Set()); }}>
        <option value="">${t('admin.any')}</option>
        ${REPORT_STATUSES.map((s) => html`<option value=${s}>${t('admin.report_status.' + s)}</option>`)}</select></label>
    <${Failure} error=${error} />
    ${list && (shown.length === 0 ? html`<p class="muted">${t('admin.no_reports')}</p>`
      : html`<div class="table-scroll"><table class="data" data-testid="report-list">
        <thead><tr><th scope="col">${t('admin.when')}</th><th scope="col">${t('admin.reported')}</th><th scope="col">${t('admin.reporter')}</th>
          <th scope="col">${t('admin.reason')}</th><th scope="col">${t('admin.report_text')}</th><th scope="col">${t('admin.match')}</th>
          <th scope="col">${t('admin.col.status')}</th><th scope="col">${t('admin.decision')}</th></tr></thead>
        <tbody>${shown.map((r) => html`<tr key=${r.id} data-report=${r.id}>
          <td>${fmtDate(r.at)}</td><td>${name(r.player)}</td><td>${name(r.reporter)}</td>
          <td>${t('mod.reason.' + r.reason)}</td><td>${r.text || html`<span class="muted">\u2014</span>`}</td>
          <td><${MatchLink} id=${r.match} onOpen=${onOpen} /></td>
          <td data-testid="report-status">${t('admin.report_status.' + r.status)}</td>
          <td>${r.decided_by && html`<p data-testid="report-decision">${t('admin.decided_by', { name: name(r.decided_by), when: fmtDate(r.decided_at) })}${r.note ? ': ' + r.note : ''}</p>`}
            <${Decide} report=${r} onDecided=${decided} /></td>
        </tr>`)}</tbody></table></div>`)}
  </section>`;
}

/* ------------------------------------------------------------------ a player, by name */

/** Find a player by name or username and choose one: `value` their id. */
function PlayerPicker({ value, onChange }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState(null);
  const [error, setError] = useState(null);
  const search = async () => {
    try {
      const list = (await adminApi('/api/admin/players?q=' + encodeURIComponent(q))).players;
      setFound(list);
      setError(null);
      onChange(list.length ? list[0] : null);
    } catch (e) {
      setError(e);
    }
  };
  const keys = (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    search();
  };
  return html`<div class="admin-form">
    <label class="field">${t('admin.filter.name')}
      <input value=${q} data-testid="pick-query" onInput=${(e) => setQ(e.target.value)} onKeyDown=${keys} /></label>
    <button type="button" class="btn" data-testid="pick-search" onClick=${search}>${t('admin.search')}</button>
    ${found && (found.length === 0 ? html`<p class="muted">${t('admin.no_player')}</p>`
      : html`<label class="field">${t('result.player')}
        <select data-testid="pick-player" value=${value ? value.id : ''}
            onChange=${(e) => onChange(found.find((p) => p.id === e.target.value) || null)}>
          ${found.map((p) => html`<option value=${p.id}>${p.name}${p.username ? ` (${p.username})` : ''}</option>`)}</select></label>`)}
    <${Failure} error=${error} />
  </div>`;
}

/* ------------------------------------------------------------------ sanctions */

/** The sanctions as the server lists them (GET /api/admin/sanctions): those in force now, or
 * every one newest first with `all`; each in force can be lifted early. */
export function Sanctions() {
  const [player, setPlayer] = useState(null);
  const [form, setForm] = useState({ kind: 'chat_mute', hours: 24, reason: '' });
  const [all, setAll] = useState(false);
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  const load = () => adminApi(`/api/admin/sanctions?active=${!all}&limit=${LIST_LIMIT}`)
    .then((d) => setList(d.sanctions), setError);
  useEffect(() => {
    load();
  }, [all]);
  const give = async (e) => {
    e.preventDefault();
    try {
      await adminApi(`/api/admin/players/${player.id}/sanctions`, { method: 'POST',
        body: { kind: form.kind, hours: Number(form.hours), reason: form.reason } });
      setError(null);
      setForm({ ...form, reason: '' });
    } catch (err) {
      setError(err);
    }
    load();
  };
  const lift = async (id) => {
    try {
      await adminApi(`/api/admin/sanctions/${id}`, { method: 'DELETE' });
      setError(null);
    } catch (err) {
      setError(err);
    }
    load();
  };
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const inForce = (s) => !s.lifted_at && new Date(s.ends_at) > new Date();
  const state = (s) => (s.lifted_at ? t('admin.sanction_lifted') : t('admin.sanction_over'));
  return html`<section class="panel" data-testid="sanctions">
    <h2>${t('admin.sanction_new')}</h2>
    <${PlayerPicker} value=${player} onChange=${setPlayer} />
    <form class="admin-form" onSubmit=${give} data-testid="sanction-form">
      <label class="field">${t('admin.sanction_kind')}<select value=${form.kind} data-testid="sanction-kind" onChange=${set('kind')}>
        ${SANCTION_KINDS.map((k) => html`<option value=${k}>${t('admin.kind.' + k)}</option>`)}</select></label>
      <label class="field">${t('admin.hours')}<input type="number" min="1" max="87600" required value=${form.hours}
          data-testid="sanction-hours" onInput=${set('hours')} /></label>
      <label class="field">${t('admin.reason')}<input maxlength="1000" required value=${form.reason}
          data-testid="sanction-reason" onInput=${set('reason')} /></label>
      <button type="submit" class="btn primary" data-testid="sanction-give" disabled=${!player}>${t('admin.sanction_give')}</button>
    </form>
    <${Failure} error=${error} />
    <h2>${all ? t('admin.sanctions_given') : t('admin.sanctions_in_force')}</h2>
    <label class="field inline"><input type="checkbox" checked=${all} data-testid="sanctions-all"
        onChange=${(e) => setAll(e.target.checked)} /> ${t('admin.sanctions_all')}</label>
    ${list && (list.length === 0 ? html`<p class="muted" data-testid="sanctions-none">${t('admin.none')}</p>`
      : html`<div class="table-scroll"><table class="data" data-testid="sanction-list">
        <thead><tr><th scope="col">${t('result.player')}</th><th scope="col">${t('admin.sanction_kind')}</th><th scope="col">${t('admin.reason')}</th>
          <th scope="col">${t('admin.given_by')}</th><th scope="col">${t('admin.since')}</th><th scope="col">${t('admin.until')}</th>
          <th scope="col"><span class="sr-only">${t('admin.lift')}</span></th></tr></thead>
        <tbody>${list.map((s) => html`<tr key=${s.id} data-sanction=${s.id}>
          <td>${s.player_name}</td><td>${t('admin.kind.' + s.kind)}</td><td>${s.reason}</td><td>${s.admin_name}</td>
          <td>${fmtDate(s.at)}</td><td data-testid="sanction-until">${fmtDate(s.ends_at)}</td>
          <td>${inForce(s) ? html`<button type="button" class="btn small" data-testid="sanction-lift" onClick=${() => lift(s.id)}>${t('admin.lift')}</button>`
            : html`<span data-testid="sanction-state">${state(s)}</span>`}</td>
        </tr>`)}</tbody></table></div>`)}
  </section>`;
}

/* ------------------------------------------------------------------ corrections */

export function Corrections() {
  const [player, setPlayer] = useState(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState(null);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setDone(null);
    try {
      const answer = await adminApi(`/api/admin/players/${player.id}/chips`, { method: 'POST',
        body: { amount: Number(amount), reason } });
      setDone({ name: player.name, ...answer });
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  return html`<section class="panel" data-testid="corrections">
    <p class="muted">${t('admin.correction_help')}</p>
    <${PlayerPicker} value=${player} onChange=${setPlayer} />
    <form class="admin-form" onSubmit=${submit} data-testid="correction-form">
      <label class="field">${t('admin.amount')}<input type="number" step="1" required value=${amount}
          data-testid="correction-amount" onInput=${(e) => setAmount(e.target.value)} /></label>
      <label class="field">${t('admin.reason')}<input maxlength="1000" required value=${reason}
          data-testid="correction-reason" onInput=${(e) => setReason(e.target.value)} /></label>
      <button type="submit" class="btn primary" data-testid="correction-submit" disabled=${!player}>${t('admin.correct')}</button>
    </form>
    <${Failure} error=${error} />
    ${done && html`<p role="status" data-testid="correction-done">${t('admin.corrected', { name: done.name, amount: (done.amount > 0 ? '+' : '') + done.amount, balance: done.balance })}</p>`}
  </section>`;
}

/* ------------------------------------------------------------------ the audit */

export function Audit({ onOpen }) {
  const page = usePage('/api/admin/audit', 'actions', AUDIT_PAGE);
  const { list, error, offset } = page;
  const name = useNames((list || []).map((a) => a.player));
  return html`<section class="panel" data-testid="audit">
    <p class="muted">${t('admin.audit_help')}</p>
    <${Failure} error=${error} />
    ${list && (list.length === 0 && offset === 0 ? html`<p class="muted">${t('admin.none')}</p>`
      : html`<div class="table-scroll"><table class="data" data-testid="audit-list">
        <thead><tr><th scope="col">${t('admin.when')}</th><th scope="col">${t('admin.col.admin')}</th><th scope="col">${t('admin.audit_action')}</th>
          <th scope="col">${t('result.player')}</th><th scope="col">${t('admin.reason')}</th></tr></thead>
        <tbody>${list.map((a) => html`<tr key=${a.id} data-action=${a.action}>
          <td>${fmtDate(a.at)}</td><td>${a.admin_name}</td><td>${word('admin.audit.', a.action)}</td>
          <td>${a.player ? name(a.player) : '\u2014'}</td>
          <td>${a.action === 'view_live_match' ? html`<${MatchLink} id=${a.subject} onOpen=${onOpen} /> <code>${a.reason}</code>` : a.reason}</td>
        </tr>`)}</tbody></table></div>`)}
    <${Pager} page=${page} />
  </section>`;
}

/* ------------------------------------------------------------------ fair play */

/** The fair-play review (GET /api/admin/fairplay): pairs of players, highest score first, each
 * with its reasons in words and its evidence matches, each opening in the step replay. */
export function FairPlay({ onOpen }) {
  const [min, setMin] = useState(3);
  const [pairs, setPairs] = useState(null);
  const [error, setError] = useState(null);
  const load = async (e) => {
    if (e) e.preventDefault();
    try {
      setPairs((await adminApi(`/api/admin/fairplay?min_matches=${Number(min) || 1}`)).pairs);
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    load();
  }, []);
  const name = useNames((pairs || []).flatMap((p) => p.players));
  return html`<section class="panel" data-testid="fairplay">
    <p class="muted">${t('admin.fair_help')}</p>
    <form class="admin-form" onSubmit=${load}>
      <label class="field">${t('admin.fair_min')}<input type="number" min="1" value=${min} data-testid="fair-min"
          onInput=${(e) => setMin(e.target.value)} /></label>
      <button type="submit" class="btn primary">${t('admin.search')}</button>
    </form>
    <${Failure} error=${error} />
    ${pairs && (pairs.length === 0 ? html`<p class="muted">${t('admin.fair_none')}</p>`
      : html`<div class="table-scroll"><table class="data" data-testid="pair-list">
        <thead><tr><th scope="col">${t('admin.col.players')}</th><th scope="col">${t('admin.fair_matches')}</th>
          <th scope="col">${t('admin.fair_score')}</th><th scope="col">${t('admin.fair_reasons')}</th><th scope="col">${t('admin.fair_evidence')}</th></tr></thead>
        <tbody>${pairs.map((p) => html`<tr key=${p.players.join()} data-pair=${p.players.join()} data-flagged=${String(p.flagged)}>
          <td>${p.players.map(name).join(' \u00B7 ')}
            ${p.flagged && html` <span class="badge flagged" data-testid="pair-flagged">${t('admin.fair_flagged')}</span>`}</td>
          <td class="num">${p.matches}</td><td class="num">${Math.round(p.score * 100)}%</td>
          <td><ul class="plain">${p.reasons.map((r) => html`<li>${word('admin.fair_reason.', r)}</li>`)}</ul></td>
          <td>${p.evidence.map((m, i) => html`${i ? ', ' : ''}<a href="#" data-open-match=${m}
              onClick=${(e) => { e.preventDefault(); onOpen(m); }}>${t('admin.fair_match_n', { n: i + 1 })}</a>`)}</td>
        </tr>`)}</tbody></table></div>`)}
  </section>`;
}
