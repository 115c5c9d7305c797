// "Your games" on the lobby: every open room the player sits in (GET /api/me/rooms), private
// ones included, each with a way back to its table. Refreshed every few seconds, as the lobby.
import { html, useState, useEffect } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';

const REFRESH_MS = 5000;

export function MyRooms() {
  const [rooms, setRooms] = useState([]);
  useEffect(() => {
    let alive = true;
    const load = () => api('/api/me/rooms').then((d) => alive && setRooms(d.rooms), () => {});
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, []);
  if (!rooms.length) return null;
  return html`<section class="panel my-rooms" aria-labelledby="my-rooms-h" data-testid="my-rooms">
    <h2 id="my-rooms-h">${t('lobby.mine_title')}</h2>
    <ul>${rooms.map((room) => {
      const status = t('room.status.' + room.status);
      return html`<li key=${room.id} data-room=${room.id}>
        <strong>${gameName(room.game)}</strong>
        <span class=${'status status-' + room.status}>${status}</span>
        <span class="muted">${t('lobby.seats_taken', { taken: room.taken, seats: room.seats })}</span>
        ${room.private ? html`<span class="badge">${t('host.private')}</span>` : ''}
        <a class="btn small primary" href=${'#/room/' + room.id} data-testid=${'my-room-' + room.id}
           aria-label=${t('lobby.mine_label', { game: gameName(room.game), status })}>${t('lobby.mine_back')}</a>
      </li>`;
    })}</ul>
  </section>`;
}
