// The one match replay viewer, for admins (the engine's full state at each step) and for
// players (their own seat's view at each step, every hand revealed at each hand's end), with
// the match's analysis beside it when given (static/analysis.js): each decision's grade, its
// best move's cards highlighted on the board, accuracy (and luck) per seat for the step's hand.
// A step the server played for the seat's person (its `played_for`: their timer ran out, or a
// stand-in played the seat; PROTOCOL.md §4) says so, in the list and at the step.
import { html, useState, useEffect, useRef } from './ui.js';
import { t, gameName, cardName } from './i18n.js';
import { CardImg } from './cards.js';
import { shortCard } from './table.js';
import { layOut } from './hand-order.js';
import { AnalysisStatus, AnalysisSummary, DecisionNote, actionCards, decisionsByStep, gradeMark } from './analysis.js';

export function describeAction(a) {
  if (!a) return t('replay.deal');
  switch (a.type) {
    case 'draw': return a.source === 'stock' ? t('replay.a.draw_stock') : t('replay.a.draw_discard', { card: a.card ? shortCard(a.card) : '' });
    case 'discard': return t('replay.a.discard', { card: shortCard(a.card) });
    case 'meld': case 'declare': case 'show':
      return t('replay.a.' + a.type, { melds: (a.melds || []).map((m) => m.map(shortCard).join(' ')).join(' | ') });
    case 'lay_off': return t('replay.a.lay_off', { cards: (a.cards || []).map(shortCard).join(' '), n: a.meld + 1 });
    case 'knock': return t('replay.a.knock', { card: shortCard(a.discard) });
    case 'swap_joker': return t('replay.a.swap_joker', { card: shortCard(a.card), n: a.meld + 1 });
    case 'borrow': return t('replay.a.borrow', { card: shortCard(a.card), n: a.meld + 1 });
    case 'call_rummy': return t('replay.a.call_rummy', { card: shortCard(a.discard), n: a.meld + 1 });
    case 'no_call': return t('replay.a.no_call'); // an analysis' best: letting the window pass
    default: return a.type;
  }
}

/** Who decided a step the server played for the seat's person: the sentence at the step. */
const playedForText = (step, names) => t('replay.played_for.' + step.played_for, { name: names[step.seat] });

/** The step list's short mark of a move the server played for the seat's person. */
const playedForMark = (step, names) => (step.played_for ? html` <span class="played-for-mark"
  data-testid="played-for-mark" data-played-for=${step.played_for} title=${playedForText(step, names)}>${t('replay.played_for_short.' + step.played_for)}</span>` : '');

/** A step's table as the viewer may see it: a full state (`hands`, `stock`) shows every hand;
 * a seat's view (`hand`, `hand_counts`) shows that seat's hand, the others face down until the
 * hand's end reveals them. Hands are laid out as the table lays them out. */
function seatCards(state, s) {
  if (state.hands) return { cards: layOut(state.hands[s]) };
  if (state.revealed && state.revealed.length) return { cards: layOut(state.revealed[s] || []) };
  if (state.seat === s) return { cards: layOut(state.hand) };
  return { backs: state.hand_counts[s] };
}

/** A card on the board, marked when it belongs to the best move of the step's decision. */
function BoardCard({ code, best }) {
  if (!best || !best.has(code)) return html`<${CardImg} code=${code} className="small" />`;
  return html`<${CardImg} code=${code} className="small best-card" label=${t('analysis.best_card', { card: cardName(code) })} />`;
}

/** `best`: the card codes of the step's best move (a Set) and `bestSeat` the seat whose move it
 * was: highlighted in its hand and on the discard pile. */
function ReplayBoard({ state, names, label, best = null, bestSeat = null }) {
  const seats = [...Array(state.players).keys()];
  const stock = state.stock ? state.stock.length : state.stock_count;
  return html`<section class="felt" data-testid="replay-board" aria-label=${label}>
    <div class="felt-head"><span class="felt-title">${gameName(state.game)}</span>
      <span>${t('table.hand_no', { n: state.hand_no + 1 })}</span>
      <span data-testid="replay-phase">${t('replay.phase', { phase: t('replay.phase_name.' + state.phase) })}</span></div>
    <div class="center">
      <div class="pile"><${CardImg} back=${true} /><span class="pile-caption">${t('table.stock')} · ${stock}</span></div>
      <div class="pile">${state.discard.length ? html`<${CardImg} code=${state.discard[state.discard.length - 1]}
          className=${best && best.has(state.discard[state.discard.length - 1]) ? 'best-card' : ''} />` : html`<span class="empty-slot"></span>`}
        <span class="pile-caption">${t('table.discard')} · ${state.discard.length}</span></div>
    </div>
    <div class="melds">${state.melds.length === 0 && html`<p class="muted melds-empty">${t('table.no_melds')}</p>`}
      ${state.melds.map((m) => html`<div class="meld"><span class="meld-head">${names[m.owner]}</span>
        <div class="meld-cards">${m.cards.map((c) => html`<${CardImg} code=${c} className="small" />`)}</div></div>`)}</div>
    ${seats.map((s) => {
      const { cards, backs } = seatCards(state, s);
      return html`<div class=${'replay-seat ' + (state.turn === s ? 'active' : '')} data-testid=${'replay-seat-' + s}>
      <div class="seat-head"><span class="seat-name">${names[s]}</span>
        <span class="muted">${t('table.points', { n: state.totals[s] })}</span>
        ${state.dealer === s ? html`<span class="badge dealer">${t('table.dealer_short')}</span>` : ''}</div>
      <div class="replay-hand">${cards
        ? cards.map((c) => html`<${BoardCard} code=${c} best=${s === bestSeat ? best : null} />`)
        : [...Array(backs).keys()].map(() => html`<${CardImg} back=${true} className="small" />`)}</div>
    </div>`;
    })}
  </section>`;
}

