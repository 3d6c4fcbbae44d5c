// A seat at a fair table (spec/protocol.md, "Fair dealing (1.3)"): it sends its own seed when the server has
// committed to its seed (PROTO-36, PROTO-37), notes the cards it is shown, and after each hand's reveal (PROTO-39)
// recomputes the deck with fair.js and checks them (DEAL-9, DEAL-10). It computes nothing the seat was not
// shown: the deck is derived only once the server's seed is public.
//
// It trusts the server for nothing it can check (the 1.3 hotfix of issue #57): the first commitment it is sent for
// a hand is pinned, and kept with the seed it sent and the server's acknowledgement in the browser's storage
// (localStorage, per table and seat), so that a reload forgets nothing; a second, different commitment for the
// same hand, a seed acknowledged and then listed as supplied, and a hand whose commitment this page did not pin
// before it sent its seed (opened or reloaded later, or its storage lost) all fail the hand's check.
import { checkHand, drawCodes, fromHex, newSeed, toHex } from "./fair.js";

const RANKS = "A23456789TJQK";
const SUITS = "cdhs";
/** A card's code, 0 .. 51, suit-major (CARD-1, the deal record's codes). */
export const cardCode = (text) => SUITS.indexOf(text[1]) * 13 + RANKS.indexOf(text[0]);
const MOVES = new Set(["upcard_taken", "drew_stock", "drew_discard", "discarded", "knocked"]);
/** The storage key's prefix: one entry per table and seat. */
export const STORAGE_PREFIX = "knock-fair/1";

/** The browser's localStorage where there is one and it works (a private window may refuse it), else null. */
function defaultStorage() {
  try {
    const s = globalThis.localStorage;
    if (!s) return null;
    s.setItem(`${STORAGE_PREFIX}:probe`, "1");
    s.removeItem(`${STORAGE_PREFIX}:probe`);
    return s;
  } catch {
    return null;
  }
}

export class FairSeat {
  /** ``seat``: this page's seat (null: a spectator, who sends nothing and checks the upcard only); ``table``: the
   *  table's id; ``storage``: where what it saw is kept (localStorage by default; null keeps nothing). */
  constructor(seat, { table = null, storage = undefined } = {}) {
    this.seat = seat;
    this.table = table;
    this.storage = storage === undefined ? defaultStorage() : storage;
    this.sent = new Map(); // hand -> the seed this page sent (hex)
    this.pinned = new Map(); // hand -> the first commitment this page was sent for it, before it sent a seed
    this.acked = new Map(); // hand -> the seed the server said it stored (seed_taken)
    this.refused = new Set(); // hands whose seed the server refused (bad_seed): a seed sent before, forgotten
    this.violations = new Map(); // hand -> what the server did that the rules forbid, seen before the reveal
    this.commits = new Map(); // hand -> a commitment seen in a view (after the deal: it proves no order)
    this.hands = new Map(); // hand -> what this seat was shown: dealt cards, upcard, stock draws by deck position
    this.checks = new Map(); // hand -> { ok, text }
    this.waiting = null; // the fair_commit of the hand whose seeds are gathered, until its deal
    this.drawn = null; // the draw for the deal: its cards' codes in order, from a view's \`draw\` (1.4)
    this.load();
  }

  key() {
    return `${STORAGE_PREFIX}:${this.table}:${this.seat === null ? "spectator" : this.seat}`;
  }

  /** What an earlier page at this table and seat kept: the pinned commitments, the seeds sent and acknowledged,
   *  the violations and the checks. */
  load() {
    if (!this.storage || this.table === null) return;
    let kept;
    try {
      kept = JSON.parse(this.storage.getItem(this.key()) || "null");
    } catch {
      kept = null;
    }
    if (!kept || typeof kept !== "object") return;
    const restore = (into, what) => { for (const [n, v] of Object.entries(what || {})) into.set(Number(n), v); };
    restore(this.pinned, kept.pinned);
    restore(this.sent, kept.sent);
    restore(this.acked, kept.acked);
    restore(this.violations, kept.violations);
    restore(this.checks, kept.checks);
    if (Array.isArray(kept.drawn)) this.drawn = kept.drawn;
    for (const n of kept.refused || []) this.refused.add(Number(n));
  }

