// Play against the computer: one click per game opens a room, fills it with computer players,
// starts the match and opens the table. Each game's button says in a line what the game is.
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';

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
      await api(`/api/rooms/${room.id}/start`, { method: 'POST' });
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
