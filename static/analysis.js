// A finished match's analysis (PROTOCOL.md §10, docs/analysis.md) in the client: fetched once
// (the first request may take seconds while the server works it out: "analysing…", not an
// error), each decision's grade and best move beside the replay, accuracy (and luck, when the
// answer has it) per seat and hand. A decision the server made for a person's seat (its
// `played_for`, PROTOCOL.md §10 "Who decided") is graded for information only: it counts in no
// seat's accuracy, and a seat with no decision of its own has none (null: "—").
import { html, useState, useEffect, errorText } from './ui.js';
import { t } from './i18n.js';
import { api } from './api.js';

export const GRADES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
// The chess-like marks of the grades that give something up, beside an action in the list.
const MARK = { inaccuracy: '?!', mistake: '?', blunder: '??' };
// docs/analysis.md, "Grades and accuracy": the game's unit and the accuracy scale, mirrored from
// app/analysis/report.py (UNIT, ACCURACY_SCALE) for a hand's accuracy when the answer has none.
const UNIT = { continental: 0.25, phom: 0.25, nowrang: 0.05 };
const ACCURACY_SCALE = 8;

/** The analysis of `matchId` fetched with `fetcher` (an admin's token, or the player's):
 * `{state: 'analysing' | 'ready' | 'unavailable' | 'error', analysis, error}`. A match in
 * progress (409), someone else's (403) or a visitor's (401) is `unavailable`: no analysis to show, no error. */
export function useAnalysis(matchId, fetcher = api) {
  const [got, setGot] = useState({ state: 'analysing', analysis: null, error: null });
  useEffect(() => {
    if (!matchId) {
      setGot({ state: 'unavailable', analysis: null, error: null });
      return undefined;
    }
    let live = true;
    setGot({ state: 'analysing', analysis: null, error: null });
    fetcher(`/api/matches/${encodeURIComponent(matchId)}/analysis`).then(
      (analysis) => live && setGot({ state: 'ready', analysis, error: null }),
      (error) => live && setGot({ state: [401, 403, 409].includes(error.status) ? 'unavailable' : 'error', analysis: null, error }));
    return () => { live = false; };
  }, [matchId]);
  return got;
}

/** The decisions keyed by `hand:index`, the position of their action in the replay's steps. */
export function decisionsByStep(analysis) {
  const out = new Map();
  for (const d of (analysis && analysis.decisions) || []) out.set(`${d.hand}:${d.index}`, d);
  return out;
}

/** The cards an action names (what the replay highlights of a best move). */
export function actionCards(a) {
  if (!a) return [];
  const melds = (a.melds || []).flat();
  return [a.card, a.discard, ...(a.cards || []), ...melds].filter(Boolean)
    .map((c) => String(c).split(':')[0]); // a designated joker "JK:7C" is the joker
}

/** A seat's accuracy (0–100) over the decisions of `hand` (every hand if null): the server's
 * figure where the answer gives one per hand, else the same formula as the server's. */
export function accuracyOf(analysis, seat, hand, game) {
  const given = seatHand(analysis, seat, hand);
  if (given && typeof given.accuracy === 'number') return given.accuracy;
  if (hand === null) {
    const s = analysis.seats.find((x) => x.seat === seat);
    return s ? s.accuracy : null;
  }
  const losses = ownDecisions(analysis, seat).filter((d) => d.hand === hand).map((d) => d.loss);
  if (!losses.length) return null;
  const scale = ACCURACY_SCALE * (UNIT[game] || 1);
  return Math.round(1000 * losses.reduce((sum, l) => sum + Math.exp(-l / scale), 0) / losses.length) / 10;
}

/** The decisions a seat's own player made (not those the server made for them). */
export const ownDecisions = (analysis, seat) => analysis.decisions.filter((d) => d.seat === seat && !d.played_for);

/** A seat's luck in `hand` (or the match) where the answer has it, else null. */
export function luckOf(analysis, seat, hand) {
  const given = seatHand(analysis, seat, hand);
  return given && typeof given.luck === 'number' ? given.luck : null;
}

