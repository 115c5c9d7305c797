// Translations: every visible string comes from i18n/{lang}.json.
export const LANGS = ['en', 'es', 'da', 'nl', 'fi'];
const STORE_KEY = 'rummy.lang';
const listeners = new Set();
let lang = 'en';
let dict = {};

/** The language to start with: the saved choice, else the browser's, else English. */
export function preferredLang() {
  const saved = localStorage.getItem(STORE_KEY);
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

export function currentLang() {
  return lang;
}

export async function loadDict(l) {
  const res = await fetch(new URL(`./i18n/${l}.json`, import.meta.url));
  if (!res.ok) throw new Error(`no translations for ${l}`);
  return res.json();
}

export async function setLang(l) {
  if (!LANGS.includes(l)) l = 'en';
  dict = await loadDict(l);
  lang = l;
  plural = new Intl.PluralRules(l);
  localStorage.setItem(STORE_KEY, l);
  document.documentElement.lang = l;
  listeners.forEach((f) => f(l));
}

export function onLangChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

let plural = new Intl.PluralRules('en');

/**
 * The translation of `key`, with `{name}` placeholders filled from `params`. A numeric `params.n`
 * picks the language's plural form `key.one`, `key.few`, … (Intl.PluralRules) where the file has
 * one; `key` itself is the form for every other count.
 */
export function t(key, params) {
  const form = params && typeof params.n === 'number' ? `${key}.${plural.select(params.n)}` : null;
  let s = form && form in dict ? dict[form] : dict[key];
  if (s === undefined) {
    console.warn('missing translation', key);
    s = key;
  }
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return s;
}
t.has = (key) => Object.prototype.hasOwnProperty.call(dict, key);

const RANKS = { A: 'a', T: '10', J: 'j', Q: 'q', K: 'k' };

/** "Seven of hearts", "Joker as seven of hearts": a card code's accessible name. */
export function cardName(code) {
  if (!code) return t('card.unknown');
  const [card, stands] = String(code).toUpperCase().split(':');
  const base = card === 'JK' ? t('card.joker') : naturalName(card);
  return stands ? t('card.wild_as', { card: base, as: naturalName(stands) }) : base;
}

function naturalName(card) {
  const rank = card[0];
  const suit = card[1];
  const rk = RANKS[rank] || rank;
  return t('card.name', { rank: t('rank.' + rk), suit: t('suit.' + suit) });
}

export const gameName = (key) => t(`game.${key}.name`);
export const gameDesc = (key) => t(`game.${key}.desc`);
export const optLabel = (key) => t(`opt.${key}.label`);
export const optHelp = (key) => t(`opt.${key}.help`);
