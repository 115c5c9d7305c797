// A player's moderation at the table (PROTOCOL.md §9, issue 24): another player's menu, opened
// from their seat or from their name on a chat line: block or unblock them (the server then
// neither delivers their chat nor seats the two together; the lines already shown are hidden
// here too), mute their chat at this table only (in this browser, for this room), and report
// them, about the match being played.
import { html, useState, useEffect, useRef, toast, errorText, useEscape } from './ui.js';
import { t } from './i18n.js';
import { api } from './api.js';

export const REPORT_REASONS = ['cheating', 'collusion', 'abuse', 'other'];
const MAX_REPORT_TEXT = 1000;
const MUTE_KEY = 'rummy.mute.'; // + room id: the players whose chat is muted at that table

/* ---------- a tiny shared store: the blocks, the open menu */

function store(initial) {
  let value = initial;
  const listeners = new Set();
  return {
    get: () => value,
    set(next) {
      value = next;
      listeners.forEach((f) => f(value));
    },
    use() {
      const [, bump] = useState(0);
      useEffect(() => {
        const f = () => bump((n) => n + 1);
        listeners.add(f);
        return () => listeners.delete(f);
      }, []);
      return value;
    },
  };
}

const blocks = store(null); // null until asked: a Set of the player ids this player blocked
const menu = store(null); // the open menu: { player: {id, name}, trigger: HTMLElement }

/** The players this player blocked (a Set, empty until the server answers). */
export function useBlocks() {
  const value = blocks.use();
  useEffect(() => {
    if (blocks.get() === null) {
      blocks.set(new Set());
      api('/api/me/blocks').then((d) => blocks.set(new Set(d.blocked)), () => blocks.set(null));
    }
  }, []);
  return value || new Set();
}

async function setBlocked(id, on) {
  const d = await api(`/api/players/${encodeURIComponent(id)}/block`, { method: on ? 'POST' : 'DELETE' });
  blocks.set(new Set(d.blocked));
}

const loadMutes = (roomId) => {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(MUTE_KEY + roomId) || '[]'));
  } catch {
    return new Set();
  }
};
const mutes = store({});

/** The players whose chat this player muted at this table (kept for the tab's life). */
export function useMutes(roomId) {
  const all = mutes.use();
  return all[roomId] || loadMutes(roomId);
}

function setMuted(roomId, id, on) {
  const now = new Set(loadMutes(roomId));
  if (on) now.add(id);
  else now.delete(id);
  sessionStorage.setItem(MUTE_KEY + roomId, JSON.stringify([...now]));
  mutes.set({ ...mutes.get(), [roomId]: now });
}

/** The chat lines to show: none of a blocked player's, nor of one muted at this table. */
export function shownChat(lines, blocked, muted) {
  return lines.filter((m) => !m.by || (!blocked.has(m.by) && !muted.has(m.by)));
}

/** A seat's player who has a menu: another person (not a computer player, not oneself). */
export function menuPlayer(seat, me) {
  return seat && seat.player_id && seat.player_id !== me.id ? { id: seat.player_id, name: seat.name } : null;
}

/* ---------- the name that opens the menu, and the menu */

/** A player's name as a button opening their menu (`player` null: the name as text). */
export function PlayerName({ player, name, testid }) {
  const open = menu.use();
  if (!player) return html`<span class="seat-name">${name}</span>`;
  const expanded = !!open && open.player.id === player.id && open.testid === testid;
  return html`<button type="button" class="seat-name player-name" data-testid=${testid}
      aria-haspopup="true" aria-expanded=${String(expanded)} aria-controls=${expanded ? 'player-menu' : null}
      aria-label=${t('mod.menu_for', { name })}
      onClick=${(e) => menu.set(expanded ? null : { player, testid, trigger: e.currentTarget })}>${name}</button>`;
}

const FOCUSABLE = 'button:not(:disabled), select, textarea, input';

const MENU_WIDTH = 240;
const MENU_HEIGHT = 190; // about: a name and three buttons

/** Where the menu shows: below its button, or above it near the window's bottom (a phone: a
 * sheet at the bottom, by the style sheet). */
function placeOf(trigger) {
  const r = trigger.getBoundingClientRect();
  const left = `${Math.round(Math.max(8, Math.min(r.left, innerWidth - MENU_WIDTH - 8)))}px`;
  return r.bottom + 4 + MENU_HEIGHT > innerHeight
    ? { bottom: `${Math.round(innerHeight - r.top + 4)}px`, left }
    : { top: `${Math.round(r.bottom + 4)}px`, left };
}

/**
 * The open player menu, drawn once per room page (outside the side panels, whose containment
 * would clip it): Block or Unblock, Mute chat here or Unmute, Report…. Escape, a click outside
 * or a choice closes it and gives the focus back to the name that opened it.
 */
