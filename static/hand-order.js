// The player's own arrangement of their hand (the order they dragged or sorted it into, and the
// sort that places new cards), kept in localStorage per room: a reconnect or a reload keeps it
// for the hand in play; a new hand is laid out afresh.
import { useState, useEffect, prefs } from './ui.js';
import { sortCodes } from './cards.js';

const STORE_KEY = 'rummy.hands';
const ROOMS_KEPT = 20; // the rooms remembered, most recent first

function loadAll() {
  try {
    const all = JSON.parse(localStorage.getItem(STORE_KEY) || '{}');
    return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
  } catch {
    return {};
  }
}

function save(roomId, kept) {
  const others = Object.entries(loadAll()).filter(([id]) => id !== roomId).slice(0, ROOMS_KEPT - 1);
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(Object.fromEntries([[roomId, kept], ...others])));
  } catch {
    // storage full or refused: the order still holds until the page goes
  }
}

/** The sort a new hand starts with: the player's preference, keeping the sort they chose last. */
const dealtMode = (last) => (prefs().sortOnDeal ? last || 'suit' : null);

/** A hand laid out as the table lays out a new one (the replay shows hands so): sorted by the
 * sort the player chose last, if they sort on the deal. */
export function layOut(codes) {
  const mode = dealtMode(lastMode());
  return mode ? sortCodes(codes, mode) : codes;
}

/** The sort chosen in the room played most recently (null if none). */
function lastMode() {
  const latest = Object.values(loadAll())[0];
  return (latest && latest.mode) || null;
}

/**
 * `{order, setOrder, sortMode, setSortMode}` for the hand `handNo` of room `roomId`: `order` is
 * the card keys as the player arranged them, `sortMode` (suit | rank | null) where new cards go.
 */
export function useHandOrder(roomId, handNo) {
  const [kept, setKept] = useState(() => {
    const saved = loadAll()[roomId];
    if (saved && saved.hand === handNo && Array.isArray(saved.order)) return saved;
    return { hand: handNo, order: [], mode: dealtMode(saved ? saved.mode : lastMode()) };
  });
  useEffect(() => {
    if (kept.hand !== handNo) setKept((k) => ({ hand: handNo, order: [], mode: dealtMode(k.mode) }));
  }, [handNo]);
  useEffect(() => save(roomId, kept), [roomId, kept]);
  return {
    order: kept.hand === handNo ? kept.order : [],
    setOrder: (order) => setKept((k) => ({ ...k, order })),
    sortMode: kept.mode,
    setSortMode: (mode) => setKept((k) => ({ ...k, mode })),
  };
}