function seatHand(analysis, seat, hand) {
  const s = analysis && analysis.seats.find((x) => x.seat === seat);
  if (!s) return null;
  if (hand === null) return s;
  return (s.hands || []).find((h) => h.hand === hand) || null;
}

export const fmtAccuracy = (x) => (x === null || x === undefined ? '\u2014' : `${Number(x).toFixed(1)} %`);
const fmtSigned = (x) => (x > 0 ? '+' : '') + Number(x).toFixed(1);

/** A grade as a badge: its word and, for the grades that give something up, its mark. */
export function GradeBadge({ grade }) {
  return html`<span class=${'grade grade-' + grade} data-grade=${grade}>${t('analysis.grade.' + grade)}${MARK[grade] ? ` ${MARK[grade]}` : ''}</span>`;
}

/** The mark after an action in the replay's list (none for best and good). */
export const gradeMark = (d) => (d && MARK[d.grade] ? html` <span class=${'grade-mark grade-' + d.grade}
  title=${t('analysis.grade.' + d.grade)}>${MARK[d.grade]}</span>` : '');

/** What the replay says of the decision at its step: the grade, the loss, the best move. */
export function DecisionNote({ decision, names, describe }) {
  const d = decision;
  return html`<p class=${'decision-note grade-' + d.grade} data-testid="decision-note" data-grade=${d.grade}>
    <${GradeBadge} grade=${d.grade} />
    ${d.loss > 0 ? html` <span class="muted">${t('analysis.loss', { n: d.loss.toFixed(1) })}</span>` : ''}
    ${d.loss > 0 ? html` · <span data-testid="decision-best">${t('analysis.best_was', { name: names[d.seat], move: describe(d.best) })}</span>` : ''}
    ${d.played_for ? html` · <span class="muted" data-testid="decision-not-counted">${t('analysis.not_counted', { name: names[d.seat] })}</span>` : ''}
  </p>`;
}

/** Each seat's accuracy (and luck, when given) in `hand` and in the whole match. */
export function AnalysisSummary({ analysis, names, hand, game, only = null }) {
  const seats = analysis.seats.filter((s) => only === null || s.seat === only);
  const lucky = seats.some((s) => luckOf(analysis, s.seat, hand) !== null || luckOf(analysis, s.seat, null) !== null);
  return html`<div class="table-scroll"><table class="data analysis-summary" data-testid="analysis-summary">
    <caption>${t('analysis.summary', { n: hand + 1 })}</caption>
    <thead><tr><th scope="col">${t('result.player')}</th><th scope="col">${t('analysis.hand_accuracy')}</th>
      <th scope="col">${t('analysis.match_accuracy')}</th>${lucky ? html`<th scope="col">${t('analysis.luck')}</th>` : ''}</tr></thead>
    <tbody>${seats.map((s) => {
      const luck = luckOf(analysis, s.seat, hand);
      return html`<tr key=${s.seat} data-testid=${'analysis-seat-' + s.seat}>
        <th scope="row">${names[s.seat]}</th>
        <td class="num" data-testid=${'analysis-hand-accuracy-' + s.seat}>${fmtAccuracy(accuracyOf(analysis, s.seat, hand, game))}</td>
        <td class="num">${fmtAccuracy(s.accuracy)}</td>
        ${lucky ? html`<td class="num">${luck === null ? '\u2014' : fmtSigned(luck)}</td>` : ''}</tr>`;
    })}</tbody></table></div>`;
}

/** The analysis's state while there is nothing to show: working it out, or why not. */
export function AnalysisStatus({ got }) {
  if (got.state === 'analysing') return html`<p class="muted analysing" role="status" data-testid="analysing">${t('analysis.analysing')}</p>`;
  if (got.state === 'error') return html`<p class="form-error" role="alert">${t('analysis.failed')} ${errorText(got.error)}</p>`;
  return null;
}
