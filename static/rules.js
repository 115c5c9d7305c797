// A game's rules for players, shortened from the rule book: at the table and on the host form.
import { html } from './ui.js';
import { t, gameName, gameDesc } from './i18n.js';

export function RulesPanel({ game, open = false }) {
  return html`<details class="panel rules-panel" data-testid="rules-panel" open=${open}>
    <summary>${t('rules.title', { game: gameName(game) })}</summary>
    <p>${gameDesc(game)}</p>
    <h3>${t('rules.turn')}</h3>
    <p data-testid="rules-turn">${t(`rules.${game}.turn`)}</p>
    <h3>${t('rules.score')}</h3>
    <p>${t(`rules.${game}.score`)}</p>
  </details>`;
}
