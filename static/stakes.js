// What a stake can move: a hand settles at most the payer's chips on the table (their buy-in,
// docs/server.md "Chips"), so a stake needs a buy-in, and the buy-in bounds what a player can
// lose and win. The host form explains it and proposes a buy-in; the waiting room and the table
// say what each player can win and lose.
import { html } from './ui.js';
import { t } from './i18n.js';

const MAX_CHIPS = 1000000; // the server's most for a stake or a buy-in
export const PROPOSED_POINTS = 100; // a proposed buy-in pays this many points at the stake

/** The buy-in proposed for a stake: enough for 100 points, within the server's bounds. */
export const proposedBuyIn = (stake) => Math.min(stake * PROPOSED_POINTS, MAX_CHIPS);

/** The most one player can lose (their buy-in) and win (every other seat's buy-in). */
export function stakeLimits(buyIn, seats) {
  return { lose: buyIn, win: buyIn * Math.max(seats - 1, 0) };
}

/** The host form's advice under stake and buy-in: a stake without a buy-in moves nothing, so
 * it proposes one; with both, it says what a player can lose and win. */
export function StakeAdvice({ stake, buyIn, seats, onPropose }) {
  const s = Number(stake) || 0;
  const b = Number(buyIn) || 0;
  if (s <= 0) return null;
  if (b <= 0) {
    const proposal = proposedBuyIn(s);
    return html`<div class="stake-advice warn" role="status" data-testid="stake-advice">
      <p>${t('stakes.needs_buy_in', { stake: s })}</p>
      <button type="button" class="btn small" data-testid="propose-buy-in"
        onClick=${() => onPropose(proposal)}>${t('stakes.propose', { buy_in: proposal, points: PROPOSED_POINTS })}</button>
    </div>`;
  }
  const { lose, win } = stakeLimits(b, Number(seats) || 2);
  return html`<p class="stake-advice help" role="status" data-testid="stake-advice">
    ${t('stakes.cap', { stake: s, lose, win })}</p>`;
}

/** The waiting room's and the table's line: what a seated player can lose and win here. */
export function StakeLimits({ room }) {
  if (!room.stake || !room.buy_in) return null;
  const { lose, win } = stakeLimits(room.buy_in, room.seats);
  return html`<span class="stake-limits" data-testid="stake-limits">${t('stakes.limits', { lose, win })}</span>`;
}