  save() {
    if (!this.storage || this.table === null) return;
    const plain = (m) => Object.fromEntries(m);
    try {
      this.storage.setItem(this.key(), JSON.stringify({
        pinned: plain(this.pinned), sent: plain(this.sent), acked: plain(this.acked),
        violations: plain(this.violations), checks: plain(this.checks), refused: [...this.refused], drawn: this.drawn,
      }));
    } catch {
      // storage full or refused: what this page saw is still held in memory until it is closed
    }
  }

  fail(hand, reason) {
    if (!this.violations.has(hand)) this.violations.set(hand, reason);
    this.checks.set(hand, { ok: false, text: `Deal check FAILED, hand ${hand} (DEAL-9): ${reason}.` });
    this.save();
  }

  /** The server's commitment: pin the first for each hand, and the seed message to send (null for a spectator,
   *  for a hand this page has sent a seed for, and for a commitment that differs from the one pinned). */
  commit(m) {
    if (m.table && this.table === null) { this.table = m.table; this.load(); }
    const pinned = this.pinned.get(m.hand);
    if (pinned !== undefined && pinned !== m.commitment) {
      this.fail(m.hand, `the server sent a second, different commitment for this hand (${m.commitment.slice(0, 16)}… `
        + `after ${pinned.slice(0, 16)}…): a server that may change its commitment can choose the deck`);
      return null;
    }
    if (pinned === undefined) {
      if (this.sent.has(m.hand)) { // a seed sent, but no commitment pinned for it: cannot happen unless tampered
        this.fail(m.hand, "this page sent its seed without a pinned commitment");
        return null;
      }
      this.pinned.set(m.hand, m.commitment);
    }
    this.waiting = m;
    if (this.seat === null || this.sent.has(m.hand)) { this.save(); return null; }
    const seed = toHex(newSeed()); // Web Crypto: crypto.getRandomValues
    this.sent.set(m.hand, seed);
    this.save(); // kept before it is sent: a reload cannot lose it
    return { type: "seed", hand: m.hand, seed };
  }

  /** The server's acknowledgement of this page's seed (PROTO-37): kept, to hold the server to it. */
  seedTaken(m) {
    if (m.seat !== this.seat) return;
    this.acked.set(m.hand, m.seed);
    if (this.sent.has(m.hand) && this.sent.get(m.hand) !== m.seed) {
      this.fail(m.hand, "the server acknowledged a seed this page did not send");
    }
    this.save();
  }

  /** A seed refused (``bad_seed``, PROTO-38) while this page waited: it had sent one before that it has lost. */
  seedRefused() {
    if (this.waiting && this.sent.has(this.waiting.hand)) {
      this.refused.add(this.waiting.hand);
      this.save();
    }
  }

  /** What a view shows of the deal: the first hand's cards if this seat has not moved since the deal, the
   *  upcard, and each card it drew from the stock with its deck position (21 on, in the order of the draws). */
  view(m) {
    if (!m.fair) return;
    const n = m.fair.hand;
    if (this.waiting && this.waiting.hand <= n) this.waiting = null;
    if (!this.commits.has(n)) this.commits.set(n, m.fair.commitment); // seen after the deal: proves no order
    const pinned = this.pinned.get(n);
    if (pinned !== undefined && pinned !== m.fair.commitment) {
      this.fail(n, "a view shows another commitment than the one the server sent before the seeds");
    }
    let rec = this.hands.get(n);
    if (!rec) {
      rec = { dealt: null, dealer: m.view.dealer, upcard: m.view.upcard, draws: 0, pending: null, shown: new Map(), cards: [] };
      this.hands.set(n, rec);
    }
    const events = m.events;
    if (this.drawn === null && Array.isArray(m.draw) && m.draw.length) { // the draw for the deal (1.4, PROTO-39)
      this.drawn = m.draw.flatMap((round) => round.cards.map(cardCode));
      this.save();
    }
    if (events.length && events[0].kind === "hand_started") { rec.draws = 0; rec.pending = null; }
    const dealtAt = events.findIndex((e) => e.kind === "dealt");
    const mine = (e) => e.seat === this.seat && MOVES.has(e.kind);
    if (dealtAt >= 0 && rec.dealt === null && this.seat !== null && m.view.seats.includes(this.seat)
      && !events.slice(dealtAt + 1).some(mine)) {
      rec.dealt = [...m.view.cards];
    }
    for (const e of events) {
      if (e.kind === "drew_stock" || e.kind === "hidden_draw") {
        const position = 21 + rec.draws;
        rec.draws += 1;
        if (e.kind === "drew_stock" && e.seat === this.seat) rec.pending = position;
      }
    }
    if (rec.pending !== null) {
      const gained = m.view.cards.filter((c) => !rec.cards.includes(c));
      if (gained.length === 1) rec.shown.set(rec.pending, cardCode(gained[0]));
      rec.pending = null;
    }
    rec.cards = [...m.view.cards];
  }

