// HTTP calls and the room websocket (PROTOCOL.md §5, docs/server.md).
const TOKEN_KEY = 'rummy.token';
const PLAYER_KEY = 'rummy.player';
const INVITE_KEY = 'rummy.invite.'; // + room id: the invite code a private room was opened with

export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get player() {
    try {
      return JSON.parse(localStorage.getItem(PLAYER_KEY) || 'null');
    } catch {
      return null;
    }
  },
  save({ token, player }) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(PLAYER_KEY);
  },
  /** Remember (or read) the invite code of a private room, to watch it without a seat. */
  invite(roomId, code) {
    if (code !== undefined) sessionStorage.setItem(INVITE_KEY + roomId, code);
    return sessionStorage.getItem(INVITE_KEY + roomId);
  },
};

export class ApiError extends Error {
  constructor(code, message, status, { options = null, retryAfter = null } = {}) {
    super(message || code);
    this.code = code;
    this.status = status;
    if (options) this.options = options; // the option keys a conflicting_options refusal names
    this.retryAfter = retryAfter; // seconds to wait, for a refusal over a limit (429)
  }
}

/** Call the HTTP API; throws ApiError with the server's code and message on a refusal. */
export async function api(path, { method = 'GET', body, token = session.token } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError('network_error', String(e), 0);
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const d = data && data.detail;
    if (d && d.code) {
      throw new ApiError(d.code, d.message, res.status, { options: d.options, retryAfter: d.retry_after ?? null });
    }
    throw new ApiError('http_' + res.status, res.statusText, res.status);
  }
  return data;
}

/** Revoke the token on the server (its sockets close at once). A failure is ignored: the
 * caller forgets the token all the same. */
export async function revokeToken(token) {
  try {
    if (token) await api('/api/auth/logout', { method: 'POST', token });
  } catch {
    // Already expired, or the server is unreachable.
  }
}

/** A refusal as an Error: its code, and the figures it may carry (`card`, `meld`, `need`, …,
 * docs/server.md) for the message to name. */
function errorOf({ type, id, message, ...fields }) {
  return Object.assign(new Error(message), fields);
}

let idCounter = 0;
const newId = () => `${Date.now().toString(36)}-${++idCounter}`;

/**
 * One room's socket. Reconnects by itself (with back-off) and authenticates again; the server
 * then sends the current state. Nothing is resent: an action whose answer was lost is settled
 * by the state that follows.
 * handlers: onMessage(msg), onStatus(status: connecting | open | reconnecting, or for good:
 * auth_failed | no_room | too_many_sockets | suspended, PROTOCOL.md §9).
 */
export class RoomSocket {
  constructor(roomId, token, handlers, invite = null) {
    this.roomId = roomId;
    this.token = token;
    this.invite = invite;
    this.handlers = handlers;
    this.pending = new Map();
    this.closed = false;
    this.attempt = 0;
    this.ws = null;
    this.connect();
    this.pinger = setInterval(() => this.raw({ type: 'ping' }), 25000);
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`);
    this.ws = ws;
    this.status(this.attempt ? 'reconnecting' : 'connecting');
    const auth = { type: 'auth', token: this.token };
    if (this.invite) auth.invite = this.invite;
    ws.onopen = () => ws.send(JSON.stringify(auth));
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => this.dropped(e.code);
  }

  receive(msg) {
    if (msg.type === 'error' && msg.code === 'suspended') this.suspended = true; // the close follows
    if (msg.type === 'state') {
      this.attempt = 0;
      this.status('open');
    }
    const answer = msg.type === 'ack' || msg.type === 'error' || msg.type === 'designations';
    if (answer && msg.id != null && this.pending.has(msg.id)) {
      const { resolve, reject } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type !== 'error') resolve(msg);
      else reject(errorOf(msg));
    }
    this.handlers.onMessage(msg);
  }

  dropped(code) {
    for (const { reject } of this.pending.values()) {
      reject(Object.assign(new Error('connection lost'), { code: 'connection_lost' }));
    }
    this.pending.clear();
    if (this.closed) return;
    const final = this.suspended ? 'suspended' : { 4401: 'auth_failed', 4404: 'no_room', 4429: 'too_many_sockets' }[code];
    if (final) { // reconnecting would not help (4429: it would close another of our sockets)
      this.status(final);
      return;
    }
    this.status('reconnecting');
    const delay = Math.min(5000, 300 * 2 ** this.attempt++);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  status(s) {
    if (s !== this.lastStatus) {
      this.lastStatus = s;
      this.handlers.onStatus && this.handlers.onStatus(s);
    }
  }

  raw(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  /** Send an action; resolves on its ack, rejects with {code, message} on a refusal. */
  act(action) {
    const id = newId();
    return new Promise((resolve, reject) => {
      if (!this.raw({ type: 'action', id, action })) {
        reject(Object.assign(new Error('not connected'), { code: 'not_connected' }));
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }

  /** A question the server answers by id (`designations`, docs/server.md); rejects like act. */
  query(message) {
    const id = newId();
    return new Promise((resolve, reject) => {
      if (!this.raw({ ...message, id })) {
        reject(Object.assign(new Error('not connected'), { code: 'not_connected' }));
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }

  chat(text) {
    return this.raw({ type: 'chat', text });
  }

  /** This player's seed for the next deal (PROTOCOL.md §7); the server answers `seed`. */
  seed(value) {
    return this.raw({ type: 'seed', value });
  }

  /** Drop the connection as if the network failed (used by tests and the "reconnect" path). */
  dropForTest() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
