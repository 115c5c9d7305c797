// The turn prompt and live aids: from the game, the phase and the server's `legal` (and the
// seat's own `aids`: Knock's deadwood, points toward an opening, the contract, Phỏm's round).
import { html } from './ui.js';
import { t } from './i18n.js';

/** What the player should do now, in the game's own terms. */
export function turnPrompt(view, legal, room, seatName) {
  const seat = view.seat;
  if (view.hand_over) return t(view.game_over ? 'status.game_over' : 'status.hand_over');
  const callable = view.call_window && legal.has('call_rummy') && !view.call_window.called;
  if (seat === null || view.turn !== seat) {
    if (callable) return t('prompt.call');
    return view.turn !== null ? t('status.waiting_for', { name: seatName(room, view.turn) }) : '';
  }
  const aids = view.aids || {};
  const game = view.game;
  const mine = (k) => t('status.your_turn') + ' — ' + t(k, aids.opening || {});
  switch (view.phase) {
    case 'opening':
      return mine('prompt.opening');
    case 'draw_second':
      return mine('prompt.draw_second');
    case 'draw':
    case 'call':
      if (legal.has('declare')) return mine('prompt.draw_contract');
      if (game === 'phom') return mine('prompt.phom_draw');
      return mine(view.phase === 'call' ? 'prompt.draw_call' : 'prompt.draw');
    case 'play':
      if (game === 'phom') {
        if (legal.has('show')) return mine('prompt.phom_show');
        return mine(legal.has('lay_off') ? 'prompt.phom_after_show' : 'prompt.phom_play');
      }
      if (legal.has('knock')) return mine('prompt.play_knock');
      if (aids.contract) return mine('prompt.play_contract');
      if (legal.has('declare') && !legal.has('meld')) return mine('prompt.play_declare');
      if (aids.opening) return mine('prompt.play_opening');
      return mine('prompt.play');
    default:
      return mine('phase.' + view.phase);
  }
}

/** The seat's live aids, each on its own line (nothing for a spectator or a game without). */
export function Aids({ view }) {
  const aids = view.aids || {};
  const lines = [];
  if (aids.deadwood !== undefined) lines.push(['deadwood', t('aid.deadwood', { n: aids.deadwood })]);
  if (aids.opening) lines.push(['opening', t('aid.opening', aids.opening)]);
  if (aids.contract) {
    const patterns = aids.contract.map((p) => p.join('+')).join(t('aid.contract_or'));
    lines.push(['contract', t('aid.contract', { patterns })]);
  }
  if (aids.round) lines.push(['round', t('aid.round', aids.round)]);
  if (!lines.length) return null;
  return html`<ul class="aids" data-testid="aids" aria-label=${t('aid.title')}>
    ${lines.map(([k, text]) => html`<li key=${k} data-aid=${k}>${text}</li>`)}
  </ul>`;
}
