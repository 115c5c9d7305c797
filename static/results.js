// How a finished hand was decided, in the game's own terms, from the result the server
// recorded (docs/engine.md: a result's detail): Knock's counts and undercuts, Phỏm's totals
// and places, what each loser owed the player who went out.
import { html } from './ui.js';
import { t } from './i18n.js';
import { accuracyOf, fmtAccuracy, useAnalysis } from './analysis.js';

/** The player's accuracy in the hand just over and in the match (PROTOCOL.md §10), once the
 * match is over (a match in progress is not analysed); "analysing…" while the server works. */
export function HandAccuracy({ view, room }) {
  const seated = view.seat !== null && view.seat !== undefined;
  const got = useAnalysis(view.game_over && seated ? room.match_id : null);
  if (!view.game_over || !seated || got.state === 'unavailable') return null;
  if (got.state === 'analysing') return html`<p class="muted" role="status" data-testid="result-accuracy">${t('analysis.analysing')}</p>`;
  if (got.state !== 'ready') return null;
  const hand = view.results.length - 1;
  const mine = got.analysis.seats.find((s) => s.seat === view.seat);
  return html`<p class="result-accuracy" data-testid="result-accuracy">${t('analysis.your_accuracy', {
    hand: fmtAccuracy(accuracyOf(got.analysis, view.seat, hand, view.game)), match: fmtAccuracy(mine ? mine.accuracy : null) })}
    ${' '}<a href=${'#/replay/' + room.match_id}>${t('analysis.see_replay')}</a></p>`;
}

/** At the match's end, for a player who resigned and watches: a stand-in played their seat
 * out, and its moves are not theirs (PROTOCOL.md §10, "Who decided"; docs/server.md: the match
 * counts at most as a loss). */
export function PlayedOut({ view, room, me }) {
  const mine = view.game_over && me && room.players.some((p) => p && p.player_id === me.id && p.bot);
  if (!mine) return null;
  return html`<p class="result-played-out" data-testid="result-played-out">${t('result.played_out')}</p>`;
}

const seatsOf = (list) => list.map((_, s) => s);
const join = (items) => items.join(', ');

/** The explanation under a hand's result: a summary line and one line per seat. */
export function ResultExplanation({ result, view, room, names }) {
  const { summary, rows } = explain(result, view, room, names);
  if (!summary && !rows.length) return null;
  return html`<div class="result-why" data-testid="result-why">
    ${summary && html`<p data-testid="result-why-summary">${summary}</p>`}
    ${rows.length > 0 && html`<ul>${rows.map(({ seat, text }) => html`<li key=${seat}
        data-testid=${'result-why-' + seat}>${text}</li>`)}</ul>`}
  </div>`;
}

function explain(r, view, room, names) {
  switch (r.reason) {
    case 'knock': return r.counts ? knock(r, names) : none();
    case 'showdown': return r.trash ? showdown(r, names) : none();
    case 'blocked': return r.counts ? blocked(r, names) : none();
    case 'went_out': return wentOut(r, view, room, names);
    case 'exhausted': return { summary: t('explain.exhausted'), rows: [] };
    default: return none();
  }
}

const none = () => ({ summary: '', rows: [] });

/** KNOCK-5..7: every count, and whether the knocker had the lowest, was tied or undercut. */
function knock(r, names) {
  const counts = r.counts;
  const k = r.knocker;
  const low = Math.min(...counts);
  const lowest = seatsOf(counts).filter((s) => s !== k && counts[s] === low);
  const params = { knocker: names[k], count: counts[k], low, winner: join(lowest.map((s) => names[s])) };
  let summary;
  if (counts[k] === low && (!lowest.length || low === 0)) summary = t('explain.knock_won', params);
  else if (counts[k] === low) summary = t('explain.knock_tied', params);
  else summary = t('explain.knock_undercut', params);
  if (low === 0) summary += ' ' + t('explain.knock_rum');
  const rows = seatsOf(counts).map((s) => ({
    seat: s, text: t(s === k ? 'explain.deadwood_knocker' : 'explain.deadwood', { name: names[s], n: counts[s] }) }));
  return { summary, rows };
}

/** PHOM-11: each seat's trash total and place; a móm seat pays 4. */
function showdown(r, names) {
  const w = r.winner;
  const others = seatsOf(r.trash).filter((s) => s !== w).map((s) => r.trash[s]);
  const summary = t(r.mom[w] ? 'explain.phom_all_mom' : 'explain.phom_lowest',
    { winner: names[w], n: r.trash[w], others: join(others) });
  const places = r.places || [];
  const rows = seatsOf(r.trash).map((s) => {
    const params = { name: names[s], n: r.trash[s], place: places[s], pays: (places[s] || 1) - 1 };
    const key = s === w ? 'explain.phom_first' : r.mom[s] ? 'explain.phom_mom'
      : places[s] ? 'explain.phom_place' : 'explain.phom_total';
    return { seat: s, text: t(key, params) };
  });
  return { summary, rows };
}

/** OPT-BLOCK-3/4: the counts; the lowest wins the differences. */
function blocked(r, names) {
  const low = Math.min(...r.counts);
  return {
    summary: t('explain.blocked', { name: names[r.ended_by], n: low }),
    rows: seatsOf(r.counts).map((s) => ({ seat: s, text: t('explain.count', { name: names[s], n: r.counts[s] }) })),
  };
}

/** A player went out: what each other player owed, in the game's own scoring. */
function wentOut(r, view, room, names) {
  const w = r.winner;
  const winner = names[w];
  if (r.u !== undefined) return { summary: t('explain.phom_u', { winner, n: r.u }), rows: [] }; // PHOM-8
  if ((room.options && room.options.each_hand_own_game) || view.game === 'nowrang') {
    return { summary: t('explain.tally', { winner }), rows: [] }; // OPT-WIN-2, NOWRANG-7
  }
  const owed = r.owed || [];
  const row = (key) => seatsOf(owed).filter((s) => s !== w && owed[s] !== null && owed[s] !== undefined)
    .map((s) => ({ seat: s, text: t(key, { name: names[s], n: owed[s] }) }));
  if (r.payment) { // CONT-7, CONT-10..12
    const items = Object.entries(r.payment).filter(([, n]) => n > 0).map(([k, n]) => t('explain.pay_' + k, { n }));
    const total = Object.values(r.payment).reduce((a, b) => a + b, 0);
    return { summary: t('explain.continental', { winner, n: total, items: items.join(' + ') }), rows: row('explain.pays') };
  }
  const own = { german: 'explain.german', boat_house: 'explain.boat_house', queen_city: 'explain.queen_city' }[view.game];
  if (own) {
    const rowKey = { german: 'explain.penalty', boat_house: 'explain.deadwood', queen_city: 'explain.pays' }[view.game];
    return { summary: t(own, { winner }), rows: row(rowKey) };
  }
  let summary = t('explain.went_out', { winner }); // STD-13, KALUKI-8, DOUBLE-7
  if (view.game === 'kaluki') summary += ' ' + t('explain.values_kaluki');
  if (r.going_rummy) summary += ' ' + t('explain.going_rummy');
  return { summary, rows: row('explain.left') };
}
