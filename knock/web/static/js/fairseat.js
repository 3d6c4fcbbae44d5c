// A seat at a fair table (spec/protocol.md, "Fair dealing (1.3)"): it sends its own seed when the server has
// committed to its seed (PROTO-36, PROTO-37), notes the cards it is shown, and after each hand's reveal (PROTO-39)
// recomputes the deck with fair.js and checks them (DEAL-9, DEAL-10). It computes nothing the seat was not
// shown: the deck is derived only once the server's seed is public.
import { checkHand, fromHex, newSeed, toHex } from "./fair.js";

const RANKS = "A23456789TJQK";
const SUITS = "cdhs";
/** A card's code, 0 .. 51, suit-major (CARD-1, the deal record's codes). */
export const cardCode = (text) => SUITS.indexOf(text[1]) * 13 + RANKS.indexOf(text[0]);
const MOVES = new Set(["upcard_taken", "drew_stock", "drew_discard", "discarded", "knocked"]);

export class FairSeat {
  /** ``seat``: this page's seat (null: a spectator, who sends nothing and checks the upcard only). */
  constructor(seat) {
    this.seat = seat;
    this.sent = new Map(); // hand -> the seed this page sent (hex), or null
    this.commits = new Map(); // hand -> the commitment this page was sent before the deal
    this.hands = new Map(); // hand -> what this seat was shown: dealt cards, upcard, stock draws by deck position
    this.checks = new Map(); // hand -> { ok, text }
    this.waiting = null; // the fair_commit of the hand whose seeds are gathered, until its deal
  }

  /** The server's commitment: remember it, and the seed message to send (null for a spectator). */
  commit(m) {
    this.commits.set(m.hand, m.commitment);
    this.waiting = m;
    if (this.seat === null || this.sent.has(m.hand)) return null;
    const seed = toHex(newSeed()); // Web Crypto: crypto.getRandomValues
    this.sent.set(m.hand, seed);
    return { type: "seed", hand: m.hand, seed };
  }

  /** What a view shows of the deal: the first hand's cards if this seat has not moved since the deal, the
   *  upcard, and each card it drew from the stock with its deck position (21 on, in the order of the draws). */
  view(m) {
    if (!m.fair) return;
    const n = m.fair.hand;
    if (this.waiting && this.waiting.hand <= n) this.waiting = null;
    if (!this.commits.has(n) && m.fair.server === null) this.commits.set(n, m.fair.commitment); // seen before the reveal
    let rec = this.hands.get(n);
    if (!rec) {
      rec = { dealt: null, dealer: m.view.dealer, upcard: m.view.upcard, draws: 0, pending: null, shown: new Map(), cards: [] };
      this.hands.set(n, rec);
    }
    const events = m.events;
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
    const rec = this.hands.get(m.hand) || { dealt: null, upcard: null, shown: new Map() };
    const committed = this.commits.get(m.hand);
    const sent = this.sent.get(m.hand);
    const result = await checkHand({
      number: m.hand, committed: fromHex(committed || m.commitment), seeds: m.seeds.map(fromHex),
      supplied: m.supplied, server: fromHex(m.server),
      own: sent && !m.supplied.includes(this.seat) ? fromHex(sent) : null, ownSeat: this.seat,
    });
    let check = result;
    if (result.ok && sent && m.supplied.includes(this.seat)) {
      check = { ok: true, note: "your seed came too late, so the server supplied it (DEAL-9)" };
    }
    if (result.ok) {
      const deck = result.deck;
      const problems = [];
      if (rec.dealt) { // DEAL-3: one at a time, the non-dealer first: his the even positions, the dealer's the odd
        const parity = rec.dealer === this.seat ? 1 : 0;
        const dealt = new Set(deck.slice(0, 20).filter((_, i) => i % 2 === parity));
        if (rec.dealt.length !== 10 || !rec.dealt.every((c) => dealt.has(cardCode(c)))) {
          problems.push("your ten cards are not the ones the seeds deal to your seat");
        }
      }
      if (rec.upcard && deck[20] !== cardCode(rec.upcard)) problems.push("the upcard is not the seeds' 21st card");
      for (const [position, code] of rec.shown) {
        if (deck[position] !== code) problems.push(`a card you drew (deck position ${position}) is not the seeds'`);
      }
      if (!committed) problems.push("this page was not sent the commitment before the reveal, so it cannot tell when it was made");
      if (problems.length) check = { ok: false, rule: "DEAL-10", reason: problems.join("; ") };
    }
    const what = this.seat === null ? "the upcard follows" : "your cards, the upcard and your draws follow";
    const text = check.ok
      ? `Deal checked, hand ${m.hand}: ${what} from the seeds, and the server's seed matches the commitment it sent before the seats' seeds${check.note ? ` (${check.note})` : ""}.`
      : `Deal check FAILED, hand ${m.hand} (${check.rule}): ${check.reason}.`;
    this.checks.set(m.hand, { ok: check.ok, text });
    return this.checks.get(m.hand);
  }
}
