// What each seat did last this hand, as a short line beside the seat ("drew from stock",
// "took 7♥", "melded 3 cards", "discarded K♠"): from the events of the state messages, so a
// computer player's moves show on the table as well as in the log (issue 18).
import { html } from './ui.js';
import { t } from './i18n.js';
import { shortCard } from './table.js';

const MOVES = new Set(['draw', 'discard', 'meld', 'lay_off', 'knock', 'declare', 'show',
  'swap_joker', 'borrow', 'call', 'rummy_call', 'block']);

/** Seat → its last move of the current hand, from the room's event log (`{e, key}` entries,
 * oldest first); a deal starts every seat afresh. */
export function lastMoves(log) {
  const last = {};
  for (const { e } of log) {
    if (e.type === 'deal') Object.keys(last).forEach((s) => delete last[s]);
    else if (MOVES.has(e.type) && e.seat !== undefined && e.seat !== null) last[e.seat] = e;
  }
  return last;
}

/** The move in a few words, without the seat's name (it stands beside the name). */
export function moveText(e) {
  switch (e.type) {
    case 'draw':
      return e.source === 'stock' ? t('seat.last.draw_stock') : t('seat.last.draw_discard', { card: shortCard(e.card || '') });
    case 'discard': return t('seat.last.discard', { card: shortCard(e.card) });
    case 'meld': return t('seat.last.meld', { n: (e.melds || []).reduce((n, m) => n + (m.cards || []).length, 0) });
    case 'lay_off': return t('seat.last.lay_off', { cards: (e.cards || []).map(shortCard).join(' ') });
    case 'swap_joker': return t('seat.last.swap_joker', { card: shortCard(e.card) });
    case 'borrow': return t('seat.last.borrow', { card: shortCard(e.card) });
    default: return t('seat.last.' + e.type);
  }
}

/** The line itself, its height kept before the seat's first move of the hand (no layout shift
 * when the first move arrives). */
export function LastMove({ move, seat }) {
  return html`<p class="seat-last" data-testid=${'last-move-' + seat}>${move ? moveText(move) : ''}</p>`;
}
