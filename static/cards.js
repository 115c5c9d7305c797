// Card pictures as inline SVG: rank and suit in the corners, a large pip in the middle.
import { html } from './ui.js';
import { cardName } from './i18n.js';

export const SUITS = ['C', 'D', 'H', 'S'];
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
const SYMBOL = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };
const RANK_TEXT = { T: '10' };

export const isRed = (suit) => suit === 'H' || suit === 'D';
export const rankIndex = (code) => RANKS.indexOf(code[0]);

/** Split "JK:7H" into the card and what it stands for. */
export function parseCode(code) {
  const [card, stands] = String(code).toUpperCase().split(':');
  return { card, stands: stands || null, joker: card === 'JK' };
}

/** The SVG face of a card code ("7H", "JK", "JK:7H"); `back` draws the back instead. */
export function CardSvg({ code, back = false }) {
  if (back || !code) return backSvg();
  const { card, stands, joker } = parseCode(code);
  if (joker) return jokerSvg(stands);
  return faceSvg(card, stands);
}

function faceSvg(card, stands) {
  const rank = RANK_TEXT[card[0]] || card[0];
  const suit = card[1];
  const color = isRed(suit) ? 'var(--red)' : 'var(--black)';
  const face = 'JQK'.includes(card[0]);
  return html`<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
    <rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" class="card-paper" />
    <g fill=${color}>
      <text x="5" y="15" class="card-rank">${rank}</text>
      <text x="5.5" y="27" class="card-suit-sm">${SYMBOL[suit]}</text>
      ${face
        ? html`<rect x="16" y="20" width="28" height="44" rx="3" fill="none" stroke=${color} stroke-width="1" opacity="0.5" />
               <text x="30" y="47" text-anchor="middle" class="card-face-letter">${card[0]}</text>
               <text x="30" y="60" text-anchor="middle" class="card-suit-sm">${SYMBOL[suit]}</text>`
        : html`<text x="32" y="56" text-anchor="middle" class="card-suit-lg">${SYMBOL[suit]}</text>`}
      <g transform="rotate(180 30 42)">
        <text x="5" y="15" class="card-rank">${rank}</text>
      </g>
    </g>
    ${stands ? standsBadge(stands) : null}
  </svg>`;
}

function jokerSvg(stands) {
  return html`<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
    <rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" class="card-paper" />
    <text x="5" y="14" class="card-joker-corner">JK</text>
    <text x="30" y="50" text-anchor="middle" class="card-joker-star">\u2605</text>
    <text x="30" y="70" text-anchor="middle" class="card-joker-word">JOKER</text>
    ${stands ? standsBadge(stands) : null}
  </svg>`;
}

function standsBadge(stands) {
  const color = isRed(stands[1]) ? 'var(--red)' : 'var(--black)';
  const rank = RANK_TEXT[stands[0]] || stands[0];
  return html`<g>
    <rect x="30" y="2" width="27" height="14" rx="3" class="card-badge" />
    <text x="43.5" y="12.5" text-anchor="middle" class="card-badge-text" fill=${color}>${rank}${SYMBOL[stands[1]]}</text>
  </g>`;
}

/** A card's back. Every back defines the same pattern and the first in the page paints them all,
 * so the pattern stays visible even where that first back is hidden (a phone's folded seats). */
function backSvg() {
  return html`<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
    <defs>
      <pattern id="cardback" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"
               style="visibility: visible">
        <rect width="6" height="6" fill="#1d4e89" />
        <rect width="3" height="6" fill="#2763a8" />
      </pattern>
    </defs>
    <rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill="#f4f1e8" stroke="#c9c3b0" />
    <rect x="4" y="4" width="52" height="76" rx="3" fill="url(#cardback)" />
  </svg>`;
}

/** A card as a focusable button (hand, discard area, melds in borrow mode). */
export function CardButton({ code, selected, onClick, label, className = '', ...rest }) {
  return html`<button type="button" class=${`card ${selected ? 'selected' : ''} ${className}`}
      aria-label=${label || cardName(code)} aria-pressed=${selected === undefined ? undefined : String(!!selected)}
      data-card=${code} onClick=${onClick} ...${rest}>
    <${CardSvg} code=${code} />
  </button>`;
}

/** A card that is only looked at. */
export function CardImg({ code, back = false, label, className = '' }) {
  return html`<span class=${'card static ' + className} role="img" data-card=${code || ''}
      aria-label=${label || cardName(back ? null : code)}>
    <${CardSvg} code=${code} back=${back} />
  </span>`;
}

/** Sort keys: by suit then rank, or by rank then suit; jokers last. */
export function sortCodes(codes, mode) {
  const key = (c) => {
    const { card, joker } = parseCode(c);
    if (joker) return [99, 99];
    const r = rankIndex(card);
    const s = SUITS.indexOf(card[1]);
    return mode === 'rank' ? [r, s] : [s, r];
  };
  return [...codes].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

/**
 * Order cards for a meld: a set as is; a run lowest first, the ace placed high or low (or around
 * the corner) by where the biggest gap is, wild cards filling the holes and then the top end.
 */
export function meldOrder(codes, wild = (c) => parseCode(c).joker) {
  const wilds = codes.filter(wild);
  const naturals = codes.filter((c) => !wild(c));
  const ranks = new Set(naturals.map((c) => c[0]));
  if (ranks.size <= 1) return [...naturals, ...wilds];
  const sorted = [...naturals].sort((a, b) => rankIndex(a) - rankIndex(b));
  // Start after the biggest cyclic gap, so Q-K-A and K-A-2 come out in order.
  let best = sorted.length - 1;
  let bestGap = -1;
  for (let i = 0; i < sorted.length; i++) {
    const a = rankIndex(sorted[i]);
    const b = rankIndex(sorted[(i + 1) % sorted.length]);
    const gap = (b - a + 13) % 13;
    if (gap > bestGap) {
      bestGap = gap;
      best = i;
    }
  }
  const run = [...sorted.slice(best + 1), ...sorted.slice(0, best + 1)];
  const out = [run[0]];
  const spare = [...wilds];
  for (let i = 1; i < run.length; i++) {
    let gap = (rankIndex(run[i]) - rankIndex(run[i - 1]) + 13) % 13;
    while (gap > 1 && spare.length) {
      out.push(spare.shift());
      gap--;
    }
    out.push(run[i]);
  }
  return [...out, ...spare];
}
