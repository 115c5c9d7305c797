// The player client: a hash router (#/ lobby, #/host, #/room/{id}, #/join/{invite}, #/history,
// #/replay/{match}, #/player/{id}, #/leaderboard/{game}, #/account, #/tournaments, #/tournament/{id}).
import { html, render, useState, useEffect, useLang, Toasts, LangSwitcher, LiveRegion, toast, errorText } from './ui.js';
import { t, setLang, preferredLang } from './i18n.js';
import { api, session, revokeToken } from './api.js';
import { Entry, Lobby } from './lobby.js';
import { HostForm } from './host.js';
import { RoomView } from './table.js';
import { History, PlayerReplay } from './history.js';
import { Profile } from './profile.js';
import { Leaderboard } from './board.js';
import { Account } from './account.js';
import { AtTables } from './chips.js';
import { HeaderMenu } from './menu.js';
import { Tournaments } from './tournaments.js';
import { TournamentView } from './tournament.js';

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'room' && parts[1]) return { name: 'room', id: parts[1] };
  if (parts[0] === 'join' && parts[1]) return { name: 'join', code: parts[1] };
  if (parts[0] === 'host') return { name: 'host' };
  if (parts[0] === 'history') return { name: 'history' };
  if (parts[0] === 'replay' && parts[1]) return { name: 'replay', id: parts[1] };
  if (parts[0] === 'player' && parts[1]) return { name: 'player', id: parts[1] };
  if (parts[0] === 'leaderboard') return { name: 'leaderboard', game: parts[1] || 'standard' };
  if (parts[0] === 'account') return { name: 'account' };
  if (parts[0] === 'tournaments') return { name: 'tournaments' };
  if (parts[0] === 'tournament' && parts[1]) return { name: 'tournament', id: parts[1] };
  return { name: 'lobby' };
}

export const go = (hash) => {
  location.hash = hash;
};

function useRoute() {
  const [route, setRoute] = useState(parseRoute());
  useEffect(() => {
    const f = () => setRoute(parseRoute());
    window.addEventListener('hashchange', f);
    return () => window.removeEventListener('hashchange', f);
  }, []);
  return route;
}

/** #/join/CODE: look the invite up, take a seat (or, once the game has started or the seats
 * are taken, watch), go to the room. The code is kept for the room's socket. */
function JoinInvite({ code }) {
  const [error, setError] = useState(null);
  useEffect(() => {
    (async () => {
      try {
        const room = await api(`/api/invites/${encodeURIComponent(code)}`);
        session.invite(room.id, code);
        try {
          await api(`/api/rooms/${room.id}/join`, { method: 'POST', body: { invite: code } });
        } catch (e) {
          if (e.code !== 'room_started' && e.code !== 'room_full') throw e;
        }
        go(`#/room/${room.id}`);
      } catch (e) {
        setError(e);
      }
    })();
  }, [code]);
  return html`<section class="panel narrow">
    ${error
      ? html`<p class="form-error" role="alert">${errorText(error)}</p>
             <a class="btn" href="#/">${t('nav.lobby')}</a>`
      : html`<p>${t('join.joining')}</p>`}
  </section>`;
}

/** A guest account has no password: once logged out it is gone, so ask first. */
function GuestLogout({ onConfirm, onCancel }) {
  return html`<div class="overlay" role="dialog" aria-modal="true" aria-labelledby="logout-h">
    <div class="panel narrow" data-testid="guest-logout">
      <h2 id="logout-h">${t('auth.logout_guest_title')}</h2>
      <p>${t('auth.logout_guest_warning')}</p>
      <div class="row end">
        <button type="button" class="btn ghost" onClick=${onCancel}>${t('auth.logout_cancel')}</button>
        <button type="button" class="btn primary" data-testid="guest-logout-confirm" onClick=${onConfirm}>
          ${t('auth.logout')}</button>
      </div>
    </div>
  </div>`;
}

/** A suspended account: what happened, instead of pages whose every call is refused. */
function Suspended({ onLogout }) {
  return html`<section class="panel narrow" data-testid="suspended">
    <h1>${t('mod.suspended_title')}</h1>
    <p role="alert">${t('conn.suspended')}</p>
    <button type="button" class="btn" onClick=${onLogout}>${t('auth.logout')}</button>
  </section>`;
}

