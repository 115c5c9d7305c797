// Play again: the host opens the same room again (POST /api/rooms/{id}/rematch); the other
// players are sent a `rematch` message with the new room and its invite code.
import { html, useState, errorText } from './ui.js';
import { t } from './i18n.js';
import { api, session } from './api.js';

export function RematchBar({ room, me, offer }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const run = async (f) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(e);
    }
    setBusy(false);
  };
  // A tournament's table has no rematch (409 tournament_table): the tournament seats its next round.
  if (room.stand_in_for_absent) return null;
  const host = room.host_id === me.id;
  const playAgain = () => run(async () => {
    const next = await api(`/api/rooms/${room.id}/rematch`, { method: 'POST' });
    location.hash = `#/room/${next.id}`;
  });
  const join = () => run(async () => {
    session.invite(offer.room, offer.invite_code);
    await api(`/api/rooms/${offer.room}/join`, { method: 'POST', body: { invite: offer.invite_code } });
    location.hash = `#/room/${offer.room}`;
  });
  let body = null;
  if (host) {
    body = html`<button type="button" class="btn primary" data-testid="play-again" disabled=${busy}
        onClick=${playAgain}>${t('rematch.play_again')}</button>`;
  } else if (offer) {
    const name = (room.players.find((p) => p && p.player_id === room.host_id) || {}).name || '';
    body = html`<span role="status">${t('rematch.invited', { name })}</span>
      <button type="button" class="btn primary" data-testid="join-rematch" disabled=${busy}
        onClick=${join}>${t('rematch.join')}</button>`;
  }
  if (!body) return null;
  return html`<div class="rematch row" data-testid="rematch">${body}
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}</div>`;
}
