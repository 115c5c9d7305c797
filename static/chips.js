// Chips as the ledger holds them: the wallet, and what sits in escrow at each table (a buy-in,
// plus or minus what the hands settled). `me` is GET /api/me.
import { html } from './ui.js';
import { t } from './i18n.js';

/** Beside the header's balance: the chips at tables, when there are any. */
export function AtTables({ me }) {
  if (!me || !me.escrow) return null;
  return html`<span class="chips at-tables" data-testid="at-tables" title=${t('chips.explain')}>
    ${t('chips.at_tables', { n: me.escrow })}</span>`;
}

/** The table's chips line for a seated player of a room with a stake or buy-in. */
export function TableChips({ me, room, seated }) {
  if (!seated || !(room.stake || room.buy_in)) return null;
  const here = (me.tables && me.tables[room.id]) || 0;
  return html`<span class="table-chips" data-testid="table-chips" title=${t('chips.explain')}>
    <span data-testid="chips-stack">${t('chips.stack', { n: me.balance })}</span>
    <span data-testid="chips-escrow">${t('chips.escrow', { n: here })}</span>
  </span>`;
}
