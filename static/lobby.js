// Entry (guest, sign up, log in) and the lobby: open rooms, updated every few seconds.
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName } from './i18n.js';
import { api, session } from './api.js';
import { PlayComputer } from './quickplay.js';
import { PlayNow } from './playnow.js';
import { MyRooms } from './my-rooms.js';
import { LobbyFilter, filterQuery } from './lobby-filter.js';

export function Entry({ onAuthed }) {
  const [mode, setMode] = useState('guest');
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = mode === 'guest' ? { name: name.trim() || t('auth.guest_default') } : { username, password };
      session.save(await api(`/api/auth/${mode}`, { method: 'POST', body, token: null }));
      await onAuthed();
    } catch (err) {
      setError(err);
    }
    setBusy(false);
  };

  const tab = (m) => html`<button type="button" role="tab" aria-selected=${mode === m}
      class=${'tab ' + (mode === m ? 'active' : '')} data-testid=${'tab-' + m}
      onClick=${() => { setMode(m); setError(null); }}>${t('auth.tab.' + m)}</button>`;

  return html`<section class="entry">
    <div class="hero">
      <h1>${t('app.title')}</h1>
      <p>${t('app.tagline')}</p>
      <div class="hero-cards" aria-hidden="true"><span>A\u2660</span><span class="red">K\u2665</span><span class="red">Q\u2666</span><span>J\u2663</span></div>
    </div>
    <form class="panel narrow" onSubmit=${submit}>
      <div class="tabs" role="tablist">${tab('guest')}${tab('login')}${tab('register')}</div>
      ${mode === 'guest'
        ? html`<label class="field">${t('auth.name')}
            <input name="name" value=${name} maxlength="40" autocomplete="nickname"
                   placeholder=${t('auth.name_placeholder')} onInput=${(e) => setName(e.target.value)} /></label>`
        : html`<label class="field">${t('auth.username')}
              <input name="username" value=${username} required autocomplete="username"
                     onInput=${(e) => setUsername(e.target.value)} /></label>
            <label class="field">${t('auth.password')}
              <input name="password" type="password" value=${password} required
                     autocomplete=${mode === 'register' ? 'new-password' : 'current-password'}
                     minlength=${mode === 'register' ? 10 : undefined}
                     aria-describedby=${mode === 'register' ? 'password-help' : undefined}
                     onInput=${(e) => setPassword(e.target.value)} />
              ${mode === 'register' && html`<span class="help" id="password-help">${t('auth.password_help')}</span>`}</label>`}
      ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
      <button class="btn primary wide" type="submit" disabled=${busy} data-testid="auth-submit">
        ${t('auth.submit.' + mode)}</button>
    </form>
  </section>`;
}

const ANY = { game: '', seats: '', stake: '', turn_seconds: '' };

export function Lobby({ me }) {
  const [rooms, setRooms] = useState(null);
  const [all, setAll] = useState(null); // every listed room: what Play now counts
  const [games, setGames] = useState([]);
  const [filter, setFilter] = useState(ANY);
  const [error, setError] = useState(null);
  const query = filterQuery(filter);

  useEffect(() => {
    api('/api/games').then((d) => setGames(d.games), setError);
  }, []);

  useEffect(() => {
    let alive = true;
    const load = async () => {
      try {
        const [data, every] = await Promise.all([api('/api/rooms' + query),
          query ? api('/api/rooms') : null]);
        if (alive) {
          setAll(every ? every.rooms : data.rooms);
          setRooms(data.rooms);
          setError(null);
        }
      } catch (e) {
        if (alive) setError(e);
      }
    };
    load();
    const timer = setInterval(load, 3000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [query]);

  const join = async (room) => {
    try {
      await api(`/api/rooms/${room.id}/join`, { method: 'POST', body: {} });
      location.hash = `#/room/${room.id}`;
    } catch (e) {
      setError(e);
    }
  };

  const hostName = (room) => {
    const p = (room.players || []).find((x) => x && x.player_id === room.host_id);
    return p ? p.name : '\u2014';
  };
  const mine = (room) => (room.players || []).some((x) => x && x.player_id === me.id);

  return html`<section class="lobby">
    <div class="lobby-head">
      <div>
        <h1>${t('lobby.title')}</h1>
        <p class="muted">${t('lobby.welcome', { name: me.name })}</p>
      </div>
      <a class="btn primary" href="#/host" data-testid="host-room">${t('lobby.host')}</a>
    </div>
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
    <${MyRooms} />
    <${PlayNow} rooms=${all} />
    <${PlayComputer} />
    <${LobbyFilter} filter=${filter} games=${games} onChange=${setFilter} />
    ${rooms === null
      ? html`<p class="muted">${t('app.loading')}</p>`
      : rooms.length === 0
        ? html`<div class="panel empty" data-testid="rooms-empty"><p>${t(query ? 'lobby.filter.empty' : 'lobby.empty')}</p></div>`
        : html`<table class="rooms" data-testid="rooms">
            <caption class="sr-only">${t('lobby.title')}</caption>
            <thead><tr>
              <th scope="col">${t('lobby.col.game')}</th><th scope="col">${t('lobby.col.seats')}</th>
              <th scope="col">${t('lobby.col.stake')}</th><th scope="col">${t('lobby.col.host')}</th>
              <th scope="col">${t('lobby.col.status')}</th><th scope="col"><span class="sr-only">${t('lobby.col.action')}</span></th>
            </tr></thead>
            <tbody>${rooms.map((room) => html`<tr key=${room.id} data-room=${room.id}>
              <td><strong>${gameName(room.game)}</strong>${room.rated ? html` <span class="badge" data-testid="rated-badge">${t('board.rated_room')}</span>` : ''}${room.quick_seat ? html` <span class="badge" data-testid="quick-badge">${t('lobby.quick_seat')}</span>` : ''}</td>
              <td>${t('lobby.seats_taken', { taken: room.taken, seats: room.seats })}</td>
              <td>${room.stake ? t('lobby.stake_value', { stake: room.stake, buy_in: room.buy_in }) : t('lobby.free')}</td>
              <td>${hostName(room)}</td>
              <td><span class=${'status status-' + room.status}>${t('room.status.' + room.status)}</span></td>
              <td class="right">
                ${mine(room)
                  ? html`<a class="btn small" href=${'#/room/' + room.id}>${t('lobby.open')}</a>`
                  : room.status === 'waiting' && room.taken < room.seats
                    ? html`<button type="button" class="btn small primary" onClick=${() => join(room)}>${t('lobby.join')}</button>`
                    : room.status === 'playing'
                      ? html`<a class="btn small" href=${'#/room/' + room.id} data-testid=${'watch-' + room.id}
                            aria-label=${t('watch.label', { game: gameName(room.game), host: hostName(room) })}>${t('watch.watch')}</a>`
                      : html`<span class="muted">${t('lobby.full')}</span>`}
              </td>
            </tr>`)}</tbody>
          </table>`}
  </section>`;
}
