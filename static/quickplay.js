// Play against the computer: one click per game opens a room, fills it with computer players,
// opens the table and starts the match there, once this browser's seed for the first deal is in.
// Started before the table page opens, the first hand would be dealt without the player's seed,
// against a commitment the browser never saw, and "Verify this deal" could not prove it
// (PROTOCOL.md §7, docs/fairness.md). Each game's button says in a line what the game is.
import { html, useState, useEffect, errorText, toast } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';

const starting = new Set(); // quick-play rooms whose match starts when the player's seed is in

/** The table page's seed went in (the server answered `seed`): start a quick play's match. */
export function seedSent(roomId) {
  if (!starting.delete(roomId)) return;
  api(`/api/rooms/${roomId}/start`, { method: 'POST' }).catch((e) => toast(errorText(e), 'error'));
}

export function PlayComputer() {
  const [games, setGames] = useState([]);
  const [busy, setBusy] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api('/api/games').then((d) => setGames(d.games), setError);
  }, []);
  const play = async (game) => {
    setBusy(game.key);
    setError(null);
    try {
      const seats = Math.max(2, game.min_players);
      const room = await api('/api/rooms', { method: 'POST', body: { game: game.key, seats, options: {} } });
      await api(`/api/rooms/${room.id}/bots`, { method: 'POST', body: { count: seats - 1 } });
      starting.add(room.id);
      location.hash = `#/room/${room.id}`;
    } catch (e) {
      setError(e);
      setBusy(null);
    }
  };
  return html`<section class="panel quickplay" aria-labelledby="quick-h" data-testid="play-computer">
    <h2 id="quick-h">${t('quick.title')}</h2>
    <p class="muted">${t('quick.explain')}</p>
    <div class="quick-games">
      ${games.map((g) => html`<button type="button" class="btn small" key=${g.key} disabled=${busy !== null}
          data-testid=${'play-computer-' + g.key} onClick=${() => play(g)}
          aria-label=${t('quick.play', { game: gameName(g.key) })} aria-describedby=${'quick-line-' + g.key}>
          <span class="game-name">${gameName(g.key)}</span>
          <span class="game-line" id=${'quick-line-' + g.key} data-testid=${'game-line-' + g.key}>${t(`game.${g.key}.line`)}</span></button>`)}
    </div>
    ${error && html`<p class="form-error" role="alert">${errorText(error)}</p>`}
  </section>`;
}
