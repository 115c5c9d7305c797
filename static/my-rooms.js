// "Your games" on the lobby: every open room the player sits in (GET /api/me/rooms), private
// ones included, each with a way back to its table (to watch it, where they resigned: a
// stand-in plays the seat to the end), and the tournaments the player registered
// in or created while they register or run (GET /api/tournaments?mine=1), each with a way to
// its page. Refreshed every few seconds, as the lobby.
import { html, useState, useEffect } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';

const REFRESH_MS = 5000;

/** `path`'s list under `key`, asked again every REFRESH_MS while the lobby is open. */
function usePolled(path, key) {
  const [items, setItems] = useState([]);
  useEffect(() => {
    let alive = true;
    const load = () => api(path).then((d) => alive && setItems(d[key]), () => {});
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [path]);
  return items;
}

export function MyRooms() {
  const rooms = usePolled('/api/me/rooms', 'rooms');
  const tournaments = usePolled('/api/tournaments?mine=1', 'tournaments');
  if (!rooms.length && !tournaments.length) return null;
  return html`<section class="panel my-rooms" aria-labelledby="my-rooms-h" data-testid="my-rooms">
    <h2 id="my-rooms-h">${t('lobby.mine_title')}</h2>
    <ul>${tournaments.map((x) => {
      const status = t('tournament.status.' + x.status);
      return html`<li key=${'t' + x.id} data-tournament=${x.id}>
        <strong>${x.name}</strong>
        <span class="badge">${t('tournament.badge')}</span>
        <span class=${'status tstatus-' + x.status}>${status}</span>
        <span class="muted">${gameName(x.game)}</span>
        <a class="btn small primary" href=${'#/tournament/' + x.id} data-testid=${'my-tournament-' + x.id}
           aria-label=${t('lobby.mine_tournament_label', { name: x.name, status })}>${t('lobby.open')}</a>
      </li>`;
    })}${rooms.map((room) => {
      const status = t('room.status.' + room.status);
      return html`<li key=${room.id} data-room=${room.id}>
        <strong>${gameName(room.game)}</strong>
        <span class=${'status status-' + room.status}>${status}</span>
        <span class="muted">${t('lobby.seats_taken', { taken: room.taken, seats: room.seats })}</span>
        ${room.private ? html`<span class="badge">${t('host.private')}</span>` : ''}
        ${room.resigned ? html`<span class="badge">${t('lobby.mine_resigned')}</span>` : ''}
        <${RoomLink} room=${room} status=${status} />
      </li>`;
    })}</ul>
  </section>`;
}

/** The way to a room of mine: back to my seat, or, once I resigned it, to watch the table. */
function RoomLink({ room, status }) {
  const [label, text, kind] = room.resigned
    ? ['lobby.mine_watch_label', 'watch.watch', 'btn small']
    : ['lobby.mine_label', 'lobby.mine_back', 'btn small primary'];
  return html`<a class=${kind} href=${'#/room/' + room.id} data-testid=${'my-room-' + room.id}
      aria-label=${t(label, { game: gameName(room.game), status })}>${t(text)}</a>`;
}
