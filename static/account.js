// My account (#/account): keep a guest as an account, change the display name, claim the
// top-up when out of chips.
import { html, useState, useEffect, errorText } from './ui.js';
import { t } from './i18n.js';
import { api, session } from './api.js';

function Upgrade({ me, onDone }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const answer = await api('/api/auth/upgrade', { method: 'POST', body: { username, password } });
      session.save({ token: answer.token, player: answer.player });
      await onDone(t('account.upgraded', { name: me.name }));
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="panel" onSubmit=${submit} data-testid="upgrade-form">
    <h2>${t('account.upgrade_title')}</h2>
    <p class="muted">${t('account.upgrade_help')}</p>
    <label class="field">${t('auth.username')}<input name="username" value=${username} required autocomplete="username"
      onInput=${(e) => setUsername(e.target.value)} /></label>
    <label class="field">${t('auth.password')}<input name="password" type="password" value=${password} required minlength="10"
      autocomplete="new-password" onInput=${(e) => setPassword(e.target.value)} />
      <span class="help">${t('auth.password_help')}</span></label>
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
    <button class="btn primary" type="submit" data-testid="upgrade-submit">${t('account.upgrade_submit')}</button>
  </form>`;
}

function Rename({ me, onDone }) {
  const [name, setName] = useState(me.name);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      await api('/api/me', { method: 'PATCH', body: { name } });
      await onDone(t('account.renamed'));
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="panel" onSubmit=${submit} data-testid="rename-form">
    <h2>${t('account.name_title')}</h2>
    <p class="muted">${t(me.is_guest ? 'account.name_help_guest' : 'account.name_help')}</p>
    <label class="field">${t('auth.name')}<input name="display-name" value=${name} maxlength="32" required
      onInput=${(e) => setName(e.target.value)} /></label>
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
    <button class="btn" type="submit" data-testid="rename-submit">${t('account.name_submit')}</button>
  </form>`;
}

function TopUp({ onDone }) {
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);
  const load = () => api('/api/me/topup').then(setStatus, setError);
  useEffect(() => {
    load();
  }, []);
  const claim = async () => {
    setError(null);
    try {
      const paid = await api('/api/me/topup', { method: 'POST' });
      await load();
      await onDone(t('topup.claimed', { n: paid.amount }));
    } catch (err) {
      setError(err);
    }
  };
  return html`<section class="panel" data-testid="topup">
    <h2>${t('topup.title')}</h2>
    ${status && html`<p class="muted">${t('topup.help', { n: status.amount, hours: Math.round(status.period_seconds / 360) / 10 })}</p>
      ${status.available
        ? html`<button type="button" class="btn primary" data-testid="topup-claim" onClick=${claim}>${t('topup.claim', { n: status.amount })}</button>`
        : html`<p data-testid="topup-status">${status.chips > 0 ? t('topup.has_chips')
          : t('topup.next_at', { when: new Date(status.next_at).toLocaleString() })}</p>`}`}
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
  </section>`;
}

export function Account({ me, refreshMe }) {
  const [note, setNote] = useState(null);
  const done = async (text) => {
    setNote(text);
    await refreshMe();
  };
  return html`<div class="account" data-testid="account">
    <div class="row"><h1>${t('account.title')}</h1><span class="spacer"></span>
      <a class="btn small" href=${'#/player/' + me.id}>${t('account.profile')}</a></div>
    ${note && html`<p class="notice" role="status" data-testid="account-note">${note}</p>`}
    ${me.is_guest && html`<${Upgrade} me=${me} onDone=${done} />`}
    <${Rename} key=${me.name} me=${me} onDone=${done} />
    <${TopUp} onDone=${done} />
  </div>`;
}
