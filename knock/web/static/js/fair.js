// Fair dealing (spec/rules.md DEAL-5 .. DEAL-11): the derivation of engine/fairdeal.py in JavaScript, on Web
// Crypto (crypto.subtle), so that a browser, or Node 20, recomputes a hand's deck from its seeds, and the hashes
// of DEAL-11 by which every party commits before any seed is seen. A plain ES module with no imports;
// spec/fair-vectors.json is checked against it by tests/spec/test_fair_vectors.py, the DEAL-11 hashes against
// engine/fairdeal.py by tests/web/test_fair_page.py.

const subtle = globalThis.crypto.subtle;
const ascii = (text) => new TextEncoder().encode(text);
const LABEL = ascii("knock-fair/1");
const SEAT_LABEL = ascii("knock-fair-seat/1");
const COMMIT_LABEL = ascii("knock-fair-commit/1");
const SET_LABEL = ascii("knock-fair-set/1");
export const SEED_SIZE = 32;
export const DEAL = 0x44;
export const DRAW = 0x43;

/** ``n`` as 8 bytes, big-endian (the hand number of every DEAL rule's message). */
export function u64(n) {
  const out = [];
  let v = BigInt(n);
  for (let i = 0; i < 8; i++) {
    out.unshift(Number(v & 255n));
    v >>= 8n;
  }
  return out;
}

function u32(n) {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

/** The bytes of ``parts`` one after another. */
export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function hmacKey(key) {
  return subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key, data) {
  return new Uint8Array(await subtle.sign("HMAC", key, data));
}

function checkSeeds(server, seats) {
  if (!(server instanceof Uint8Array) || server.length !== SEED_SIZE) throw new Error("DEAL-5: the server's seed is 32 bytes");
  if (seats.length < 2 || seats.length > 3 || seats.some((s) => !(s instanceof Uint8Array) || s.length !== SEED_SIZE)) {
    throw new Error("DEAL-5: a fair deal takes one 32-byte seed from each of the game's 2 or 3 seats");
  }
}

/** The derivation's first `count` bytes (DEAL-6): HMAC-SHA256(server, label ‖ purpose ‖ number ‖ count ‖ seeds ‖ i). */
export async function streamBytes(server, seats, purpose, number, count) {
  const source = await byteSource(server, seats, purpose, number);
  const out = [];
  while (out.length < count) out.push(await source());
  return new Uint8Array(out);
}

async function byteSource(server, seats, purpose, number) {
  checkSeeds(server, seats);
  const key = await hmacKey(server);
  const prefix = concat(LABEL, [purpose], u64(number), [seats.length], ...seats);
  let block = new Uint8Array(0);
  let at = 0;
  let counter = 0;
  return async () => {
    if (at === block.length) {
      block = await hmac(key, concat(prefix, u32(counter)));
      counter += 1;
      at = 0;
    }
    return block[at++];
  };
}

/** Card codes 0 … size-1 shuffled by Fisher–Yates (DEAL-8) with unbiased integers by rejection (DEAL-7). */
async function fisherYates(next, size = 52) {
  const deck = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const n = i + 1;
    const limit = 256 - (256 % n);
    let b = await next();
    while (b >= limit) b = await next();
    const j = b % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Hand `number`'s deck order, card codes in the deal record's order (DEAL-8). */
export async function dealCodes(server, seats, number) {
  return fisherYates(await byteSource(server, seats, DEAL, number));
}

/** The `index`-th deck of the draw for the first dealer or the roles, from the first hand's seeds (DEAL-8). */
export async function drawCodes(server, seats, index = 0) {
  return fisherYates(await byteSource(server, seats, DRAW, index));
}

/** The server's commitment to its seed: SHA-256 of it (DEAL-9). */
export async function commitment(server) {
  return new Uint8Array(await subtle.digest("SHA-256", server));
}

/** The seed the server supplies for a seat that sends none (DEAL-9). */
export async function suppliedSeed(server, number, seat) {
  return hmac(await hmacKey(server), concat(SEAT_LABEL, u64(number), [seat]));
}

/** A seat's commitment to its seed for hand `number`, bound to the server's commitment `committed` (DEAL-11):
 *  SHA-256(label ‖ committed ‖ number (8 bytes) ‖ seat (1 byte) ‖ seed). */
export async function seatCommitment(committed, number, seat, seed) {
  return new Uint8Array(await subtle.digest("SHA-256", concat(COMMIT_LABEL, committed, u64(number), [seat], seed)));
}

/** The hash of hand `number`'s commitment set (DEAL-11): SHA-256(label ‖ number (8 bytes) ‖ the server's
 *  commitment ‖ every seat's, in seat order). */
export async function setHash(number, committed, commitments) {
  return new Uint8Array(await subtle.digest("SHA-256", concat(SET_LABEL, u64(number), committed, ...commitments)));
}

/** A seat's own seed: 32 bytes from the platform's cryptographic generator. */
export function newSeed() {
  return globalThis.crypto.getRandomValues(new Uint8Array(SEED_SIZE));
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(text) {
  if (!/^([0-9a-f]{2})*$/.test(text)) throw new Error(`not hexadecimal: ${text.slice(0, 20)}`);
  return new Uint8Array(text.match(/../g)?.map((h) => parseInt(h, 16)) ?? []);
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * A hand's check, as a seat makes it after the result (DEAL-9, DEAL-10): the revealed seed against the
 * commitment, the supplied seeds against the revealed seed, the seat's own seed among the seeds, and the cards
 * it was shown against the derived deck (`shown`: card codes by deck position, 255 for a card not shown).
 * Gives { ok, rule, reason, deck }.
 */
export async function checkHand({ number, committed, seeds, supplied, server, own = null, ownSeat = null, shown = null }) {
  if (!same(await commitment(server), committed)) {
    return { ok: false, rule: "DEAL-9", reason: "the revealed server seed does not match its commitment" };
  }
  for (const seat of supplied) {
    if (!same(await suppliedSeed(server, number, seat), seeds[seat])) {
      return { ok: false, rule: "DEAL-9", reason: `p${seat}'s supplied seed is not the one the server's seed gives` };
    }
  }
  if (own !== null && !same(seeds[ownSeat], own)) {
    return { ok: false, rule: "DEAL-5", reason: "the log does not hold the seed this seat sent" };
  }
  const deck = await dealCodes(server, seeds, number);
  if (shown !== null) {
    const wrong = Array.from(shown).findIndex((code, i) => code !== 255 && code !== deck[i]);
    if (wrong >= 0) return { ok: false, rule: "DEAL-10", reason: `position ${wrong} of the deal does not follow from the seeds`, deck };
  }
  return { ok: true, rule: "", reason: "the deal follows from the seeds", deck };
}
