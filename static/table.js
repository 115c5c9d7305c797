// A room: the waiting room before the first deal, then the card table.
import { html, useState, useEffect, useRef, toast, errorText, announce, restoreFocus, turnAlert, AlertPrefs, useNow } from './ui.js';
import { t, cardName, gameName, optLabel } from './i18n.js';
import { api, session, RoomSocket } from './api.js';
import { CardButton, CardImg, CardSvg, parseCode, sortCodes, meldOrder } from './cards.js';
import { SEED_PATTERN, dealtRecord, randomSeed, verifyDeal } from './fair-deal.js';
import { turnPrompt, Aids } from './prompts.js';
import { RulesPanel } from './rules.js';
import { WildDialog } from './wild.js';
import { TableChips } from './chips.js';
import { RematchBar } from './rematch.js';
import { showMoves } from './motion.js';
import { useHandOrder } from './hand-order.js';
import { StakeLimits } from './stakes.js';
import { seedSent } from './quickplay.js';
import { TableExit, StandIn, markPlayedFor, playedForText } from './leave.js';
import { lastMoves, LastMove } from './lastmove.js';
import { ActionButton, whyNot } from './reasons.js';
import { HandAccuracy, PlayedOut, ResultExplanation } from './results.js';
import { PlayerName, PlayerMenuHost, menuPlayer, shownChat, useBlocks, useMutes } from './moderation.js';
import { ArrivalWait, TournamentNext, awaitsPlayers } from './arrival.js';

const SYMBOL = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };

/** "7♥", "10♠", "JK" — compact card text for logs. */
export function shortCard(code) {
  const { card, stands, joker } = parseCode(code);
  const one = (c) => (c === 'JK' ? 'JK' : (c[0] === 'T' ? '10' : c[0]) + SYMBOL[c[1]]);
  return joker && stands ? `JK(${one(stands)})` : one(card);
}

const seatName = (room, seat) => {
  const p = room && room.players && room.players[seat];
  return p ? p.name : t('table.seat_n', { n: seat + 1 });
};

/* ------------------------------------------------------------------ fair deals */

const FAIR_KEEP = 8; // hands (and commitments) this browser remembers per room

function loadFair(id) {
  try {
    const saved = JSON.parse(localStorage.getItem('rummy.fair.' + id));
    if (saved && saved.sent && saved.dealt && saved.reveals) return saved;
  } catch { /* a damaged record is started afresh */ }
  return { sent: {}, dealt: {}, reveals: {} };
}

const lastOf = (obj) => Object.fromEntries(Object.entries(obj).slice(-FAIR_KEEP));

/**
 * What a seated player's browser does for verifiable deals (PROTOCOL.md §7): a fresh random
 * seed for each new `next_deal_commitment` (unless the player typed one), and a record of the
 * commitment each seed was sent against, of each hand as dealt and of each revealed deal,
 * kept in localStorage so that a reload can still verify.
 */
function fairTracker(id, me, onChange) {
  const store = loadFair(id);
  const asked = new Set();
  const save = () => {
    for (const k of ['sent', 'dealt', 'reveals']) store[k] = lastOf(store[k]);
    localStorage.setItem('rummy.fair.' + id, JSON.stringify(store));
    onChange({ ...store });
  };
  return {
    store,
    receive(m, sock) {
      if (m.type === 'seed') {
        store.sent[m.next_deal_commitment] = m.value;
        save();
        return;
      }
      if (m.type !== 'state') return;
      const view = m.view;
      const seated = view ? view.seat !== null
        : m.room.players.some((p) => p && p.player_id === me.id);
      const next = view ? view.next_deal_commitment : m.next_deal_commitment;
      if (seated && next && !(next in store.sent) && !asked.has(next) && sock.seed(randomSeed())) {
        asked.add(next);
      }
      if (!view) return;
      const events = m.events || [];
      const last = events[events.length - 1];
      let changed = false;
      if (last && last.type === 'deal' && last.hand_no === view.hand_no) { // the view as dealt
        store.dealt[view.hand_no] = dealtRecord(view);
        changed = true;
      }
      const reveal = view.last_deal;
      if (reveal && JSON.stringify(store.reveals[reveal.hand_no]) !== JSON.stringify(reveal)) {
        store.reveals[reveal.hand_no] = reveal;
        changed = true;
      }
      if (changed) save();
    },
  };
}

const short = (hexText) => (hexText ? hexText.slice(0, 12) + '…' : '');

/** "Verify this deal": recompute hand `handNo` from its revealed seeds and say what holds. */
function VerifyDeal({ fair, handNo }) {
  const [result, setResult] = useState(null);
  const reveal = fair.reveals[handNo];
  const dealt = fair.dealt[handNo];
  if (!reveal) return null;
  const run = async () => setResult(await verifyDeal(reveal, dealt || null, fair.sent));
  const mark = (ok) => (ok === true ? '\u2713' : ok === false ? '\u2717' : '\u2013');
  const seat = dealt ? dealt.seat : null;
  return html`<div class="verify" data-testid="verify">
    <button type="button" class="btn small" data-testid="verify-deal" onClick=${run}>${t('fair.verify')}</button>
    ${result && html`<div class=${'verify-result ' + (result.proven ? 'ok' : 'bad')} role="status"
        data-testid="verify-result" data-proven=${String(result.proven)}>
      <strong>${t(result.proven ? 'fair.proven' : 'fair.not_proven')}</strong>
      <ul>
        ${['commitment', 'seed', 'hand', 'upcard'].map((k) => html`<li data-check=${k} data-ok=${String(result.checks[k])}>
          ${mark(result.checks[k])} ${t('fair.check_' + k)}</li>`)}
      </ul>
      ${result.derived && seat !== null && html`<p class="verify-cards">${t('fair.derived_hand')}
        ${result.derived.hands[seat].map((c) => html`<${CardImg} code=${c} className="mini" />`)}
        ${result.derived.discard.length ? html` · ${t('fair.derived_upcard')} ${result.derived.discard.map((c) => html`<${CardImg} code=${c} className="mini" />`)}` : ''}</p>`}
      <p class="muted">${t(result.proven ? 'fair.explain' : dealt ? 'fair.explain_failed' : 'fair.no_record')}</p>
    </div>`}
  </div>`;
}

/** The table's fair-deal panel: the commitments, this player's seed (or their own), and the
 * last revealed hand's "Verify this deal". */
