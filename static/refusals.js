// A refusal's message with the figures the server sent beside its code (docs/server.md: the
// cards that are no meld, the card that does not fit and the meld, the points an opening
// needs, the card taken).
import { t, cardName } from './i18n.js';

const SYMBOL = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };

/** "5♣", "10♥", "JK" for a card as it lies on the table (a wild is shown as itself). */
const tableCard = (code) => {
  const card = String(code).split(':')[0];
  return card === 'JK' ? 'JK' : (card[0] === 'T' ? '10' : card[0]) + SYMBOL[card[1]];
};

/**
 * The player's message for a refusal that carries its figures, or null (the code's own text
 * then). `melds` (the table's, as in the view) lets a lay-off's refusal show the meld's cards.
 */
export function figuredText(err, melds) {
  if (!err) return null;
  if (err.code === 'initial_meld_too_low' && err.need != null && err.points != null) {
    return t('err.initial_meld_too_low_points', { need: err.need, points: err.points });
  }
  if (err.code === 'must_use_taken_card' && err.card) {
    return t('err.must_use_taken_card_named', { card: cardName(err.card) });
  }
  if (err.code === 'invalid_meld' && Array.isArray(err.cards) && err.meld == null) {
    return t('err.invalid_meld_group', { cards: err.cards.map(tableCard).join(' ') });
  }
  if (err.code === 'invalid_meld' && err.meld != null) {
    const meld = (melds || []).find((m) => m.id === err.meld);
    if (!meld) return null;
    const params = { n: err.meld + 1, cards: meld.cards.map(tableCard).join(' ') };
    return err.card ? t('err.invalid_meld_card', { ...params, card: cardName(err.card) })
      : t('err.invalid_meld_cards', params);
  }
  return null;
}
