// Shared UI pieces: Preact + htm, toasts, the language switcher.
import { h, render, Fragment } from './vendor/preact.module.js';
import { useState, useEffect, useRef, useMemo, useCallback } from './vendor/hooks.module.js';
import htm from './vendor/htm.module.js';
import { t, LANGS, currentLang, setLang, onLangChange, optLabel } from './i18n.js';
import { cardSound } from './sounds.js';
import { figuredText } from './refusals.js';

export const html = htm.bind(h);
export { h, render, Fragment, useState, useEffect, useRef, useMemo, useCallback };

/** The time in epoch seconds, ticking twice a second while `active` (for countdowns). */
export function useNow(active) {
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now() / 1000), 500);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/**
 * While `active`, Escape anywhere on the page calls `onEscape`: a modal dialog closes on Escape
 * wherever the focus is (before the dialog has moved it in, or after a click on its text left it
 * on the body), not only from inside itself.
 */
export function useEscape(active, onEscape) {
  useEffect(() => {
    if (!active) return undefined;
    const onKey = (e) => { if (e.key === 'Escape') onEscape(); };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, onEscape]);
}

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

/** "Too many attempts: try again in 12 minutes", for a refusal that says how long to wait. */
function waitText(err) {
  if (!err || err.code !== 'too_many_attempts' || !(err.retryAfter > 0)) return null;
  return t('err.too_many_attempts_wait', { n: Math.ceil(err.retryAfter / 60) });
}

/**
 * The player-facing text for a refusal: the translation of its code, never the server's own
 * English explanation, rule IDs or the code itself, naming the figures a refusal carries
 * (`melds`: the table's, for a lay-off's); a refusal that names options (`options`, e.g.
 * conflicting_options) reads `err.<code>_named` with their labels. `detail` (admin pages)
 * appends the code and the server's message.
 */
export function errorText(err, { detail = false, melds = null } = {}) {
  const code = err && err.code ? String(err.code) : 'generic';
  const key = t.has('err.' + code) ? 'err.' + code : code.startsWith('http_') ? 'err.http' : 'err.generic';
  const named = err && Array.isArray(err.options) && err.options.length > 1 && t.has(key + '_named');
  const head = figuredText(err, melds) || waitText(err) || (named ? t(key + '_named', {
    option: optLabel(err.options[0]), others: err.options.slice(1).map(optLabel).join(', ') }) : t(key));
  if (!detail) return head;
  return err && err.message && err.message !== code ? `${head} (${code}: ${err.message})` : `${head} (${code})`;
}

/* ---------- the live region: turns and other players' moves, read out by screen readers */

const announceListeners = new Set();

/** Have screen readers read `text` (politely, after what they are saying). */
export function announce(text) {
  if (text) announceListeners.forEach((f) => f(text));
}

export function LiveRegion() {
  const [text, setText] = useState('');
  useEffect(() => {
    let n = 0;
    const f = (s) => setText(`${s}${'\u200B'.repeat(++n % 2)}`); // a repeated line is still read
    announceListeners.add(f);
    return () => announceListeners.delete(f);
  }, []);
  return html`<div class="sr-only" aria-live="polite" aria-atomic="true" data-testid="live">${text}</div>`;
}

/* ---------- focus that a re-render took away */

let lastFocused = null;
document.addEventListener('focusin', (e) => {
  lastFocused = e.target;
});

/**
 * When the focused control was removed or disabled by a re-render (the browser then moves focus
 * to the body), focus the first of `candidates` (elements or selectors) that can take it,
 * without scrolling: the page stays where the player left it (focusing a card of a phone's
 * pinned hand scrolled the page to the hand's place in the flow). Returns whether focus moved.
 */
export function restoreFocus(candidates) {
  const active = document.activeElement;
  if (active && active !== document.body && !active.disabled) return false;
  if (!lastFocused || (lastFocused.isConnected && !lastFocused.disabled)) return false;
  for (const c of candidates) {
    const el = typeof c === 'string' ? document.querySelector(c) : c;
    if (el && el.isConnected && !el.disabled) {
      el.focus({ preventScroll: true });
      return true;
    }
  }
  return false;
}

/* ---------- preferences kept in this browser */

const PREF_KEY = 'rummy.prefs';

export function prefs() {
  try {
    return { sound: false, cardSounds: false, notify: false, sortOnDeal: true, ...JSON.parse(localStorage.getItem(PREF_KEY) || '{}') };
  } catch {
    return { sound: false, cardSounds: false, notify: false, sortOnDeal: true };
  }
}

export function setPref(name, value) {
  localStorage.setItem(PREF_KEY, JSON.stringify({ ...prefs(), [name]: value }));
}

/* ---------- turn alerts */

let audio = null;

/** Two short rising tones made with WebAudio (no sound file to load). */
export function chime() {
  try {
    audio = audio || new AudioContext();
    const start = audio.currentTime + 0.01;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.2, start + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.14 + 0.13);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + i * 0.14);
      osc.stop(start + i * 0.14 + 0.14);
    });
  } catch {
    // No audio in this browser: the title and the live region still tell.
  }
}

/** The player's turn began: a sound and a notification, each if the player asked for it. The
 * notification only when the page is not being looked at. */
export function turnAlert(body) {
  const p = prefs();
  if (p.sound) chime();
  if (p.notify && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
    try {
      const n = new Notification(t('alert.notify_title'), { body, tag: 'rummy-turn' });
      n.onclick = () => window.focus();
    } catch {
      // Some browsers only allow notifications from a service worker.
    }
  }
}

/** The table's preferences: sound and notification on the player's turn, card sounds, sorting on
 * the deal. */
export function AlertPrefs() {
  const [p, setP] = useState(prefs);
  const [blocked, setBlocked] = useState(false);
  const change = async (name, value) => {
    if (name === 'notify' && value && 'Notification' in window && Notification.permission !== 'granted') {
      const answer = await Notification.requestPermission().catch(() => 'denied');
      setBlocked(answer !== 'granted');
      if (answer !== 'granted') return;
    }
    if (name === 'sound' && value) chime(); // a sample, and browsers allow audio after a click
    if (name === 'cardSounds' && value) cardSound('discard');
    setPref(name, value);
    setP(prefs());
  };
  const box = (name, label) => html`<label class="check">
    <input type="checkbox" checked=${p[name]} data-testid=${'pref-' + name}
           onChange=${(e) => change(name, e.target.checked)} /> ${t(label)}</label>`;
  return html`<section class="panel prefs" aria-labelledby="prefs-h">
    <h2 id="prefs-h">${t('alert.title')}</h2>
    ${box('sound', 'alert.sound')}
    ${box('cardSounds', 'alert.card_sounds')}
    ${'Notification' in window && box('notify', 'alert.notify')}
    ${blocked && html`<p class="help" role="status">${t('alert.notify_blocked')}</p>`}
    ${box('sortOnDeal', 'alert.sort_on_deal')}
  </section>`;
}