function FairPanel({ fair, view, next, seated, sock }) {
  const [text, setText] = useState('');
  const submit = (e) => {
    e.preventDefault();
    const s = text.trim();
    if (!SEED_PATTERN.test(s)) return toast(t('fair.seed_invalid'), 'error');
    if (sock && sock.seed(s)) setText('');
    return null;
  };
  const hands = Object.keys(fair.reveals).map(Number);
  const latest = hands.length ? Math.max(...hands) : null;
  const mine = next ? fair.sent[next] : null;
  return html`<section class="panel fair" aria-labelledby="fair-h" data-testid="fair-panel">
    <h2 id="fair-h">${t('fair.title')}</h2>
    ${view && view.stacked_deal
      ? html`<p class="stacked" data-testid="stacked-deal">${t('fair.stacked')}</p>`
      : view && view.deal_commitment
        ? html`<p data-testid="deal-commitment" title=${view.deal_commitment}>${t('fair.commitment', { c: short(view.deal_commitment) })}</p>` : ''}
    ${next && html`<p data-testid="next-commitment" title=${next}>${t('fair.next_commitment', { c: short(next) })}</p>`}
    ${seated && next && html`<p data-testid="my-seed">${mine ? t('fair.my_seed', { seed: mine }) : t('fair.no_seed')}</p>
      <form class="row" onSubmit=${submit}>
        <input aria-label=${t('fair.seed_label')} placeholder=${t('fair.seed_hint')} maxlength="64"
               value=${text} onInput=${(e) => setText(e.target.value)} data-testid="seed-input" />
        <button class="btn small" type="submit" data-testid="seed-submit">${t('fair.seed_submit')}</button>
      </form>`}
    ${latest !== null && html`<p class="muted">${t('fair.hand_n', { n: latest + 1 })}</p>
      <${VerifyDeal} key=${latest} fair=${fair} handNo=${latest} />`}
  </section>`;
}

export function RoomView({ id, me, refreshMe }) {
  const [msg, setMsg] = useState(null);
  const [status, setStatus] = useState('connecting');
  const [chat, setChat] = useState([]);
  const [log, setLog] = useState([]);
  const [fair, setFair] = useState(() => loadFair(id));
  const [offer, setOffer] = useState(null);
  const [told, setTold] = useState(null); // a tournament's next table (PROTOCOL.md §8)
  const sockRef = useRef(null);

  useEffect(() => {
    let players = []; // the seats as last seen: a chat line's seat names its author
    const byOf = (c) => (c.seat !== null && c.seat !== undefined && players[c.seat] ? players[c.seat].player_id : null);
    const tracker = fairTracker(id, me, setFair);
    setFair({ ...tracker.store });
    const spoken = {}; // the turn last announced
    const sock = new RoomSocket(id, session.token, {
      onMessage: (m) => {
        tracker.receive(m, sock);
        if (m.type === 'seed') seedSent(id);
        if (m.type === 'state') {
          showMoves(m); // reads the table as it is, before this state is drawn
          players = m.room.players;
          setMsg(m);
          speak(m, spoken);
          const stamp = Date.now();
          const entries = markPlayedFor(m.events || []).map((e, i) => ({ e, key: `${m.seq}-${stamp}-${i}-${e.type}` }));
          if (m.chat) { // a connection's first state: the room's recent past replaces ours
            setChat(m.chat.map((c, i) => ({ ...c, by: byOf(c), key: `${stamp}-${i}` })));
            setLog(entries.slice(-60));
          } else if (entries.length) {
            setLog((l) => [...l, ...entries].slice(-60));
          }
        } else if (m.type === 'rematch') {
          setOffer(m);
        } else if (m.type === 'next_table') {
          setTold(m);
        } else if (m.type === 'chat') {
          setChat((c) => [...c, { ...m, by: byOf(m), key: Date.now() + Math.random() }].slice(-100));
        } else if (m.type === 'error' && m.id == null && m.code !== 'suspended') { // suspended: the banner says it
          toast(errorText(m), 'error');
        }
      },
      onStatus: setStatus,
    }, session.invite(id));
    sockRef.current = sock;
    window.__rummySocket = sock; // lets the browser tests drop the connection
    return () => sock.close();
  }, [id]);

  // The chips shown agree with the ledger: asked again whenever a seat, the room's status or a
  // hand's settlement changes them.
  const results = msg && msg.view ? msg.view.results.length : 0;
  const seats = msg ? `${msg.room.status}/${msg.room.taken}` : '';
  useEffect(() => {
    if (msg) refreshMe();
  }, [results, seats]);

  const banner = status === 'reconnecting' || status === 'connecting' && msg
    ? html`<div class="banner warn" role="status" data-testid="reconnecting">${t('conn.reconnecting')}</div>`
    : status === 'auth_failed' || status === 'no_room' || status === 'too_many_sockets' || status === 'suspended'
      ? html`<div class="banner error" role="alert" data-testid="conn-closed">${t('conn.' + status)}</div>
          <p><a class="btn" href="#/" data-testid="back-lobby">${t('conn.back_lobby')}</a></p>`
      : null;

  if (!msg && status !== 'connecting' && status !== 'reconnecting') return banner; // refused for good: no room, no login
  if (!msg) return html`${banner}<p class="loading">${t('conn.connecting')}</p>`;
  const sock = sockRef.current;
  const seated = msg.room.players.some((p) => p && p.player_id === me.id);
  return html`${banner}
    ${awaitsPlayers(msg)
      ? html`<section class="waiting"><${ArrivalWait} room=${msg.room} view=${msg.view} me=${me} />
          <${FairPanel} fair=${fair} view=${null} next=${msg.view.next_deal_commitment} seated=${seated} sock=${sock} />
          <${Chat} chat=${chat} sock=${sock} room=${msg.room} me=${me} canWrite=${seated || !!msg.room.spectator_chat} /></section>`
      : msg.view
      ? html`<${Table} view=${msg.view} room=${msg.room} me=${me} sock=${sock} chat=${chat} log=${log} fair=${fair} offer=${offer} told=${told} />`
      : html`<${WaitingRoom} room=${msg.room} me=${me} sock=${sock} chat=${chat} fair=${fair} next=${msg.next_deal_commitment} />`}
    <${PlayerMenuHost} roomId=${id} matchId=${msg.room.match_id} />`;
}

/**
 * Read out what others did and whose turn it is now (the live region), and alert the player
 * (sound, notification) when their own turn begins. `spoken` keeps the last turn announced.
 */
