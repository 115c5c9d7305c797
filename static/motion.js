// Moves you can see: for each move in a state message's `events` (docs/server.md) a card flies
// from where it leaves (the stock, the discard pile, a seat's box, a card of the player's hand)
// to where it lands (the pile, a meld, a seat, the card now in the hand), and the seat that
// moved lights up. Every position is read from the live DOM when the move is shown, so the
// table's layout may change freely. Reduced motion (the system setting) keeps the highlight and
// drops the flight; card sounds play only if the player turned them on.
import { html, render, prefs } from './ui.js';
import { CardSvg, parseCode } from './cards.js';
import { cardSound } from './sounds.js';

const FLIGHT_MS = 450;
const STAGGER_MS = 120; // between the cards of one message (two melds, a meld and a discard)
const HIGHLIGHT_MS = 1600;
const LOG_KEEP = 60;

/** What was shown, for the browser tests: `{kind, seat, card, flew}` per move, a highlight or a
 * sound; the last LOG_KEEP entries. */
const shownLog = (window.__rummyMotion = window.__rummyMotion || []);

function note(entry) {
  shownLog.push({ ...entry, at: Date.now() });
  if (shownLog.length > LOG_KEEP) shownLog.splice(0, shownLog.length - LOG_KEEP);
}

const one = (selector) => document.querySelector(selector);
const handButtons = () => [...document.querySelectorAll('[data-testid=hand] button[data-key]')];
const codeOfKey = (key) => key.split('#')[0];
const plain = (code) => parseCode(code).card; // "JK:7H" in a meld is the joker held as "JK"

/* ---------- the places a card leaves and lands; `card` marks an element shaped like a card */

const stockPlace = () => ({ el: one('[data-testid=stock]'), card: true });
const seatPlace = (seat) => ({ el: one(`[data-testid=seat-${seat}]`), card: false });
/** Where a seat's cards are drawn in its box (the box itself if the layout has no such row). */
function seatCards(seat) {
  const box = seatPlace(seat).el;
  const row = box && box.querySelector('.seat-cards');
  const shown = row && row.getBoundingClientRect();
  return { el: shown && shown.width && shown.height ? row : box, card: false };
}
const meldPlace = (id) => ({ el: one(`[data-meld="${id}"]`) || one('[data-testid=melds]'), card: false });

function pilePlace(code) {
  const area = one('.discard-area');
  if (area) {
    const cards = [...area.querySelectorAll('[data-card]')].filter((b) => !code || b.dataset.card === code);
    return { el: cards[cards.length - 1] || area, card: cards.length > 0 };
  }
  return { el: one('[data-testid=discard-top]') || one('[data-testid=discard]'), card: true };
}

/** A card of the player's own hand: the last one of `code` whose key is not in `known` (the
 * keys the hand had before a draw), else the hand itself. */
function handCard(code, known) {
  const matching = handButtons().filter((b) => codeOfKey(b.dataset.key) === plain(code)
    && !(known && known.has(b.dataset.key)));
  const el = matching[matching.length - 1];
  return el ? { el, card: true } : { el: one('[data-testid=hand]'), card: false };
}

/** Where `seat` holds `code`: that card of the player's own hand (or the hand), else the row of
 * cards in the seat's box. */
function holder(seat, mine, code) {
  if (seat !== mine) return seatCards(seat);
  return code ? handCard(code) : { el: one('[data-testid=hand]'), card: false };
}

/**
 * The flights of one event, for the viewer in seat `mine` (null for a spectator): `from` is read
 * before the new state is drawn, `to` after it (`before`: the hand's card keys before).
 */
function flightsOf(e, mine, before) {
  const s = e.seat;
  const flight = (kind, card, from, to) => ({ kind, seat: s, card, from, to });
  const toHand = (code) => () => (s === mine && code ? handCard(code, before) : holder(s, mine, null));
  const fromHand = (code) => () => holder(s, mine, code);
  const toPile = (code) => flight('discard', code, fromHand(code), () => pilePlace(code));
  const cards = e.cards || [];
  switch (e.type) {
    case 'draw':
      return e.source === 'stock'
        ? [flight('draw', e.card || null, stockPlace, toHand(e.card))]
        : [flight('take', e.card, () => pilePlace(e.card), toHand(e.card))];
    case 'discard': return [toPile(e.card)];
    case 'knock': return e.discard ? [toPile(e.discard)] : [];
    case 'meld': case 'show': case 'declare':
      return [...(e.melds || []).map((m) => flight('meld', m.cards[0], fromHand(m.cards[0]), () => meldPlace(m.id))),
        ...(e.type === 'declare' && e.discard ? [toPile(e.discard)] : [])];
    case 'lay_off': return [flight('lay_off', cards[0], fromHand(cards[0]), () => meldPlace(e.meld))];
    case 'rummy_call': // OPT-CALL-9: the called discard goes onto the meld, the caller discards
      return [flight('lay_off', e.card, () => pilePlace(e.card), () => meldPlace(e.meld)), toPile(e.discard)];
    case 'borrow': // OPT-BORROW-1: a card of a meld joins the borrower's cards in a new meld
      return e.meld ? [flight('meld', e.card, () => meldPlace(e.from), () => meldPlace(e.meld.id))] : [];
    default: return [];
  }
}