export function PlayerMenuHost({ roomId, matchId }) {
  const open = menu.use();
  const blocked = useBlocks();
  const muted = useMutes(roomId);
  const [reporting, setReporting] = useState(null);
  const panelRef = useRef(null);

  const close = (focus = true) => {
    const trigger = open && open.trigger;
    menu.set(null);
    if (!focus) return;
    setTimeout(() => { // after the render that the choice causes
      const back = trigger && trigger.isConnected ? trigger : document.querySelector('[data-testid=chat-list]');
      if (back) back.focus(); // a muted line's name is gone with the line: the chat instead
    });
  };
  useEffect(() => () => menu.set(null), []); // leaving the room closes it
  useEffect(() => {
    if (!open) return undefined;
    const first = panelRef.current && panelRef.current.querySelector(FOCUSABLE);
    if (first) first.focus();
    const outside = (e) => {
      if (panelRef.current && !panelRef.current.contains(e.target) && !open.trigger.contains(e.target)) close(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const keys = (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
      return;
    }
    const step = { ArrowDown: 1, ArrowUp: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    const items = [...panelRef.current.querySelectorAll(FOCUSABLE)];
    const next = items[(items.indexOf(document.activeElement) + step + items.length) % items.length];
    if (next) next.focus();
  };
  const block = async (on) => {
    try {
      await setBlocked(open.player.id, on);
      toast(t(on ? 'mod.blocked' : 'mod.unblocked', { name: open.player.name }), 'ok');
    } catch (e) {
      toast(errorText(e), 'error');
    }
    close();
  };
  const mute = (on) => {
    setMuted(roomId, open.player.id, on);
    toast(t(on ? 'mod.muted' : 'mod.unmuted', { name: open.player.name }), 'ok');
    close();
  };

  const dialog = reporting && html`<${ReportDialog} player=${reporting.player} matchId=${matchId}
      onClose=${() => { const back = reporting.trigger; setReporting(null); if (back && back.isConnected) back.focus(); }} />`;
  if (!open) return dialog || null;
  const id = open.player.id;
  const isBlocked = blocked.has(id);
  const isMuted = muted.has(id);
  return html`<div id="player-menu" class="player-menu" ref=${panelRef} role="group" style=${placeOf(open.trigger)}
      aria-label=${t('mod.menu_for', { name: open.player.name })} data-testid="player-menu" onKeyDown=${keys}>
    <p class="player-menu-name">${open.player.name}</p>
    <button type="button" class="btn small ghost" data-testid="menu-block" onClick=${() => block(!isBlocked)}>
      ${t(isBlocked ? 'mod.unblock' : 'mod.block')}</button>
    <button type="button" class="btn small ghost" data-testid="menu-mute" onClick=${() => mute(!isMuted)}>
      ${t(isMuted ? 'mod.unmute' : 'mod.mute')}</button>
    <button type="button" class="btn small ghost" data-testid="menu-report"
        onClick=${() => { setReporting(open); menu.set(null); }}>${t('mod.report')}</button>
  </div>${dialog}`;
}

/** Report a player: a reason, what happened, and (if there is one) the match being played. */
function ReportDialog({ player, matchId, onClose }) {
  const [reason, setReason] = useState('');
  const [text, setText] = useState('');
  const [aboutMatch, setAboutMatch] = useState(!!matchId);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const firstRef = useRef(null);
  useEffect(() => firstRef.current && firstRef.current.focus(), []);
  useEscape(true, onClose);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { player: player.id, reason, text: text.trim() };
      if (aboutMatch && matchId) body.match = matchId;
      await api('/api/reports', { method: 'POST', body });
      toast(t('mod.report_sent', { name: player.name }), 'ok');
      onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return html`<div class="overlay" role="dialog" aria-modal="true" aria-labelledby="report-h">
    <form class="panel narrow report" data-testid="report-dialog" onSubmit=${submit}>
      <h2 id="report-h">${t('mod.report_title', { name: player.name })}</h2>
      <label class="field">${t('mod.report_reason')}
        <select ref=${firstRef} required value=${reason} data-testid="report-reason" onChange=${(e) => setReason(e.target.value)}>
          <option value="" disabled>${t('mod.report_choose')}</option>
          ${REPORT_REASONS.map((r) => html`<option value=${r}>${t('mod.reason.' + r)}</option>`)}
        </select></label>
      <label class="field">${t('mod.report_text')}
        <textarea rows="4" maxlength=${MAX_REPORT_TEXT} value=${text} data-testid="report-text"
            onInput=${(e) => setText(e.target.value)}></textarea></label>
      ${matchId && html`<label class="check"><input type="checkbox" checked=${aboutMatch} data-testid="report-match"
          onChange=${(e) => setAboutMatch(e.target.checked)} /> ${t('mod.report_about_match')}</label>`}
      ${error && html`<p class="form-error" role="alert" data-testid="report-error">${errorText(error)}</p>`}
      <div class="row end">
        <button type="button" class="btn ghost" onClick=${onClose}>${t('mod.cancel')}</button>
        <button type="submit" class="btn primary" data-testid="report-send" disabled=${busy}>${t('mod.report_send')}</button>
      </div>
    </form>
  </div>`;
}