function speak(m, spoken) {
  const view = m.view;
  if (!view) return;
  const lines = (m.events || []).filter((e) => e.seat !== view.seat).map((e) => eventText(e, m.room)).filter(Boolean);
  const turn = view.hand_over || view.turn === null ? null : `${view.hand_no}:${view.turn}`;
  const mine = turn !== null && view.turn === view.seat;
  if (turn !== null && turn !== spoken.turn) {
    lines.push(mine ? `${t('status.your_turn')} — ${t('phase.' + view.phase)}`
      : t('status.waiting_for', { name: seatName(m.room, view.turn) }));
    if (mine && spoken.turn !== undefined) turnAlert(t('table.label', { game: gameName(view.game) }));
  }
  spoken.turn = turn;
  announce(lines.join('. '));
}

/* ------------------------------------------------------------------ waiting room */

function OptionsSummary({ room }) {
  const on = Object.entries(room.options || {}).filter(([, v]) => v !== false && v !== null);
  return html`<ul class="opt-summary">
    ${on.length === 0 && html`<li class="muted">${t('room.default_rules')}</li>`}
    ${on.map(([k, v]) => html`<li>${optLabel(k)}${v === true ? '' : `: ${v}`}</li>`)}
  </ul>`;
}

function WaitingRoom({ room, me, sock, chat, fair, next }) {
  const [count, setCount] = useState(1);
  const [level, setLevel] = useState('normal');
  const [error, setError] = useState(null);
  const isHost = room.host_id === me.id;
  const seated = room.players.some((p) => p && p.player_id === me.id);
  const free = room.seats - room.taken;
  const [invite, setInvite] = useState(null);

  useEffect(() => {
    api(`/api/rooms/${room.id}`).then((r) => setInvite(r.invite_code || null), () => {});
  }, [room.id]);
  const link = invite ? `${location.origin}/#/join/${invite}` : '';

  const call = async (path, body) => {
    setError(null);
    try {
      await api(`/api/rooms/${room.id}/${path}`, { method: 'POST', body });
    } catch (e) {
      setError(e);
    }
  };
  const leave = async () => {
    await call('leave', {});
    location.hash = '#/';
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t('room.copied'), 'ok');
    } catch {
      toast(link);
    }
  };

  return html`<section class="waiting">
    <div class="panel">
      <h1>${gameName(room.game)}</h1>
      <p class="muted" data-testid="wait-line">${t(room.quick_seat ? 'room.wait_quick_seat' : 'room.waiting')}</p>
      <${OptionsSummary} room=${room} />
      <p>${room.stake ? t('lobby.stake_value', { stake: room.stake, buy_in: room.buy_in }) : t('lobby.free')}
        ${room.turn_seconds ? ' · ' + t('room.turn_seconds', { n: room.turn_seconds }) : ''}
        <${StakeLimits} room=${room} /></p>
      <h2>${t('room.seats')}</h2>
      <ol class="seat-list" data-testid="seats">
        ${room.players.map((p, i) => html`<li class=${p ? 'taken' : 'free'}>
          <span class="seat-no">${i + 1}</span>
          ${p ? html`<${PlayerName} player=${menuPlayer(p, me)} name=${p.name} testid=${'player-' + i} />${p.bot ? html` <span class="badge">${t('table.bot')}${p.level ? ' · ' + t('bots.' + p.level) : ''}</span>` : ''}
                     ${p.player_id === room.host_id ? html` <span class="badge host">${t('room.host')}</span>` : ''}`
              : html`<span class="muted">${t('room.empty_seat')}</span>`}
        </li>`)}
      </ol>
      ${link && html`<div class="invite">
        <label for="invite-link">${t('room.invite')}</label>
        <div class="row"><input id="invite-link" data-testid="invite-link" readonly value=${link}
             onFocus=${(e) => e.target.select()} />
          <button type="button" class="btn small" onClick=${copy}>${t('room.copy')}</button></div>
      </div>`}
      ${room.quick_seat ? '' : isHost
        ? html`<div class="host-controls">
            ${free > 0 && html`<label class="inline">${t('room.bots_count')}
                <select value=${count} onChange=${(e) => setCount(Number(e.target.value))}>
                  ${Array.from({ length: free }, (_, i) => html`<option value=${i + 1}>${i + 1}</option>`)}
                </select></label>
              <label class="inline">${t('bots.level')}
                <select value=${level} data-testid="bot-level" onChange=${(e) => setLevel(e.target.value)}>
                  ${['easy', 'normal', 'hard'].map((l) => html`<option value=${l}>${t('bots.' + l)}</option>`)}
                </select></label>
              <button type="button" class="btn" data-testid="add-bots" onClick=${() => call('bots', { count, level })}>${t('room.add_bots')}</button>`}
            <button type="button" class="btn primary" data-testid="start" disabled=${free > 0}
                    onClick=${() => call('start', {})}>${t('room.start')}</button>
          </div>`
        : html`<p class="muted">${t('room.wait_host')}</p>`}
      ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
      <button type="button" class="btn ghost small" onClick=${leave}>${t('room.leave')}</button>
    </div>
    <${FairPanel} fair=${fair} view=${null} next=${next} seated=${seated} sock=${sock} />
    <${Chat} chat=${chat} sock=${sock} room=${room} me=${me} canWrite=${seated || !!room.spectator_chat} />
  </section>`;
}

/* ------------------------------------------------------------------ chat and log */

/** The room's chat; `canWrite` false (a spectator where the host did not allow them to chat)
 * shows the lines without the form. A line of a player this player blocked, or muted at this
 * table, is not shown; another player's name opens their menu (static/moderation.js). */
function Chat({ chat: all, sock, room, me, canWrite = true }) {
  const [text, setText] = useState('');
  const listRef = useRef(null);
  const chat = shownChat(all, useBlocks(), useMutes(room.id));
  useEffect(() => {
    if (listRef.current) listRef.current.scrollTop = listRef.current.scrollHeight;
  }, [chat.length]);
  const author = (m) => (m.by && m.by !== me.id ? { id: m.by, name: m.name } : null);
  const send = (e) => {
    e.preventDefault();
    const s = text.trim();
    if (!s) return;
    if (sock && sock.chat(s.slice(0, 500))) setText('');
  };
  return html`<section class="panel chat" aria-labelledby="chat-h">
    <h2 id="chat-h">${t('chat.title')}</h2>
    <ul class="chat-list" ref=${listRef} data-testid="chat-list" aria-live="polite" tabindex="0" aria-labelledby="chat-h">
      ${chat.length === 0 && html`<li class="muted">${t('chat.empty')}</li>`}
      ${chat.map((m) => html`<li key=${m.key} data-by=${m.by || ''}>${author(m)
        ? html`<${PlayerName} player=${author(m)} name=${m.name} testid="chat-author" />:` : html`<strong>${m.name}:</strong>`} ${m.text}</li>`)}
    </ul>
    ${canWrite
      ? html`<form class="row" onSubmit=${send}>
          <input aria-label=${t('chat.placeholder')} placeholder=${t('chat.placeholder')} maxlength="500"
                 value=${text} onInput=${(e) => setText(e.target.value)} data-testid="chat-input" />
          <button class="btn small" type="submit">${t('chat.send')}</button>
        </form>`
      : html`<p class="muted" data-testid="chat-readonly">${t('chat.spectators_read')}</p>`}
  </section>`;
}