function Header({ me, onLogout }) {
  return html`<header class="topbar">
    <a class="brand" href="#/"><span class="brand-suit" aria-hidden="true">\u2660\u2665</span> ${t('app.title')}</a>
    <${HeaderMenu}>
    <nav class="topnav">
      ${me && html`<a href="#/">${t('nav.lobby')}</a> <a href="#/host">${t('nav.host')}</a>
        <a href="#/history" data-testid="nav-history">${t('history.nav')}</a>
        <a href="#/tournaments" data-testid="nav-tournaments">${t('nav.tournaments')}</a>
        <a href="#/leaderboard/standard" data-testid="nav-board">${t('board.nav')}</a>
        <a href="#/account" data-testid="nav-account">${t('account.nav')}</a>`}
    </nav>
    <div class="topright">
      ${me && html`<a class="who" href=${'#/player/' + me.id} data-testid="me-name">${me.name}</a>
        <span class="chips" data-testid="balance" title=${t('me.balance')}>
          <span aria-hidden="true">\u25CF</span> ${t('me.chips', { n: me.balance })}</span>
        <${AtTables} me=${me} />
        <button type="button" class="btn small ghost" data-testid="logout" onClick=${onLogout}>${t('auth.logout')}</button>`}
      <${LangSwitcher} />
    </div>
    <//>
  </header>`;
}

function App() {
  const lang = useLang();
  const route = useRoute();
  useEffect(() => { // not on every render: the table titles the tab on the player's turn
    document.title = t('app.title');
  }, [lang, route.name]);
  const [me, setMe] = useState(null);
  const [checked, setChecked] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [suspended, setSuspended] = useState(false);

  const refreshMe = async () => {
    if (!session.token) {
      setMe(null);
      setChecked(true);
      return;
    }
    try {
      setMe(await api('/api/me'));
      setSuspended(false);
    } catch (e) {
      if (e.code === 'suspended') {
        setSuspended(true); // every call is refused until it ends (PROTOCOL.md §9)
      } else if (e.status === 401) {
        session.clear();
        setMe(null);
      } else {
        toast(errorText(e), 'error'); // a passing failure: the player stays signed in, at the table
      }
    }
    setChecked(true);
  };
  useEffect(() => {
    refreshMe();
  }, []);
  useEffect(() => {
    if (me && route.name === 'lobby') refreshMe();
  }, [route.name]);

  const logout = async () => {
    setConfirming(false);
    setSuspended(false);
    await revokeToken(session.token);
    session.clear();
    setMe(null);
    go('#/');
  };
  const askLogout = () => (me && me.is_guest ? setConfirming(true) : logout());

  let body;
  if (!checked) body = html`<p class="loading">${t('app.loading')}</p>`;
  else if (suspended) body = html`<${Suspended} onLogout=${logout} />`;
  else if (!me) body = html`<${Entry} onAuthed=${refreshMe} />`;
  else if (route.name === 'room') body = html`<${RoomView} key=${route.id} id=${route.id} me=${me} refreshMe=${refreshMe} />`;
  else if (route.name === 'join') body = html`<${JoinInvite} code=${route.code} />`;
  else if (route.name === 'host') body = html`<${HostForm} />`;
  else if (route.name === 'history') body = html`<${History} />`;
  else if (route.name === 'replay') body = html`<${PlayerReplay} key=${route.id} id=${route.id} />`;
  else if (route.name === 'player') body = html`<${Profile} key=${route.id} id=${route.id} me=${me} />`;
  else if (route.name === 'leaderboard') body = html`<${Leaderboard} game=${route.game} meId=${me.id} />`;
  else if (route.name === 'tournaments') body = html`<${Tournaments} />`;
  else if (route.name === 'tournament') body = html`<${TournamentView} key=${route.id} id=${route.id} me=${me} refreshMe=${refreshMe} />`;
  else if (route.name === 'account') body = html`<${Account} me=${me} refreshMe=${refreshMe} />`;
  else body = html`<${Lobby} me=${me} />`;

  return html`<div class=${'app route-' + route.name}>
    <${Header} me=${me} onLogout=${askLogout} />
    <main id="main" class="content">${body}</main>
    ${confirming && html`<${GuestLogout} onConfirm=${logout} onCancel=${() => setConfirming(false)} />`}
    <${Toasts} />
    <${LiveRegion} />
  </div>`;
}

await setLang(preferredLang());
render(html`<${App} />`, document.getElementById('app'));