  /** The reveal: recompute the hand's deck from the seeds and check everything this seat was shown. */
  async reveal(m) {
    if (this.violations.has(m.hand)) { // what the server did before the reveal decides the check
      this.fail(m.hand, this.violations.get(m.hand));
      return this.checks.get(m.hand);
    }
    const rec = this.hands.get(m.hand) || { dealt: null, upcard: null, shown: new Map() };
    const pinned = this.pinned.get(m.hand);
    const sent = this.sent.get(m.hand);
    const supplied = m.supplied.includes(this.seat);
    const result = await checkHand({
      number: m.hand, committed: fromHex(pinned || m.commitment), seeds: m.seeds.map(fromHex),
      supplied: m.supplied, server: fromHex(m.server),
      own: sent && !supplied && !this.refused.has(m.hand) ? fromHex(sent) : null, ownSeat: this.seat,
    });
    let check = result;
    if (result.ok && sent && supplied && !this.acked.has(m.hand)) {
      check = { ok: true, note: "your seed came too late, so the server supplied it (DEAL-9)" };
    }
    if (result.ok) {
      const deck = result.deck;
      const problems = [];
      if (pinned === undefined) {
        problems.push("this page did not see the server's commitment before the seats' seeds (it was opened or "
          + "reloaded after them, or lost what it kept), so it cannot tell that the commitment came first");
      } else if (pinned !== m.commitment) {
        problems.push("the reveal names another commitment than the one the server sent before the seeds");
      }
      if (this.acked.has(m.hand) && supplied) {
        problems.push("the server acknowledged your seed and then dealt from a seed it supplied for your seat");
      }
      if (this.refused.has(m.hand)) {
        problems.push("the server refused this page's seed as a second one: a seed sent before was lost by this page, "
          + "so it cannot check which seed the deal used");
      }
      if (rec.dealt) { // DEAL-3: one at a time, the non-dealer first: his the even positions, the dealer's the odd
        const parity = rec.dealer === this.seat ? 1 : 0;
        const dealt = new Set(deck.slice(0, 20).filter((_, i) => i % 2 === parity));
        if (rec.dealt.length !== 10 || !rec.dealt.every((c) => dealt.has(cardCode(c)))) {
          problems.push("your ten cards are not the ones the seeds deal to your seat");
        }
      }
      if (rec.upcard && deck[20] !== cardCode(rec.upcard)) problems.push("the upcard is not the seeds' 21st card");
      if (m.hand === 1 && this.drawn) { // the draw for the deal comes from the first hand's seeds (DEAL-8, DEAL-10)
        const draw = await drawCodes(fromHex(m.server), m.seeds.map(fromHex), 0);
        if (this.drawn.some((code, i) => draw[i] !== code)) problems.push("the draw for the deal is not the one the first hand's seeds give");
      }
      for (const [position, code] of rec.shown) {
        if (deck[position] !== code) problems.push(`a card you drew (deck position ${position}) is not the seeds'`);
      }
      const order = pinned === undefined || pinned !== m.commitment || (this.acked.has(m.hand) && supplied);
      if (problems.length) check = { ok: false, rule: order ? "DEAL-9" : this.refused.has(m.hand) ? "DEAL-5" : "DEAL-10", reason: problems.join("; ") };
    }
    const drew = m.hand === 1 && this.drawn ? ", the draw for the deal" : "";
    const what = this.seat === null ? `the upcard${drew} follows` : `your cards, the upcard${drew} and your draws follow`;
    const text = check.ok
      ? `Deal checked, hand ${m.hand}: ${what} from the seeds, and the server's seed matches the commitment it sent before the seats' seeds${check.note ? ` (${check.note})` : ""}.`
      : `Deal check FAILED, hand ${m.hand} (${check.rule}): ${check.reason}.`;
    this.checks.set(m.hand, { ok: check.ok, text });
    this.save();
    return this.checks.get(m.hand);
  }
}