function eventText(e, room) {
  const name = e.seat !== undefined && e.seat !== null ? seatName(room, e.seat) : '';
  switch (e.type) {
    case 'draw':
      if (e.source === 'stock') return e.card ? t('event.draw_stock_seen', { name, card: shortCard(e.card) }) : t('event.draw_stock', { name });
      return t('event.draw_discard', { name, card: shortCard(e.card || '') });
    case 'discard': return t('event.discard', { name, card: shortCard(e.card) });
    case 'meld': return t('event.meld', { name, n: (e.melds || []).length });
    case 'lay_off': return t('event.lay_off', { name, cards: (e.cards || []).map(shortCard).join(' ') });
    case 'knock': return t('event.knock', { name });
    case 'declare': return t('event.declare', { name });
    case 'show': return t('event.show', { name });
    case 'swap_joker': return t('event.swap_joker', { name, card: shortCard(e.card) });
    case 'borrow': return t('event.borrow', { name, card: shortCard(e.card) });
    case 'call': return t('event.call', { name });
    case 'rummy_call': return t('event.rummy_call', { name });
    case 'restock': return t('event.restock');
    case 'block': return t('event.block', { name });
    case 'hand_over': return t('event.hand_over');
    case 'game_over': return t('event.game_over');
    case 'deal': return t('event.deal');
    default: return null;
  }
}

function EventLog({ log, room }) {
  const ref = useRef(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [log.length]);
  const lines = log.map((x) => ({ key: x.key, text: playedForText(x.e, eventText(x.e, room), seatName(room, x.e.seat)) })).filter((x) => x.text);
  return html`<section class="panel log" aria-labelledby="log-h">
    <h2 id="log-h">${t('log.title')}</h2>
    <ul ref=${ref} data-testid="event-log" tabindex="0" aria-labelledby="log-h">${lines.map((x) => html`<li key=${x.key}>${x.text}</li>`)}</ul>
  </section>`;
}

/* ------------------------------------------------------------------ scores */

function Scoreboard({ view, room }) {
  const seats = [...Array(view.players).keys()];
  return html`<section class="panel scoreboard" aria-labelledby="score-h">
    <h2 id="score-h">${t('score.title')}</h2>
    <table data-testid="scoreboard">
      <thead><tr><th scope="col">${t('score.hand')}</th>${seats.map((s) => html`<th scope="col">${seatName(room, s)}</th>`)}</tr></thead>
      <tbody>
        ${view.results.map((r, i) => html`<tr><th scope="row">${i + 1}</th>${r.scores.map((x) => html`<td>${x}</td>`)}</tr>`)}
      </tbody>
      <tfoot><tr><th scope="row">${t('score.total')}</th>${view.totals.map((x, s) => html`<td data-testid=${'total-' + s}><strong>${x}</strong></td>`)}</tr></tfoot>
    </table>
  </section>`;
}

function HandResult({ view, room, fair, me, offer, told, onClose }) {
  const r = view.results[view.results.length - 1];
  const seats = [...Array(view.players).keys()];
  // What the ledger really moved (a payment is capped by the payer's escrow); absent while the
  // hand's settlement waits for storage.
  const chips = (view.settled || [])[view.results.length - 1];
  const reasonKey = 'reason.' + r.reason;
  useEffect(() => document.querySelector('[data-testid=result-close]')?.focus(), []);
  return html`<div class="overlay" role="dialog" aria-modal="true" aria-labelledby="result-h" data-testid="hand-result">
    <div class="panel result">
      <h2 id="result-h">${t('result.title', { n: view.results.length })}</h2>
      <p class="result-winner">${r.winner !== null && r.winner !== undefined
        ? t('result.winner', { name: seatName(room, r.winner) }) : t('result.no_winner')}
        ${t.has(reasonKey) ? html` <span class="muted">(${t(reasonKey)})</span>` : ''}</p>
      <${ResultExplanation} result=${r} view=${view} room=${room} names=${seats.map((s) => seatName(room, s))} />
      <table class="result-table">
        <thead><tr><th scope="col">${t('result.player')}</th><th scope="col">${t('result.hand')}</th>
          <th scope="col">${t('result.score')}</th><th scope="col">${t('score.total')}</th>
          ${room.stake ? html`<th scope="col">${t('result.chips')}</th>` : ''}</tr></thead>
        <tbody>${seats.map((s) => {
          const arr = r.arrangements && (r.arrangements[s] || r.arrangements[String(s)]);
          const shown = r.revealed && r.revealed[s] ? r.revealed[s] : [];
          return html`<tr data-testid=${'result-row-' + s}>
            <th scope="row">${seatName(room, s)}</th>
            <td class="revealed">
              ${arr
                ? html`${arr.melds.map((m) => html`<span class="mini-meld">${m.map((c) => html`<${CardImg} code=${c} className="mini" />`)}</span>`)}
                    ${arr.deadwood.length ? html`<span class="mini-meld deadwood" title=${t('result.deadwood')}>
                      <span class="tag">${t('result.deadwood')}</span>${arr.deadwood.map((c) => html`<${CardImg} code=${c} className="mini" />`)}</span>` : ''}`
                : shown.length
                  ? html`<span class="mini-meld">${shown.map((c) => html`<${CardImg} code=${c} className="mini" />`)}</span>`
                  : html`<span class="muted">${t('result.out')}</span>`}
            </td>
            <td class="num" data-testid=${'result-score-' + s}>${r.scores[s] > 0 ? '+' : ''}${r.scores[s]}</td>
            <td class="num">${view.totals[s]}</td>
            ${room.stake ? html`<td class="num" data-testid=${'result-chips-' + s}>${
              chips ? `${chips[s] > 0 ? '+' : ''}${chips[s]}` : '…'}</td>` : ''}
          </tr>`;
        })}</tbody>
      </table>
      ${view.game_over && html`<p class="game-over" data-testid="game-over">${view.game_winner !== null && view.game_winner !== undefined
        ? t('result.game_winner', { name: seatName(room, view.game_winner) }) : t('result.game_over')}</p>`}
      ${view.game_over && room.tournament && html`<${TournamentNext} room=${room} me=${me} told=${told} />`}
      ${view.game_over && view.rating_changes && view.rating_changes.length > 0 && html`<ul class="rating-changes" data-testid="rating-changes">
        ${view.rating_changes.map((c) => html`<li key=${c.seat} data-testid=${'rating-change-' + c.seat}>${t('board.rating_change', {
          name: seatName(room, c.seat), after: c.after.toFixed(2), delta: (c.delta > 0 ? '+' : '') + c.delta.toFixed(2) })}</li>`)}</ul>`}
      <${HandAccuracy} view=${view} room=${room} />
      <${PlayedOut} view=${view} room=${room} me=${me} />
      <${VerifyDeal} fair=${fair} handNo=${view.results.length - 1} />
      ${view.game_over && html`<${RematchBar} room=${room} me=${me} offer=${offer} />`}
      <div class="row end">
        ${view.game_over && html`<a class="btn" href="#/">${t('nav.lobby')}</a>`}
        <button type="button" class="btn primary" data-testid="result-close" onClick=${onClose}>${t('result.continue')}</button>
      </div>
    </div>
  </div>`;
}

