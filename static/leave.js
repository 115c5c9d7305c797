// Leaving the table and resigning (docs/server.md, "Leave and resign"), and the stand-ins that
// play a person's seat: the seat's badge and countdown, and the log lines of moves the server
// played for someone (an action event's `played_for`).
import { render } from './vendor/preact.module.js';
import { html, useState, useEffect, useRef, errorText, useNow, useEscape } from './ui.js';
import { t } from './i18n.js';
import { api } from './api.js';

/** Renders its children at the end of the page's body: the dialog must not take the colours
 * and the opacity of the table's header it is opened from. */
function Portal({ children }) {
  const host = useRef(null);
  useEffect(() => {
    const el = document.createElement('div');
    document.body.appendChild(el);
    host.current = el;
    return () => { render(null, el); el.remove(); };
  }, []);
  useEffect(() => {
    if (host.current) render(children, host.current);
  });
  return null;
}

/**
 * The people other than `me` who still play a seat (a resigned seat has its stand-in's `bot`),
 * and how many of them are connected now (`presence`: `connected` or `away`; a person with no
 * connection open is `disconnected`). Computer players and spectators do not count: with none
 * connected the server's match waits for its people, or, when nobody else plays a seat, its
 * stand-ins play it out (docs/server.md, "Nobody at the table").
 */
function otherPeople(room, view, me) {
  const playing = room.players.filter((p) => p && p.player_id && p.player_id !== me.id && !p.bot);
  const presence = view.presence || [];
  return { playing: playing.length, here: playing.filter((p) => presence[p.seat] !== 'disconnected').length };
}

/** What the dialog says for `kind`: what becomes of the seat, the match and the chips. A
 * tournament's table never waits for its people, so nothing is said of waiting there. */
function exitLines(kind, room, view, me) {
  const others = otherPeople(room, view, me);
  const alone = !room.stand_in_for_absent && others.here === 0;
  if (kind === 'leave') return [t(alone ? 'exit.leave_alone' : 'exit.leave_body')];
  const chips = (me.tables && me.tables[room.id]) || 0;
  return [t('exit.resign_body'),
    alone ? t(others.playing ? 'exit.resign_alone_wait' : 'exit.resign_alone_played_out') : null,
    room.stake ? t('exit.resign_chips', { chips }) : null,
    room.rated ? t('exit.resign_rated') : null].filter(Boolean);
}

/**
 * "Leave the table" (the seat stays yours, a stand-in plays it until you come back) and, for a
 * seated player while the match is played, "Resign" (you give the match up for good). Each asks
 * first, saying what becomes of the seat, the hand and the chips.
 */
export function TableExit({ room, view, me }) {
  const [asking, setAsking] = useState(null); // 'leave' | 'resign'
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const first = useRef(null);
  const opener = useRef(null);
  const seated = view.seat !== null && view.seat !== undefined;
  const playing = room.status === 'playing';
  useEffect(() => {
    if (asking && first.current) first.current.focus();
  }, [asking]);

  const open = (kind, e) => {
    if (!seated || !playing) { location.hash = '#/'; return; }
    opener.current = e.currentTarget;
    setError(null);
    setAsking(kind);
  };
  const close = () => {
    setAsking(null);
    if (opener.current) opener.current.focus();
  };
  useEscape(Boolean(asking), close);
  const confirm = async () => {
    if (asking === 'leave') { location.hash = '#/'; return; }
    setBusy(true);
    try {
      await api(`/api/rooms/${room.id}/leave`, { method: 'POST', body: {} });
      location.hash = '#/';
    } catch (e) {
      setError(e);
    }
    setBusy(false);
  };

  const lines = asking ? exitLines(asking, room, view, me) : [];
  return html`<span class="table-exit">
    <button type="button" class="btn ghost small" data-testid="table-leave"
        onClick=${(e) => open('leave', e)}>${t('exit.leave')}</button>
    ${seated && playing && html`<button type="button" class="btn ghost small" data-testid="table-resign"
        onClick=${(e) => open('resign', e)}>${t('exit.resign')}</button>`}
    ${asking && html`<${Portal}><div class="overlay" role="dialog" aria-modal="true" aria-labelledby="exit-h">
      <div class="panel narrow" data-testid="exit-dialog">
        <h2 id="exit-h">${t(asking === 'leave' ? 'exit.leave_title' : 'exit.resign_title')}</h2>
        ${lines.map((line) => html`<p>${line}</p>`)}
        ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
        <div class="row end">
          <button type="button" class="btn ghost" ref=${first} onClick=${close}>${t('exit.cancel')}</button>
          <button type="button" class="btn primary" data-testid="exit-confirm" disabled=${busy}
              onClick=${confirm}>${t(asking === 'leave' ? 'exit.confirm_leave' : 'exit.confirm_resign')}</button>
        </div>
      </div>
    </div></${Portal}>`}
  </span>`;
}

/**
 * The events of a server move for a person's seat carry its `played_for` (the server marks the
 * move's `action` event; the draw, discard... that follow it for the same seat get it here).
 */
export function markPlayedFor(events) {
  let current = null;
  return events.map((e) => {
    if (e.type === 'action') {
      current = e.played_for ? { seat: e.seat, why: e.played_for } : null;
      return e;
    }
    if (current && e.seat === current.seat && !e.played_for) return { ...e, played_for: current.why };
    if (e.seat !== undefined && (!current || e.seat !== current.seat)) current = null;
    return e;
  });
}

/** A log line, saying when the server played the move for the seat's player. */
export function playedForText(e, text, name) {
  if (!text || !e.played_for) return text;
  return t(e.played_for === 'timeout' ? 'event.played_for_timeout' : 'event.played_for_stand_in', { line: text, name });
}

/** A person's seat played by a stand-in says so (and why); a seat whose player is gone shows
 * the countdown to its stand-in. */
export function StandIn({ view, seat }) {
  const why = view.stand_ins ? view.stand_ins[seat] : null;
  const at = view.stand_in_at ? view.stand_in_at[seat] : null;
  const now = useNow(!why && !!at);
  if (why) {
    return html`<span class="badge stand-in" data-testid=${'stand-in-' + seat}
        title=${t('standin.' + why + '_hint')}>${t('standin.badge')}</span>`;
  }
  if (!at) return null;
  const left = Math.max(0, Math.ceil(at - now));
  return html`<span class="badge stand-in-soon" data-testid=${'stand-in-countdown-' + seat}
      title=${t('standin.countdown_hint')}>${t('standin.countdown', { n: left })}</span>`;
}