/** A card-sized box for `place`: a card's own box, or one centred on a seat, a meld or the hand. */
function boxOf(place) {
  if (!place.el || !place.el.isConnected) return null;
  const r = place.el.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  if (place.card) return { left: r.left, top: r.top, width: r.width, height: r.height };
  const stock = one('[data-testid=stock]');
  const size = stock ? stock.getBoundingClientRect() : { width: 60, height: 84 };
  const width = Math.min(size.width * 0.75, r.width);
  const height = width * 1.4;
  return { left: r.left + (r.width - width) / 2, top: r.top + (r.height - height) / 2, width, height };
}

const place = (el, box) => Object.assign(el.style, { left: `${box.left}px`, top: `${box.top}px`,
  width: `${box.width}px`, height: `${box.height}px` });

/**
 * Fly one card from box `from` to the place `to`. The card's base box follows `to` while it
 * flies (the layout may move under it), its transform runs from `from` to that base; once it has
 * landed it is marked `data-landed` for a frame and removed, showing what it covered.
 */
function fly(flight, from, to, delay) {
  let target = boxOf(to);
  if (!from || !target || typeof Element.prototype.animate !== 'function') return false;
  const el = document.createElement('div');
  el.className = 'motion-card';
  el.dataset.motion = flight.kind;
  el.dataset.seat = String(flight.seat);
  el.setAttribute('aria-hidden', 'true');
  place(el, target);
  render(html`<${CardSvg} code=${flight.card} />`, el);
  document.body.append(el);
  const landing = to.card ? to.el : null; // hidden under the flying card until it lands
  if (landing) landing.setAttribute('data-motion-landing', '');
  const start = `translate(${from.left - target.left}px, ${from.top - target.top}px) `
    + `scale(${from.width / target.width}, ${from.height / target.height})`;
  const anim = el.animate([{ transform: start }, { transform: 'none' }],
    { duration: FLIGHT_MS, delay, easing: 'cubic-bezier(.2,.7,.3,1)', fill: 'backwards' });
  let flying = true;
  const follow = () => {
    if (!flying) return;
    target = boxOf(to) || target;
    place(el, target);
    requestAnimationFrame(follow);
  };
  requestAnimationFrame(follow);
  const landed = () => {
    flying = false;
    place(el, boxOf(to) || target);
    el.setAttribute('data-landed', '');
    requestAnimationFrame(() => {
      el.remove();
      if (landing) landing.removeAttribute('data-motion-landing');
    });
  };
  anim.onfinish = landed;
  anim.oncancel = landed;
  return true;
}

const lit = new WeakMap();

/** Light up the box of the seat that moved for a moment (the class stays Preact's to set). */
function highlight(seat) {
  const el = seatPlace(seat).el;
  if (!el) return;
  clearTimeout(lit.get(el));
  el.setAttribute('data-acted', '');
  lit.set(el, setTimeout(() => el.removeAttribute('data-acted'), HIGHLIGHT_MS));
  note({ kind: 'highlight', seat });
}

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
const ACTED = new Set(['draw', 'discard', 'knock', 'meld', 'show', 'declare', 'lay_off', 'swap_joker',
  'borrow', 'call', 'rummy_call', 'block']);

/**
 * Show the moves of state message `m`; call it when the message arrives, before it is drawn.
 * A connection's first state (it carries `chat`: the room's recent past) and a page nobody looks
 * at show nothing; a message that ends or deals a hand only lights up its seats (the result
 * covers the table).
 */
export function showMoves(m) {
  if (m.type !== 'state' || !m.view || m.chat || document.hidden) return;
  const events = m.events || [];
  const mine = m.view.seat;
  const still = reducedMotion() || events.some((e) => e.type === 'hand_over' || e.type === 'deal');
  const before = new Set(handButtons().map((b) => b.dataset.key));
  const flights = events.filter((e) => typeof e.seat === 'number').flatMap((e) => flightsOf(e, mine, before));
  const sources = flights.map((f) => (still ? null : boxOf(f.from())));
  const seats = new Set(events.filter((e) => ACTED.has(e.type) && typeof e.seat === 'number'
    && e.seat !== mine).map((e) => e.seat));
  const sound = prefs().cardSounds;
  requestAnimationFrame(() => { // the new state is drawn by now (Preact renders in a microtask)
    seats.forEach(highlight);
    flights.forEach((f, i) => {
      const flew = !still && fly(f, sources[i] || boxOf(f.from()), f.to(), i * STAGGER_MS);
      note({ kind: f.kind, seat: f.seat, card: f.card, flew });
      if (!sound) return;
      setTimeout(() => note({ kind: 'sound', sound: f.kind, played: cardSound(f.kind) }), i * STAGGER_MS);
    });
  });
}