/* ------------------------------------------------------------------ the table */

function handKeys(hand) {
  const seen = {};
  return hand.map((c) => {
    seen[c] = (seen[c] ?? -1) + 1;
    return `${c}#${seen[c]}`;
  });
}
const codeOf = (key) => key.split('#')[0];

/**
 * Keep the player's own order for cards still held. New cards (a draw, a deal) go where the
 * last sort (`mode`: suit | rank) puts them, before the first card that sorts after them; with
 * no sort chosen, to the right.
 */
function reconcile(order, keys, mode) {
  const have = new Set(keys);
  const out = order.filter((k) => have.has(k));
  const keptSet = new Set(out);
  const fresh = keys.filter((k) => !keptSet.has(k));
  if (!mode) return [...out, ...fresh];
  const rank = new Map(sortCodes([...new Set(keys.map(codeOf))], mode).map((c, i) => [c, i]));
  const place = (k) => rank.get(codeOf(k));
  for (const k of [...fresh].sort((a, b) => place(a) - place(b))) {
    const at = out.findIndex((x) => place(x) > place(k));
    out.splice(at < 0 ? out.length : at, 0, k);
  }
  return out;
}

/** "Away" or "disconnected" beside a seat's name (nothing while connected). */
function Presence({ view, seat }) {
  const state = view.presence ? view.presence[seat] : 'connected';
  if (!state || state === 'connected') return null;
  return html`<span class=${'badge presence ' + state} data-testid=${'presence-' + seat}
      title=${t('presence.' + state + '_hint')}>${t('presence.' + state)}</span>`;
}

function SeatBox({ view, room, me, seat, now, move }) {
  const p = room.players[seat];
  const active = view.turn === seat && !view.hand_over;
  const left = active && view.turn_deadline ? Math.max(0, Math.ceil(view.turn_deadline - now)) : null;
  const count = view.hand_counts[seat] ?? 0;
  const known = (view.known && view.known[seat]) || [];
  return html`<div class=${'seat-box ' + (active ? 'active' : '')} data-testid=${'seat-' + seat}
      aria-label=${t('table.seat_label', { name: seatName(room, seat), n: count })}>
    <div class="seat-head">
      <${PlayerName} player=${menuPlayer(p, me)} name=${seatName(room, seat)} testid=${'player-' + seat} />
      ${p && p.bot && !p.player_id ? html`<span class="badge">${t('table.bot')}${p.level ? ' · ' + t('bots.' + p.level) : ''}</span>` : ''}
      <${Presence} view=${view} seat=${seat} /><${StandIn} view=${view} seat=${seat} />
      ${view.dealer === seat ? html`<span class="badge dealer" title=${t('table.dealer')}>${t('table.dealer_short')}</span>` : ''}
    </div>
    <div class="seat-cards" aria-hidden="true">
      ${Array.from({ length: Math.min(count, 7) }, () => html`<${CardImg} back=${true} className="tiny" />`)}
    </div>
    <div class="seat-meta">
      <span data-testid=${'count-' + seat}>${t('table.cards_n', { n: count })}</span>
      <span>${t('table.points', { n: view.totals[seat] })}</span>
      ${left !== null ? html`<span class="timer" data-testid="timer">\u23F1 ${left}s</span>` : ''}
    </div>
    <${LastMove} move=${move} seat=${seat} />
    ${known.length ? html`<div class="seat-known" title=${t('table.known')}>
      ${known.map((c) => html`<${CardImg} code=${c} className="mini" />`)}</div>` : ''}
  </div>`;
}

function isWildFor(room) {
  return (code) => {
    const { card, joker } = parseCode(code);
    return joker || (room.options && room.options.twos_wild && card[0] === '2');
  };
}

