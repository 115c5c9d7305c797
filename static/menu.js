// The header's menu button: on a phone at the table the navigation, the player and the language
// fold into one menu so that the header is a single row (issue 18). Elsewhere, and on wider
// screens, the menu's content is laid out in the header as before (CSS `display: contents`).
import { html, useState, useEffect, useRef } from './ui.js';
import { t } from './i18n.js';

const FOCUSABLE = 'a[href], button:not(:disabled), select, input';

/** A disclosure button (aria-expanded, aria-controls) and the region it opens. Escape closes it
 * and gives the focus back to the button; following a link, or a click outside, closes it. */
export function HeaderMenu({ children }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef(null);
  const panelRef = useRef(null);

  useEffect(() => {
    const close = () => setOpen(false);
    window.addEventListener('hashchange', close);
    return () => window.removeEventListener('hashchange', close);
  }, []);
  useEffect(() => {
    if (!open) return undefined;
    const first = panelRef.current && panelRef.current.querySelector(FOCUSABLE);
    if (first) first.focus();
    const outside = (e) => {
      if (!panelRef.current.contains(e.target) && !buttonRef.current.contains(e.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const keys = (e) => {
    if (e.key !== 'Escape' || !open) return;
    e.preventDefault();
    setOpen(false);
    buttonRef.current.focus();
  };
  return html`<div class="header-menu" onKeyDown=${keys}>
    <button type="button" class="btn small ghost menu-btn" ref=${buttonRef} data-testid="menu"
        aria-expanded=${String(open)} aria-controls="header-menu" onClick=${() => setOpen(!open)}>
      <span aria-hidden="true">\u2630</span> ${t('nav.menu')}</button>
    <div id="header-menu" class=${'menu-panel' + (open ? ' open' : '')} ref=${panelRef}
        onClick=${(e) => { if (e.target.closest('a[href]')) setOpen(false); }}>${children}</div>
  </div>`;
}