/** Step through `steps` ({hand, index, seat, action, state}); `label` names the board;
 * `analysis` (useAnalysis's answer, optional) grades the steps that were decisions. */
export function ReplayViewer({ steps, names, label, analysis = null }) {
  const [at, setAt] = useState(0);
  const [playing, setPlaying] = useState(false);
  const listRef = useRef(null);
  useEffect(() => {
    if (!playing) return undefined;
    const timer = setInterval(() => setAt((i) => {
      if (i >= steps.length - 1) {
        setPlaying(false);
        return i;
      }
      return i + 1;
    }), 700);
    return () => clearInterval(timer);
  }, [playing, steps]);
  useEffect(() => {
    const el = listRef.current && listRef.current.querySelector('.current');
    if (el) el.scrollIntoView({ block: 'nearest' });
  }, [at]);
  if (!steps.length) return html`<p class="muted">${t('replay.empty')}</p>`;
  const step = steps[at];
  const graded = analysis && analysis.state === 'ready' ? analysis.analysis : null;
  const decisions = decisionsByStep(graded);
  const decisionAt = (s) => (s.index === null || s.index === undefined ? null : decisions.get(`${s.hand}:${s.index}`));
  const decision = decisionAt(step);
  const best = decision && decision.loss > 0 ? new Set(actionCards(decision.best)) : null;
  const go = (i) => setAt(Math.max(0, Math.min(steps.length - 1, i)));
  const keys = (e) => { // ← → step, Home End jump (the slider keeps its own keys)
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey || e.target.type === 'range') return;
    e.preventDefault();
    go(to);
  };
  return html`<section class="panel replay" data-testid="replay" onKeyDown=${keys}>
    <h2>${t('replay.title')}</h2>
    <div class="replay-controls">
      <button type="button" class="btn small" onClick=${() => go(0)} aria-label=${t('replay.first')}>|\u25C0</button>
      <button type="button" class="btn small" data-testid="replay-prev" aria-keyshortcuts="ArrowLeft" onClick=${() => go(at - 1)} aria-label=${t('replay.prev')}>\u25C0</button>
      <button type="button" class="btn small primary" data-testid="replay-play" onClick=${() => setPlaying(!playing)}>
        ${playing ? t('replay.pause') : t('replay.play')}</button>
      <button type="button" class="btn small" data-testid="replay-next" aria-keyshortcuts="ArrowRight" onClick=${() => go(at + 1)} aria-label=${t('replay.next')}>\u25B6</button>
      <button type="button" class="btn small" data-testid="replay-last" onClick=${() => go(steps.length - 1)} aria-label=${t('replay.last')}>\u25B6|</button>
      <input type="range" min="0" max=${steps.length - 1} value=${at} aria-label=${t('replay.jump')}
             onInput=${(e) => go(Number(e.target.value))} />
      <span data-testid="replay-pos">${t('replay.position', { n: at + 1, total: steps.length })}</span>
    </div>
    <p class="replay-now" data-testid="replay-now"><strong>${t('table.hand_no', { n: step.hand + 1 })}</strong> ·
      ${step.seat !== null ? `${names[step.seat]}: ` : ''}${describeAction(step.action)}
      ${step.played_for ? html` · <span class="played-for" data-testid="replay-played-for"
        data-played-for=${step.played_for}>${playedForText(step, names)}</span>` : ''}
      ${step.error ? html` <span class="form-error">${step.error.code}: ${step.error.message}</span>` : ''}</p>
    ${decision && html`<${DecisionNote} decision=${decision} names=${names} describe=${describeAction} />`}
    ${analysis && html`<${AnalysisStatus} got=${analysis} />`}
    <div class="replay-board">
      <${ReplayBoard} state=${step.state} names=${names} label=${label} best=${best} bestSeat=${decision ? decision.seat : null} />
      <ol class="action-list" ref=${listRef} aria-label=${t('replay.actions')}>
        ${steps.map((s, i) => html`<li key=${i}><button type="button" class=${i === at ? 'current' : ''} onClick=${() => go(i)}>
          ${i + 1}. ${s.seat !== null ? names[s.seat] + ': ' : ''}${describeAction(s.action)}${playedForMark(s, names)}${gradeMark(decisionAt(s))}</button></li>`)}
      </ol>
    </div>
    ${graded && html`<${AnalysisSummary} analysis=${graded} names=${names} hand=${step.hand} game=${step.state.game} />`}
  </section>`;
}
