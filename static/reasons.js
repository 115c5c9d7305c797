// Why an action button is not available now: said on hover, on focus and on tap, instead of a
// silent disabled button (the button stays focusable, aria-disabled, and describes itself).
import { html, useState, useEffect } from './ui.js';
import { t } from './i18n.js';
import { figuredText } from './refusals.js';

/**
 * An action of the table: `why` null is an ordinary button; otherwise pressing it shows `why`
 * (as does hovering or focusing it) and does nothing else. `busy` (an action on its way)
 * disables it outright.
 */
export function ActionButton({ label, why, busy, onClick, className = '', action, testid }) {
  const [shown, setShown] = useState(false);
  useEffect(() => { if (!why) setShown(false); }, [why]);
  const tip = 'why-' + (action || testid);
  const press = (e) => (why ? setShown(true) : onClick(e));
  return html`<button type="button" class=${'btn ' + className} data-action=${action}
      data-testid=${testid} disabled=${busy} aria-disabled=${why ? 'true' : undefined}
      aria-describedby=${why ? tip : undefined} onClick=${press}
      onBlur=${() => setShown(false)}>${label}</button>
    ${why && html`<span role="tooltip" id=${tip} class=${'why' + (shown ? ' shown' : '')}
      data-testid=${tip}>${why}</span>`}`;
}

const threeEach = (groups) => groups.every((g) => g.length >= 3);

/**
 * Why the action `id` (a button's data-action or test id) cannot be taken with this selection:
 * `ctx` has the `view`, the selected codes `sel`, the codes not yet in a group `loose`, the
 * `groups` (codes) and the `proposed` melds (codes) a Meld or Show would send.
 */
export function whyNot(id, { view, sel, loose, groups, proposed }) {
  const turn = view.turn_state || {};
  switch (id) {
    case 'draw':
      return view.stock_count === 0 ? t('err.stock_empty') : t('hint.not_now');
    case 'draw-discard':
      if (!view.discard.length) return t('err.discard_empty');
      if (view.game === 'phom') return t('why.take_phom');
      if (view.aids && view.aids.opening) return t('why.take_opening', { need: view.aids.opening.need });
      return t('err.cannot_use_discard');
    case 'meld':
      if (!proposed.length) return t('hint.select_meld');
      return threeEach(proposed) ? t('hint.not_now') : t('why.three_cards');
    case 'show':
      return threeEach(proposed) ? t('hint.not_now') : t('why.three_cards');
    case 'declare':
      if (!groups.length) return t('hint.build_groups');
      return threeEach(groups) ? t('hint.not_now') : t('why.three_cards');
    case 'add-group':
      if (!loose.length) return t('why.select_group');
      return t('why.three_cards');
    case 'knock':
    case 'discard':
      return whyNotThrow(view, sel, turn);
    default:
      return t('hint.not_now');
  }
}

/** Why the selection cannot be discarded (or knocked with): GEN-8 and the games' own rules. */
function whyNotThrow(view, sel, turn) {
  if (sel.length !== 1) return t('hint.select_one');
  const card = sel[0];
  if (turn.must_use) return figuredText({ code: 'must_use_taken_card', card: turn.must_use });
  if (turn.jokers_to_play) return t('err.joker_must_be_played');
  const locked = view.locked && view.seat !== null ? view.locked[view.seat] || [] : [];
  if (locked.includes(card)) return t('err.card_locked');
  if ((turn.taken || []).includes(card)) return t('why.taken_card');
  return t('hint.not_now');
}
