// Shared UI pieces: Preact + htm, toasts, the language switcher.
import { h, render, Fragment } from './vendor/preact.module.js';
import { useState, useEffect, useRef, useMemo, useCallback } from './vendor/hooks.module.js';
import htm from './vendor/htm.module.js';
import { t, LANGS, currentLang, setLang, onLangChange } from './i18n.js';

export const html = htm.bind(h);
export { h, render, Fragment, useState, useEffect, useRef, useMemo, useCallback };

/** Re-render the calling component whenever the language changes. */
export function useLang() {
  const [, bump] = useState(0);
  useEffect(() => onLangChange(() => bump((n) => n + 1)), []);
  return currentLang();
}

const toastListeners = new Set();
let toastId = 0;

/** Show a short message at the bottom of the screen (kind: info | error | ok). */
export function toast(text, kind = 'info') {
  const item = { id: ++toastId, text, kind };
  toastListeners.forEach((f) => f(item));
}

export function Toasts() {
  const [items, setItems] = useState([]);
  useEffect(() => {
    const add = (item) => {
      setItems((list) => [...list.slice(-3), item]);
      setTimeout(() => setItems((list) => list.filter((x) => x.id !== item.id)), 6000);
    };
    toastListeners.add(add);
    return () => toastListeners.delete(add);
  }, []);
  return html`<div class="toasts" role="status" aria-live="polite">
    ${items.map((x) => html`<div key=${x.id} class=${'toast toast-' + x.kind}>${x.text}</div>`)}
  </div>`;
}

export function LangSwitcher() {
  const lang = useLang();
  return html`<label class="lang">
    <span class="sr-only">${t('lang.label')}</span>
    <select data-testid="lang" value=${lang} onChange=${(e) => setLang(e.target.value)}
            aria-label=${t('lang.label')}>
      ${LANGS.map((l) => html`<option value=${l}>${t('lang.' + l)}</option>`)}
    </select>
  </label>`;
}

/** The text for a refusal: the translated code, then the server's own explanation. */
export function errorText(err) {
  const code = err && err.code ? err.code : 'error';
  const key = 'err.' + code;
  const head = t.has(key) ? t(key) : t('err.generic', { code });
  return err && err.message && err.message !== code ? `${head} — ${err.message}` : head;
}