function Table({ view, room, me, sock, chat, log, fair, offer, told }) {
  const { order, setOrder, sortMode, setSortMode } = useHandOrder(room.id, view.hand_no);
  const [selected, setSelected] = useState([]);
  const [groups, setGroups] = useState([]);
  const [dismissed, setDismissed] = useState(view.results.length);
  const [designation, setDesignation] = useState(null);
  const [busy, setBusy] = useState(false);
  const now = useNow(!!view.turn_deadline);
  const before = useRef(null); // the hand's keys, and which of them came with the last change

  const seat = view.seat;
  const keys = handKeys(view.hand);
  const shown = reconcile(order, keys, sortMode);
  const inHand = new Set(keys);
  const sel = selected.filter((k) => inHand.has(k));
  const grouped = groups.map((g) => g.filter((k) => inHand.has(k))).filter((g) => g.length);
  const groupedSet = new Set(grouped.flat());
  // The melds a Meld or Show would send: the groups, then the other selected cards. Every meld
  // of every game has three cards or more (GEN), so a button offering fewer stays disabled.
  const loose = sel.filter((k) => !groupedSet.has(k));
  const proposed = loose.length ? [...grouped, loose] : grouped;
  const threeEach = (list) => list.every((g) => g.length >= 3);
  const legal = new Set(view.legal || []);
  const myTurn = view.turn === seat && seat !== null && !view.hand_over;
  const throwDown = !!(room.options && room.options.throw_down);
  const isWild = isWildFor(room);
  const selCodes = sel.map(codeOf);
  const topDiscard = view.discard.length ? view.discard[view.discard.length - 1] : null;

  const clearSel = () => setSelected([]);
  const send = async (action, { clearGroups = false } = {}) => {
    setBusy(true);
    const sent = sel; // cards tapped while the action is on its way stay selected
    try {
      await sock.act(action);
      setSelected((s) => s.filter((k) => !sent.includes(k)));
      if (clearGroups) setGroups([]);
    } catch (e) {
      if (e.code === 'designation_required') {
        setDesignation({ action, clearGroups });
      } else if (e.code !== 'connection_lost') {
        toast(errorText(e, { melds: view.melds }), 'error');
      }
    }
    setBusy(false);
  };

  const toggle = (key) => setSelected((s) => {
    const cur = s.filter((k) => inHand.has(k));
    return cur.includes(key) ? cur.filter((k) => k !== key) : [...cur, key];
  });
  const move = (key, beforeKey) => {
    const list = shown.filter((k) => k !== key);
    const at = beforeKey ? list.indexOf(beforeKey) : list.length;
    list.splice(at < 0 ? list.length : at, 0, key);
    setOrder(list);
  };
  const sortBy = (mode) => {
    const sorted = sortCodes(view.hand, mode);
    setOrder(handKeys(sorted));
    setSortMode(mode);
  };

  useEffect(() => {
    const title = t('app.title');
    document.title = myTurn ? t('alert.title_turn', { title }) : title;
    return () => { document.title = title; };
  }, [myTurn]);
  // Focus lost to a re-render (the pressed button disabled or gone, the waiting room replaced):
  // the card just drawn, else the first action the player can take, else their hand.
  useEffect(() => {
    const was = before.current;
    if (!was || keys.join() !== was.keys.join()) {
      before.current = { keys, fresh: was ? keys.filter((k) => !was.keys.includes(k)) : [] };
    }
    restoreFocus([...before.current.fresh.map((k) => `[data-testid=hand] button[data-key="${k}"]`),
      '.actions button:not(:disabled):not([aria-disabled=true])', '[data-testid=hand] button.card', '.felt-title']);
  });

  // ---- actions
  const drawStock = () => send({ type: 'draw', source: 'stock' });
  const drawDiscard = (card) => send(throwDown && card ? { type: 'draw', source: 'discard', card } : { type: 'draw', source: 'discard' });
  const one = () => (sel.length === 1 ? codeOf(sel[0]) : null);
  const needOne = (f) => {
    const c = one();
    if (!c) toast(t('hint.select_one'), 'info');
    else f(c);
  };
  const discard = (card) => send({ type: 'discard', card });
  const knock = (card) => send({ type: 'knock', discard: card });
  const groupMelds = () => grouped.map((g) => meldOrder(g.map(codeOf), isWild));
  const meld = () => {
    const melds = groupMelds();
    const rest = sel.filter((k) => !groupedSet.has(k));
    if (rest.length) melds.push(meldOrder(rest.map(codeOf), isWild));
    if (!melds.length) return toast(t('hint.select_meld'), 'info');
    return send({ type: 'meld', melds }, { clearGroups: true });
  };
  const declare = () => {
    const melds = groupMelds();
    const rest = keys.filter((k) => !groupedSet.has(k));
    let card = null;
    if (sel.length === 1 && !groupedSet.has(sel[0])) card = codeOf(sel[0]);
    else if (rest.length === 1) card = codeOf(rest[0]);
    if (!melds.length) return toast(t('hint.build_groups'), 'info');
    return send({ type: 'declare', melds, discard: card }, { clearGroups: true });
  };
  const show = () => {
    const melds = groupMelds();
    const rest = sel.filter((k) => !groupedSet.has(k));
    if (rest.length) melds.push(meldOrder(rest.map(codeOf), isWild));
    return send({ type: 'show', melds }, { clearGroups: true });
  };
  const addGroup = async () => { // staged at once, and taken back if it could be no meld
    const rest = sel.filter((k) => !groupedSet.has(k));
    setGroups((g) => [...g, rest]);
    clearSel();
    const answer = await sock.query({ type: 'designations', cards: rest.map(codeOf), meld: null }).catch(() => ({}));
    if (answer.valid !== false) return null;
    setGroups((g) => g.filter((x) => x !== rest));
    setSelected((s) => [...s, ...rest]);
    return toast(t('why.not_a_meld'), 'error');
  };

  /** A click (or drop) on a meld with cards: call Rummy, swap a joker, or lay off. */
  const onMeld = (m, codes) => {
    if (view.call_window && legal.has('call_rummy') && !view.call_window.called) {
      if (codes.length !== 1) return toast(t('hint.call_select'), 'info');
      const called = view.call_window.card;  // a wild called card names its place (PROTOCOL §3)
      return send({ type: 'call_rummy', meld: m.id, discard: codes[0], ...(isWild(called) ? { card: called } : {}) });
    }
    if (!codes.length) return toast(t('hint.select_first'), 'info');
    if (codes.length === 1 && legal.has('swap_joker')) {
      const standsFor = m.cards.map((c) => parseCode(c)).filter((p) => p.stands && isWild(p.card)).map((p) => p.stands);
      if (standsFor.includes(codes[0])) return send({ type: 'swap_joker', meld: m.id, card: codes[0] });
    }
    if (legal.has('lay_off')) return send({ type: 'lay_off', meld: m.id, cards: sortCodes(codes, 'suit') });
    return toast(t('hint.not_now'), 'info');
  };
  const onMeldCard = (m, card) => {
    if (!legal.has('borrow')) return onMeld(m, selCodes);
    if (sel.length < 2) return toast(t('hint.borrow_select'), 'info');
    return send({ type: 'borrow', meld: m.id, card, into: meldOrder([...selCodes, card], isWild) });
  };

  // ---- drag and drop
  const dragData = (e) => e.dataTransfer.getData('text/plain') || '';
  const allow = (e) => {
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
  };
  const codesForDrag = (key) => (sel.includes(key) ? selCodes : [codeOf(key)]);
  const dropOnHand = (e, beforeKey) => {
    e.preventDefault();
    e.stopPropagation();
    const d = dragData(e);
    if (d.startsWith('hand:')) move(d.slice(5), beforeKey);
    else if (d === 'pile:stock') drawStock();
    else if (d.startsWith('pile:discard')) drawDiscard(d.split(':')[2] || null);
  };
  const dropOnDiscard = (e) => {
    e.preventDefault();
    const d = dragData(e);
    if (d.startsWith('hand:')) discard(codeOf(d.slice(5)));
  };
  const dropOnMeld = (e, m) => {
    e.preventDefault();
    const d = dragData(e);
    if (d.startsWith('hand:')) onMeld(m, codesForDrag(d.slice(5)));
  };

  const cardKeys = (e, key) => {
    const buttons = [...e.currentTarget.parentElement.querySelectorAll('button.card')];
    const i = buttons.indexOf(e.currentTarget);
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[e.key];
    if (step && e.altKey) {
      e.preventDefault();
      const list = shown.filter((k) => k !== key);
      const at = Math.max(0, Math.min(list.length, shown.indexOf(key) + step));
      list.splice(at, 0, key);
      setOrder(list);
      setTimeout(() => {
        const again = [...document.querySelectorAll('.hand button.card')];
        if (again[at]) again[at].focus();
      });
    } else if (step) {
      e.preventDefault();
      const next = buttons[(i + step + buttons.length) % buttons.length];
      if (next) next.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      buttons[e.key === 'Home' ? 0 : buttons.length - 1].focus();
    }
  };

  // Opponents clockwise from the player's left; a spectator sees every seat.
  const others = seat === null
    ? [...Array(view.players).keys()]
    : Array.from({ length: view.players - 1 }, (_, i) => (seat + i + 1) % view.players);

  const moves = lastMoves(log);
  const canDraw = legal.has('draw');
  // Which draws the engine would accept now (a take may be refused: Kaluki before opening,
  // Phỏm's takes): only those are enabled.
  const draws = view.draws || { from_stock: false, takes: [] };
  const canStock = canDraw && draws.from_stock;
  const canTake = (c) => canDraw && c !== null && draws.takes.includes(c);
  // The one selected card, if the engine would take it as a discard (or a knock's discard).
  const throws = view.throws || { discard: [], knock: [] };
  const single = sel.length === 1 ? codeOf(sel[0]) : null;
  const canThrow = (type) => single !== null && throws[type].includes(single);
  const showResult = view.results.length > dismissed;
  const turnText = turnPrompt(view, legal, room, seatName);
  const myLeft = myTurn && view.turn_deadline ? Math.max(0, Math.ceil(view.turn_deadline - now)) : null;

  const why = { view, sel: selCodes, loose: loose.map(codeOf), groups: grouped.map((g) => g.map(codeOf)),
    proposed: proposed.map((g) => g.map(codeOf)) };
  const actionButton = (type, label, onClick, enabled = true, primary = false, id = type) =>
    legal.has(type) ? html`<${ActionButton} className=${primary ? 'primary' : ''} action=${id} busy=${busy}
        why=${enabled ? null : whyNot(id, why)} onClick=${onClick} label=${label} />` : null;

  return html`<div class="table-layout">
    <section class="felt" aria-label=${t('table.label', { game: gameName(view.game) })}>
      <div class="felt-head">
        <h1 class="felt-title" tabindex="-1">${gameName(view.game)}</h1>
        <span>${t('table.hand_no', { n: view.hand_no + 1 })}</span>
        ${room.stake ? html`<span>${t('lobby.stake_value', { stake: room.stake, buy_in: room.buy_in })}</span>` : ''}
        <${StakeLimits} room=${room} />
        <${TableChips} me=${me} room=${room} seated=${seat !== null} />
        <${TableExit} room=${room} view=${view} me=${me} />
      </div>
      <div class="opponents">
        ${others.map((s) => html`<${SeatBox} key=${s} view=${view} room=${room} me=${me} seat=${s} now=${now} move=${moves[s]} />`)}
      </div>

      <div class="center">
        <div class="pile">
          <button type="button" class="pile-btn stock" data-testid="stock" draggable=${canStock}
              disabled=${!canStock} onClick=${drawStock}
              onDragStart=${(e) => e.dataTransfer.setData('text/plain', 'pile:stock')}
              aria-label=${t('table.stock_label', { n: view.stock_count })}>
            ${view.stock_count > 0 ? html`<${CardSvg} back=${true} />` : html`<span class="empty-slot"></span>`}
          </button>
          <span class="pile-caption">${t('table.stock')} · ${view.stock_count}</span>
        </div>
        <div class=${'pile discard ' + (throwDown ? 'area' : '')} data-testid="discard"
             onDragOver=${allow} onDrop=${dropOnDiscard}>
          ${throwDown
            ? html`<div class="discard-area">${view.discard.map((c, i) => html`<${CardButton} key=${c + i} code=${c}
                  label=${t('table.take_card', { card: cardName(c) })} disabled=${!canTake(c)}
                  draggable=${canTake(c)} onDragStart=${(e) => e.dataTransfer.setData('text/plain', 'pile:discard:' + c)}
                  onClick=${() => drawDiscard(c)} />`)}
                ${view.discard.length === 0 && html`<span class="empty-slot"></span>`}</div>`
            : html`<button type="button" class="pile-btn" data-testid="discard-top" draggable=${canTake(topDiscard)}
                  onDragStart=${(e) => e.dataTransfer.setData('text/plain', 'pile:discard')}
                  disabled=${!canTake(topDiscard) && !canThrow('discard')}
                  onClick=${() => (canDraw ? drawDiscard() : needOne(discard))}
                  aria-label=${topDiscard ? t('table.discard_label', { card: cardName(topDiscard), n: view.discard.length }) : t('table.discard_empty')}>
                ${topDiscard ? html`<${CardSvg} key=${topDiscard + view.discard.length} code=${topDiscard} />` : html`<span class="empty-slot"></span>`}
              </button>`}
          <span class="pile-caption">${t('table.discard')} · ${view.discard.length}</span>
        </div>
        <div class="status-box">
          <p class="turn-text" data-testid="turn-text">${turnText}</p>
          <${Aids} view=${view} />
          ${view.game_over && !showResult && html`<${RematchBar} room=${room} me=${me} offer=${offer} />`}
          ${view.game_over && !showResult && room.tournament && html`<${TournamentNext} room=${room} me=${me} told=${told} />`}
          ${myLeft !== null && html`<p class=${'timer big ' + (myLeft <= 10 ? 'urgent' : '')} data-testid="my-timer">\u23F1 ${myLeft}s</p>`}
          ${view.call_window && html`<p class="call-banner" data-testid="call-window">
            ${t('table.call_window', { card: shortCard(view.call_window.card) })}
            ${legal.has('call_rummy') && !view.call_window.called ? html`<br />${t('hint.call_select')}` : ''}
            ${view.call_window.called ? html`<br />${t('table.called')}` : ''}</p>`}
        </div>
      </div>

      <div class="melds" data-testid="melds" aria-label=${t('table.melds')}>
        ${view.melds.length === 0 && html`<p class="muted melds-empty">${t('table.no_melds')}</p>`}
        ${view.melds.map((m) => html`<div class="meld" key=${m.id} data-meld=${m.id}
            onDragOver=${allow} onDrop=${(e) => dropOnMeld(e, m)}>
          <button type="button" class="meld-head" data-testid=${'meld-' + m.id} onClick=${() => onMeld(m, selCodes)}
              aria-label=${t('table.meld_label', { n: m.id + 1, name: seatName(room, m.owner), cards: m.cards.map(cardName).join(', ') })}>
            ${seatName(room, m.owner)}
          </button>
          <div class="meld-cards">
            ${m.cards.map((c, i) => legal.has('borrow')
              ? html`<${CardButton} key=${i} code=${c} className="small" onClick=${() => onMeldCard(m, c)}
                   label=${t('table.borrow_card', { card: cardName(c) })} />`
              : html`<span key=${i} onClick=${() => onMeld(m, selCodes)}><${CardImg} code=${c} className="small" /></span>`)}
          </div>
        </div>`)}
      </div>

      <div class=${'me ' + (myTurn ? 'active' : '')}>
        <div class="me-head">
          <span class="seat-name">${seat !== null ? seatName(room, seat) : t('table.spectator')}</span>
          ${seat !== null && html`<span>${t('table.points', { n: view.totals[seat] })}</span>`}
          ${seat !== null && html`<${Presence} view=${view} seat=${seat} />`}
          ${view.dealer === seat ? html`<span class="badge dealer">${t('table.dealer_short')}</span>` : ''}
          <span class="spacer"></span>
          <span class="muted">${t('table.sort')}</span>
          <button type="button" class="btn small ghost" data-testid="sort-suit" onClick=${() => sortBy('suit')}>${t('table.sort_suit')}</button>
          <button type="button" class="btn small ghost" data-testid="sort-rank" onClick=${() => sortBy('rank')}>${t('table.sort_rank')}</button>
        </div>
        ${grouped.length > 0 && html`<div class="groups" data-testid="groups" aria-label=${t('table.groups')}>
          ${grouped.map((g, i) => html`<div class="group">
            <span class="tag">${t('table.group_n', { n: i + 1 })}</span>
            ${g.map((k) => html`<${CardImg} code=${codeOf(k)} className="mini" />`)}
            <button type="button" class="btn tiny ghost" aria-label=${t('table.group_remove', { n: i + 1 })}
                onClick=${() => setGroups(grouped.filter((_, j) => j !== i))}>\u00D7</button>
          </div>`)}
        </div>`}
        <div class=${'hand' + (view.hand.length > 13 ? ' crowded' : '')} data-testid="hand" role="group" aria-label=${t('table.your_hand', { n: view.hand.length })}
             onDragOver=${allow} onDrop=${(e) => dropOnHand(e, null)}>
          ${shown.map((k) => html`<${CardButton} key=${k} code=${codeOf(k)} selected=${sel.includes(k)}
              className=${groupedSet.has(k) ? 'grouped' : ''} draggable=${true}
              data-key=${k}
              onDragStart=${(e) => { e.dataTransfer.setData('text/plain', 'hand:' + k); e.dataTransfer.effectAllowed = 'move'; }}
              onDragOver=${allow} onDrop=${(e) => dropOnHand(e, k)}
              onKeyDown=${(e) => cardKeys(e, k)} onClick=${() => toggle(k)} />`)}
        </div>
        <div class="actions" role="toolbar" aria-label=${t('table.actions')}>
          ${actionButton('draw', t('action.draw_stock'), drawStock, canStock, true)}
          ${!throwDown && actionButton('draw', t('action.draw_discard'), () => drawDiscard(), canTake(topDiscard), false, 'draw-discard')}
          ${actionButton('meld', t('action.meld'), meld, proposed.length > 0 && threeEach(proposed), true)}
          ${actionButton('show', t('action.show'), show, threeEach(proposed))}
          ${actionButton('declare', t('action.declare'), declare, grouped.length > 0 && threeEach(grouped), true)}
          ${actionButton('knock', t('action.knock'), () => needOne(knock), canThrow('knock'))}
          ${actionButton('discard', t('action.discard'), () => needOne(discard), canThrow('discard'), true)}
          ${(legal.has('declare') || legal.has('show') || legal.has('meld')) && html`
            <${ActionButton} className="ghost" testid="add-group" busy=${busy} label=${t('action.add_group')}
                why=${loose.length >= 3 ? null : whyNot('add-group', why)} onClick=${addGroup} />
            ${grouped.length > 0 && html`<button type="button" class="btn ghost" onClick=${() => setGroups([])}>${t('action.clear_groups')}</button>`}`}
          ${sel.length > 0 && html`<button type="button" class="btn ghost" onClick=${clearSel}>${t('action.clear_selection')}</button>`}
        </div>
        <p class="hints muted">${hintText(legal, myTurn)}</p>
      </div>
    </section>

    <aside class="side">
      <${Scoreboard} view=${view} room=${room} />
      <${RulesPanel} game=${view.game} />
      <${FairPanel} fair=${fair} view=${view} next=${view.next_deal_commitment} seated=${seat !== null} sock=${sock} />
      <${EventLog} log=${log} room=${room} />
      <${AlertPrefs} />
      <${Chat} chat=${chat} sock=${sock} room=${room} me=${me} canWrite=${seat !== null || !!room.spectator_chat} />
    </aside>
    ${showResult && html`<${HandResult} view=${view} room=${room} fair=${fair} me=${me} offer=${offer} told=${told}
        onClose=${() => setDismissed(view.results.length)} />`}
    ${designation && html`<${WildDialog} pending=${designation} sock=${sock} onCancel=${() => setDesignation(null)}
        onDone=${(a) => { const d = designation; setDesignation(null); send(a, { clearGroups: d.clearGroups }); }} />`}
  </div>`;
}

function hintText(legal, myTurn) {
  const parts = [];
  if (legal.has('lay_off')) parts.push(t('hint.lay_off'));
  if (legal.has('swap_joker')) parts.push(t('hint.swap_joker'));
  if (legal.has('borrow')) parts.push(t('hint.borrow'));
  if (legal.has('declare') || legal.has('show')) parts.push(t('hint.groups'));
  if (myTurn) parts.push(t('hint.drag'));
  return parts.join(' ');
}
