// Verifiable deals (PROTOCOL.md §7), recomputed in the browser with its own SHA-256 (WebCrypto):
// the player checks the server's revealed seed against the commitment it was shown before its
// own seed was sent, that its own seed was used, and that the seeds give the cards it was dealt.

const enc = new TextEncoder();
const WORDS = 2 ** 32;

/** A fresh client seed for the next hand: 16 random bytes as 32 hex characters (§7 step 2). */
export function randomSeed() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

export const SEED_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function unhex(text) {
  if (!/^([0-9a-fA-F]{2})*$/.test(text)) throw new Error('not hex');
  return Uint8Array.from(text.match(/../g) || [], (b) => parseInt(b, 16));
}

export async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** §7 step 1: the lowercase hex SHA-256 of the server seed's 32 bytes (not of its text). */
export async function commitmentOf(serverSeed) {
  return hex(await sha256(unhex(serverSeed)));
}

/** §7 step 3: the server seed's bytes, then each seat's seed in ASCII and a newline. */
export async function deckSeed(serverSeed, clientSeeds) {
  return sha256(concat([unhex(serverSeed), ...clientSeeds.map((s) => enc.encode(s + '\n'))]));
}

/** §7 step 4: pack by pack, suits C D H S, each A..K; then the jokers. */
export function pack(decks, jokers) {
  const cards = [];
  for (let d = 0; d < decks; d++) {
    for (const suit of 'CDHS') for (const rank of 'A23456789TJQK') cards.push(rank + suit);
  }
  return cards.concat(Array(jokers).fill('JK'));
}

/** §7 steps 5 and 6: Fisher–Yates from the top index down, on 4-byte words of the stream. */
export async function shuffle(cards, seed) {
  const order = cards.slice();
  let block = new Uint8Array(0);
  let pos = 0;
  let counter = 0;
  const word = async () => {
    if (pos >= block.length) {
      const c = new Uint8Array(8);
      new DataView(c.buffer).setBigUint64(0, BigInt(counter++));
      block = await sha256(concat([seed, c]));
      pos = 0;
    }
    const x = new DataView(block.buffer, pos, 4).getUint32(0);
    pos += 4;
    return x;
  };
  for (let i = order.length - 1; i >= 1; i--) {
    const limit = WORDS - (WORDS % (i + 1));
    let x = await word();
    while (x >= limit) x = await word();
    const j = x % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** §7 step 7: one card at a time from the dealer's left, skipping full seats; the upcard; the
 * rest is the stock, top first. */
export function dealFrom(order, dealer, sizes, upcard) {
  const players = sizes.length;
  const hands = sizes.map(() => []);
  let pos = 0;
  let seat = (dealer + 1) % players;
  while (hands.some((h, s) => h.length < sizes[s])) {
    if (hands[seat].length < sizes[seat]) hands[seat].push(order[pos++]);
    seat = (seat + 1) % players;
  }
  const rest = order.slice(pos);
  const discard = upcard ? rest.slice(0, 1) : [];
  return { hands, discard, stock: rest.slice(discard.length) };
}

/** What a player saw when a hand was dealt: the pack's shape follows from the card counts
 * (whole packs of 52, then jokers). */
export function dealtRecord(view) {
  const n = view.hand_counts.reduce((a, b) => a + b, 0) + view.stock_count + view.discard.length;
  return {
    hand_no: view.hand_no, seat: view.seat, dealer: view.dealer, hand: view.hand.slice(),
    upcard: view.discard.slice(), sizes: view.hand_counts.slice(),
    decks: Math.floor(n / 52), jokers: n % 52, commitment: view.deal_commitment,
  };
}

const sameCards = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * Check a revealed deal (`view.last_deal`) against what this browser saw: `dealt` (from
 * dealtRecord: the hand, the upcard and the commitment shown during the hand) and `sent`, the
 * seed this browser sent against each commitment it was shown. Each check is true, false, or
 * null when there is nothing to check it against; the deal is proven only if all four hold.
 */
export async function verifyDeal(reveal, dealt, sent) {
  const checks = { commitment: false, seed: null, hand: null, upcard: null };
  let derived = null;
  const shown = dealt ? dealt.commitment : null;
  const mySeed = shown && Object.hasOwn(sent, shown) ? sent[shown] : null;
  try {
    // the commitment shown before this browser sent its seed, during the hand, and revealed
    checks.commitment = mySeed !== null && reveal.commitment === shown
      && (await commitmentOf(reveal.server_seed)) === shown;
    if (!reveal.client_seeds.every((x) => x === '' || SEED_PATTERN.test(x))) throw new Error('bad seed');
    if (dealt) {
      const order = await shuffle(pack(dealt.decks, dealt.jokers),
        await deckSeed(reveal.server_seed, reveal.client_seeds));
      derived = dealFrom(order, reveal.dealer, dealt.sizes, dealt.upcard.length > 0);
      if (dealt.seat !== null && dealt.seat !== undefined) {
        checks.hand = sameCards(derived.hands[dealt.seat], dealt.hand);
        checks.seed = mySeed !== null && reveal.client_seeds[dealt.seat] === mySeed;
      }
      checks.upcard = sameCards(derived.discard, dealt.upcard);
    }
  } catch {
    checks.commitment = false; // a malformed reveal proves nothing
    derived = null;
  }
  const proven = Object.values(checks).every((ok) => ok === true);
  return { proven, checks, derived };
}
