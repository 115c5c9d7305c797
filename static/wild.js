// The wild-card dialog: the server lists every valid designation of each group (the socket's
// `designations` query, docs/server.md); the dialog offers only those, the first preselected.
import { html, useState, useEffect, useRef, errorText } from './ui.js';
import { t, cardName } from './i18n.js';

const plain = (code) => String(code).split(':')[0];

/** The groups of an action that may hold wild cards: [{path, cards, meld, single}] (single: the
 * path holds one card code, not a listing). */
function groupsOf(action) {
  if (action.type === 'call_rummy' && action.card) {  // the called card, laid off on the meld
    return [{ path: ['card'], cards: [plain(action.card)], meld: action.meld, single: true }];
  }
  if (Array.isArray(action.melds)) {
    return action.melds.map((m, i) => ({ path: ['melds', i], cards: m.map(plain), meld: null }));
  }
  if (Array.isArray(action.cards)) return [{ path: ['cards'], cards: action.cards.map(plain), meld: action.meld }];
  if (Array.isArray(action.into)) return [{ path: ['into'], cards: action.into.map(plain), meld: null }];
  return [];
}

/** "Joker as king of hearts, …": an option as the player reads it (its designated cards; a wild
 * two that plays itself: the whole listing). */
function optionText(listing) {
  const designated = listing.filter((c) => c.includes(':'));
  return (designated.length ? designated : listing).map(cardName).join(', ');
}

export function WildDialog({ pending, sock, onDone, onCancel }) {
  const [groups, setGroups] = useState(null);
  const [choice, setChoice] = useState([]);
  const [failed, setFailed] = useState(null); // the query's refusal, shown translated
  const first = useRef(null);

  useEffect(() => {
    let alive = true;
    Promise.all(groupsOf(pending.action).map(async (g) => {
      const answer = await sock.query({ type: 'designations', cards: g.cards, meld: g.meld });
      return { ...g, wilds: answer.wilds, options: answer.options };
    })).then((found) => {
      if (!alive) return;
      const open = found.filter((g) => g.wilds.length);
      setGroups(open);
      setChoice(open.map(() => 0));
    }, (err) => alive && setFailed(err));
    return () => { alive = false; };
  }, [pending]);
  useEffect(() => {
    if (first.current) first.current.focus();
  }, [groups]);

  const usable = groups && groups.length > 0 && groups.every((g) => g.options.length);
  const submit = (e) => {
    e.preventDefault();
    const next = JSON.parse(JSON.stringify(pending.action));
    groups.forEach((g, i) => {
      const listing = g.options[choice[i]];
      let target = next;
      for (const p of g.path.slice(0, -1)) target = target[p];
      target[g.path[g.path.length - 1]] = g.single ? listing[0] : [...listing];
    });
    onDone(next);
  };
  const keys = (e) => {
    if (e.key === 'Escape') onCancel();
  };

  return html`<div class="overlay" role="dialog" aria-modal="true" aria-labelledby="wild-h" onKeyDown=${keys}>
    <form class="panel designation" onSubmit=${submit} data-testid="designation">
      <h2 id="wild-h">${t('wild.title')}</h2>
      ${groups === null && !failed && html`<p class="muted">${t('app.loading')}</p>`}
      ${(failed || (groups && !usable)) && html`<p class="form-error" role="alert" data-testid="wild-none">
        ${failed ? errorText(failed) : t('wild.none')}</p>`}
      ${usable && html`<p>${t('wild.explain')}</p>
        ${groups.map((g, i) => html`<label class="field" key=${i}>${t('wild.group', { cards: g.cards.map(cardName).join(', ') })}
          <select ref=${i === 0 ? first : null} data-testid=${'wild-choice-' + i} value=${String(choice[i])}
              onChange=${(e) => setChoice((c) => c.map((x, j) => (j === i ? Number(e.target.value) : x)))}>
            ${g.options.map((o, k) => html`<option value=${String(k)}>${optionText(o)}</option>`)}
          </select></label>`)}`}
      <div class="row end">
        <button type="button" class="btn ghost" ref=${usable ? null : first} onClick=${onCancel}>${t('wild.cancel')}</button>
        ${usable && html`<button type="submit" class="btn primary" data-testid="wild-ok">${t('wild.ok')}</button>`}
      </div>
    </form>
  </div>`;
}
