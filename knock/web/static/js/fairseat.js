// A seat at a fair table (spec/protocol.md, "Fair dealing (1.3)" and PROTO-45): every party commits before any
// seed is seen (DEAL-11). When the server has committed to its seed (`fair_commit`, PROTO-36) this page makes a
// seed of its own and sends only its commitment (`commit`); when the server has sent every party's commitment
// (`fair_set`) and the set checks out (fairset.js), it reveals the seed (`seed`, with the set's hash). It notes the
// cards it is shown, and after each hand's reveal (PROTO-39) recomputes the deck with fair.js and checks them
// (DEAL-9, DEAL-10) and every seat's seed against the set (DEAL-11). It computes nothing the seat was not shown:
// the deck is derived only once the server's seed is public.
//
// It trusts the server for nothing it can check: the first commitment and the first set it is sent for a hand are
// pinned, and kept with its seed, its commitment and the server's acknowledgements before anything goes out
// (fairkeep.js), so that a reload forgets nothing and reveals the seed it committed to. A second, different
// commitment or set for a hand, a set without this page's commitment, a seed that is not the one its seat committed
// to, a seed acknowledged and then listed as supplied, a hand dealt twice, and a hand whose commitments this page
// did not pin before the seeds (opened or reloaded later, or its storage lost) all fail the hand's check; for a hand
// failed before its seeds, this page sends no seed.
//
// Protocol 1.4 adds statements and receipts (DEAL-12, PROTO-47, fairsign.js): the page signs each seed it reveals
// with this browser's statement key (none where the browser cannot keep one: its reveals are then unsigned), and
// checks the server's receipt of every commitment and seed it took with the key the server named at the first
// `welcome` for the table, pinned like a commitment: a receipt missing or not verifying, and another key in a later
// `welcome`, fail the hand's check. Once any check has failed the page takes no further part at the table (no
// commitment, no seed; the table page offers no moves), and hands over what it kept as evidence (``evidence()``).
import { checkHand, drawCodes, fromHex, newSeed, seatCommitment, toHex } from "./fair.js";
import { FairKeep } from "./fairkeep.js";
import { sameSet, seedsProblem, setProblem } from "./fairset.js";
import { commitReceiptMessage, receiptProblem, receiptsKeyProblem, seedReceiptMessage, statement } from "./fairsign.js";

const RANKS = "A23456789TJQK";
const SUITS = "cdhs";
/** A card's code, 0 .. 51, suit-major (CARD-1, the deal record's codes). */
export const cardCode = (text) => SUITS.indexOf(text[1]) * 13 + RANKS.indexOf(text[0]);
const MOVES = new Set(["upcard_taken", "drew_stock", "drew_discard", "discarded", "knocked"]);
const short = (text) => `${String(text).slice(0, 16)}…`;
const HEX64 = /^[0-9a-f]{64}$/;

export class FairSeat {
  /** ``seat``: this page's seat (null: a spectator, who sends nothing and checks the upcard only); ``table``: the
   *  table's id; ``storage``: where what it saw is kept (localStorage by default; null keeps nothing); ``signer``:
   *  this browser's statement key (fairsign.js ``statementKey``: the one its `hello` named), or null to reveal
   *  unsigned. */
  constructor(seat, { table = null, storage = undefined, signer = null } = {}) {
    this.seat = seat;
    this.table = table;
    this.kept = new FairKeep(storage); // its storage and its evidence (fairkeep.js)
    this.signer = signer;
    this.pinned = new Map(); // hand -> the first server commitment this page was sent for it, before any seed
    this.mine = new Map(); // hand -> { seed, commitment }: the seed this page made and its commitment (DEAL-11)
    this.commitAcked = new Map(); // hand -> the commitment the server said it stored (commit_taken)
    this.sets = new Map(); // hand -> the first commitment set this page was sent for it: { commitment, commitments, set }
    this.sent = new Map(); // hand -> the seed this page revealed (hex)
    this.acked = new Map(); // hand -> the seed the server said it stored (seed_taken)
    this.refused = new Set(); // hands whose commitment the server refused (bad_seed): one sent before, forgotten
    this.dealt = new Set(); // hands this page has seen dealt: their seeds are never gathered again
    this.violations = new Map(); // hand -> { rule, reason }: what the server did that the rules forbid, before the reveal
    this.hands = new Map(); // hand -> what this seat was shown: dealt cards, upcard, stock draws by deck position
    this.seen = new Map(); // hand -> the seeds a view showed, once checked against the set
    this.checks = new Map(); // hand -> { ok, text, rule, reason }
    this.receiptsKey = undefined; // the key the server named for its receipts at the first welcome (PROTO-47)
    this.receipts = new Map(); // hand -> { commit: { commitment, receipt }, seed: { seed, receipt } }: as received
    this.statements = new Map(); // hand -> { key, statement }: what this page signed when it revealed (DEAL-12)
    this.tableBreach = null; // { rule, reason }: a breach of the table's, not of one hand's (another receipts key)
    this.waiting = null; // { hand, commitment, set }: the hand whose seeds are gathered, until its deal
    this.drawn = null; // the draw for the deal: its cards' codes in order, from a view's \`draw\` (1.4)
    this.last = null; // { type, hand }: the last message this page asked to send, for a refusal's meaning
    this.queue = Promise.resolve(); // frames are handled one after another, in the order they came
    this.kept.load(this); // what an earlier page at this table and seat kept
  }

  /** Keep what this page holds now (fairkeep.js). */
  save() {
    this.kept.save(this);
  }

  /** The hand's check fails: the first breach seen for it is the one it names. */
  fail(hand, reason, rule = "DEAL-9") {
    if (!this.violations.has(hand)) this.violations.set(hand, { rule, reason });
    const first = this.violations.get(hand);
    const text = `Deal check FAILED, hand ${hand} (${first.rule}): ${first.reason}.`;
    if (this.checks.get(hand)?.text !== text) this.checks.set(hand, { ok: false, text, ...first });
    this.save();
  }

  /** A breach of the table's (PROTO-47: another key for the receipts): the hand in progress fails with it — the
   *  hand whose seeds are gathered or the last one dealt, unless its check has passed — and else the next hand. */
  breachTable(reason, rule = "PROTO-47") {
    if (!this.tableBreach) this.tableBreach = { rule, reason };
    const known = [...this.pinned.keys(), ...this.sets.keys(), ...this.dealt, ...this.checks.keys()];
    const n = this.waiting ? this.waiting.hand : known.length ? Math.max(...known) : null;
    if (n !== null && !this.checks.get(n)?.ok) this.fail(n, reason, rule);
    this.save();
  }

  /** What stops this page at the table: the first hand whose check failed ``{ hand, rule, reason, text }``, else a
   *  breach of the table's not yet tied to a hand (``hand`` null), else null. */
  failure() {
    const failed = [...this.checks].filter(([, c]) => !c.ok).sort(([a], [b]) => a - b);
    if (failed.length) {
      const [hand, c] = failed[0];
      const v = this.violations.get(hand);
      return { hand, rule: c.rule ?? v?.rule ?? null, reason: c.reason ?? v?.reason ?? c.text, text: c.text };
    }
    if (this.tableBreach) {
      const { rule, reason } = this.tableBreach;
      return { hand: null, rule, reason, text: `Fair check FAILED (${rule}): ${reason}.` };
    }
    return null;
  }

  /** Whether this page signs its reveals, in plain words (null for a spectator, who reveals nothing). */
  signing() {
    if (this.seat === null) return null;
    return this.signer
      ? `Your browser signs each seed it reveals with its own key (${short(this.signer.publicKey)}), so that it can show `
        + "which commitments it had seen."
      : "Your browser has no key to sign with here (its storage or its Web Crypto cannot keep one), so its reveals are "
        + "unsigned.";
  }

  /** A frame from the server, handled after those before it: gives ``send``, the message this page answers with
   *  (or null), and ``said``, the hand's check in words when this frame changed it (or null). */
  receive(m) {
    const run = this.queue.then(async () => {
      const hand = m.type === "view" ? m.fair?.hand : m.type === "error" ? this.last?.hand : m.hand;
      const before = new Map(this.checks);
      this.kept.keep(m);
      let send = null;
      try {
        send = await this.handle(m);
      } catch (error) { // a frame this page cannot read (not hex, not the shape the protocol gives)
        if (Number.isInteger(hand)) this.fail(hand, `the server sent a ${m.type} this page cannot read (${error.message})`);
      }
      if (send) this.kept.keep(send, true);
      this.save();
      const changed = [...this.checks].filter(([n, c]) => before.get(n) !== c).map(([, c]) => c.text);
      return { send, said: changed.length ? changed.join(" ") : null };
    });
    this.queue = run.catch(() => {});
    return run;
  }

  async handle(m) {
    switch (m.type) {
      case "welcome": this.welcome(m); return null;
      case "fair_commit": return this.commit(m);
      case "commit_taken": await this.commitTaken(m); return null;
      case "fair_set": return this.commitmentSet(m);
      case "seed_taken": await this.seedTaken(m); return null;
      case "view": await this.view(m); return null;
      case "fair_reveal": await this.reveal(m); return null;
      case "error": if (m.code === "bad_seed") this.refusedLast(); return null;
      default: return null;
    }
  }

  learnTable(m) {
    if (m.table && this.table === null) { this.table = m.table; this.kept.load(this); }
  }

  /** `welcome` (PROTO-47): the key the server signs its receipts with, pinned at the first welcome for the table; a
   *  fair table's welcome without one, or a later welcome naming another, is a breach (receipts by a key that may
   *  change prove nothing). */
  welcome(m) {
    this.learnTable(m);
    if (!m.fair) return;
    const problem = receiptsKeyProblem(this.receiptsKey, m.receipts);
    if (problem) this.breachTable(problem);
    else if (this.receiptsKey === undefined) this.receiptsKey = m.receipts;
  }

  /** Whether this page takes no further part at the table: a check failed, or the table's receipts key changed. */
  stopped() {
    return this.failure() !== null;
  }

  /** The server's commitment (PROTO-36): pin the first for each hand, and answer with this page's commitment to a
   *  seed of its own, made and kept before it goes out (PROTO-45). Null for a spectator, for a hand whose set
   *  this page already holds, and for a commitment that differs from the one pinned or comes for a hand dealt. */
  async commit(m) {
    this.learnTable(m);
    const n = m.hand;
    if (this.dealt.has(n)) {
      this.fail(n, `the server gathered seeds for hand ${n} again after dealing it: each hand number is dealt once, `
        + "and a server that may deal a hand again can choose among its decks", "DEAL-11");
      return null;
    }
    const pinned = this.pinned.get(n);
    if (pinned !== undefined && pinned !== m.commitment) {
      this.fail(n, `the server sent a second, different commitment for this hand (${short(m.commitment)} after `
        + `${short(pinned)}): a server that may change its commitment can choose the deck`);
      return null;
    }
    if (pinned === undefined) {
      if (this.mine.has(n) || this.sent.has(n)) { // a seed made, but no commitment pinned for it: only if tampered
        this.fail(n, "this page made its seed without a pinned commitment");
        return null;
      }
      this.pinned.set(n, m.commitment);
    }
    this.waiting = { hand: n, commitment: m.commitment, set: null };
    if (this.tableBreach && !this.checks.get(n)?.ok) this.fail(n, this.tableBreach.reason, this.tableBreach.rule);
    if (this.seat === null || this.sets.has(n) || this.stopped()) { this.save(); return null; }
    let mine = this.mine.get(n);
    if (!mine) {
      const seed = newSeed(); // Web Crypto: crypto.getRandomValues
      mine = { seed: toHex(seed), commitment: toHex(await seatCommitment(fromHex(m.commitment), n, this.seat, seed)) };
      this.mine.set(n, mine);
    }
    this.save(); // kept before it is sent: a reload cannot lose it
    this.last = { type: "commit", hand: n };
    return { type: "commit", hand: n, commitment: mine.commitment };
  }

  /** The server's acknowledgement of this page's commitment (PROTO-45) and its receipt (PROTO-47): kept, to hold
   *  the server to it; the receipt checked. */
  async commitTaken(m) {
    if (m.seat !== this.seat) return;
    const n = m.hand;
    this.commitAcked.set(n, m.commitment);
    this.receipts.set(n, { ...this.receipts.get(n), commit: { commitment: m.commitment, receipt: m.receipt ?? null } });
    this.save();
    const mine = this.mine.get(n);
    if (mine && mine.commitment !== m.commitment) {
      this.fail(n, "the server acknowledged a commitment this page did not send", "DEAL-11");
    }
    if (m.commitment === null) return; // a null commitment has no receipt (this page never sends one)
    const pinned = this.pinned.get(n);
    const message = pinned === undefined || !HEX64.test(m.commitment) ? null
      : commitReceiptMessage(fromHex(pinned), n, this.seat, fromHex(m.commitment));
    const problem = await receiptProblem(this.receiptsKey, m.receipt, message, "commitment");
    if (problem) this.fail(n, problem, "PROTO-47");
  }

  /** The commitment set (PROTO-45): the first for each hand is pinned and checked — the server's commitment the
   *  one pinned, this page's own at its seat, the hash — and only then is this page's seed revealed, with the
   *  set's hash. The same set again (after a reload or a hello) reveals the same seed again, unless it was taken. */
  async commitmentSet(m) {
    this.learnTable(m);
    const n = m.hand;
    const kept = this.sets.get(n);
    if (kept) {
      if (!Array.isArray(m.commitments) || !sameSet(kept, m)) {
        this.fail(n, `the server sent a second, different commitment set for this hand (${short(m.set)} after `
          + `${short(kept.set)}): a server that may change the set can let a seat choose its seed last`, "DEAL-11");
        return null;
      }
      if (this.dealt.has(n)) return null;
    } else {
      const problem = await setProblem(m, this.pinned.get(n));
      if (problem) {
        this.fail(n, problem, "DEAL-11");
        return null;
      }
      if (this.dealt.has(n)) {
        this.fail(n, `the server sent a commitment set for hand ${n} after dealing it: each hand number is dealt once`,
          "DEAL-11");
        return null;
      }
      this.sets.set(n, { commitment: m.commitment, commitments: [...m.commitments], set: m.set });
      if (!this.pinned.has(n)) this.pinned.set(n, m.commitment); // seen before any seed: it fixes the commitment too
    }
    this.waiting = { hand: n, commitment: m.commitment, set: m.set };
    if (this.seat === null || this.stopped()) { this.save(); return null; }
    const mine = this.mine.get(n);
    const listed = m.commitments[this.seat];
    if (mine && listed !== mine.commitment) {
      const at = listed === undefined ? "holds no commitment for your seat" : "holds another commitment for your seat "
        + `(${short(listed)}) than the one this page sent (${short(mine.commitment)})`;
      if (this.refused.has(n)) {
        this.fail(n, `this page lost the commitment it sent before (the server refused its new one as a second one), `
          + "so it cannot reveal the seed the set holds for your seat, nor check this hand", "DEAL-5");
      } else if (this.commitAcked.get(n) === mine.commitment) {
        this.fail(n, `the commitment set ${at}, though the server acknowledged it: a server that may replace a seat's `
          + "commitment can choose that seat's seed", "DEAL-11");
      } else {
        this.fail(n, `the commitment set ${at}, and the server never acknowledged this page's: it came too late or was `
          + "dropped, so your seat's seed is one the server may know in advance, and this page cannot tell that the "
          + "deal was not chosen", "DEAL-11");
      }
      return null;
    }
    this.refused.delete(n); // the set holds this page's commitment: a refusal was only of the same one again
    if (!mine || this.acked.has(n)) { this.save(); return null; }
    const reveal = { type: "seed", hand: n, seed: mine.seed, set: m.set };
    if (this.signer) { // DEAL-12: what this seat saw, in its own words; its hello named the key
      const signed = await statement(this.signer, m.set, this.seat, mine.seed);
      this.statements.set(n, { key: this.signer.publicKey, statement: signed });
      reveal.statement = signed;
    }
    this.sent.set(n, mine.seed);
    this.save();
    this.last = { type: "seed", hand: n };
    return reveal;
  }

  /** The server's acknowledgement of this page's seed (PROTO-37) and its receipt (PROTO-47): kept, to hold the
   *  server to it; the receipt checked. */
  async seedTaken(m) {
    if (m.seat !== this.seat) return;
    const n = m.hand;
    this.acked.set(n, m.seed);
    this.receipts.set(n, { ...this.receipts.get(n), seed: { seed: m.seed, receipt: m.receipt ?? null } });
    this.save();
    if (this.sent.has(n) && this.sent.get(n) !== m.seed) {
      this.fail(n, "the server acknowledged a seed this page did not send");
    }
    const set = this.sets.get(n);
    const message = !set || typeof m.seed !== "string" || !HEX64.test(m.seed) ? null
      : seedReceiptMessage(fromHex(set.set), this.seat, fromHex(m.seed));
    const problem = await receiptProblem(this.receiptsKey, m.receipt, message, "seed");
    if (problem) this.fail(n, problem, "PROTO-47");
  }

  /** A refusal (``bad_seed``, PROTO-38) of this page's commitment, never acknowledged nor in the hand's set: the
   *  server holds another from this seat, one this page sent before and lost. (The same commitment sent again once
   *  the commitments are in is refused too, and changes nothing.) A refused seed changes nothing: the checks decide. */
  refusedLast() {
    const last = this.last;
    const mine = last && this.mine.get(last.hand);
    const listed = last && this.sets.get(last.hand)?.commitments[this.seat];
    if (last && last.type === "commit" && !this.commitAcked.has(last.hand) && !(mine && listed === mine.commitment)) {
      this.refused.add(last.hand);
      this.save();
    }
  }

  /** What a view shows of the deal: the seeds, checked against the pinned set at once (DEAL-11); the first hand's
   *  cards if this seat has not moved since the deal, the upcard, and each card it drew from the stock with its
   *  deck position (21 on, in the order of the draws). */
  async view(m) {
    if (!m.fair) return;
    const n = m.fair.hand;
    if (this.waiting && this.waiting.hand <= n) this.waiting = null;
    if (!this.dealt.has(n)) { this.dealt.add(n); this.save(); }
    const pinned = this.pinned.get(n);
    if (pinned !== undefined && pinned !== m.fair.commitment) {
      this.fail(n, "a view shows another commitment than the one the server sent before the seeds");
    }
    await this.viewSeeds(n, m.fair.seeds, m.fair.supplied);
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
    if (dealtAt >= 0 && this.seat !== null && m.view.seats.includes(this.seat) && !events.slice(dealtAt + 1).some(mine)) {
      const cards = [...m.view.cards];
      if (rec.dealt === null) {
        rec.dealt = cards;
      } else if (cards.length !== rec.dealt.length || !cards.every((c) => rec.dealt.includes(c))) {
        this.fail(n, "a view shows other cards dealt to your seat than an earlier view of this hand: a hand dealt again "
          + "can be chosen among its deals", "DEAL-10");
      }
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

  /** A dealt hand's seeds, each set of them once: every seat's against the pinned set, this page's the one it sent. */
  async viewSeeds(n, seeds, supplied) {
    if (!Array.isArray(seeds)) return;
    const key = seeds.join(" ");
    if (this.seen.get(n) === key) return;
    this.seen.set(n, key);
    const sent = this.sent.get(n);
    if (sent !== undefined && seeds[this.seat] !== sent) {
      if (this.acked.has(n) && (supplied || []).includes(this.seat)) {
        this.fail(n, "the server acknowledged your seed and then dealt from a seed it supplied for your seat");
      } else {
        this.fail(n, "the deal does not use the seed this page revealed", this.acked.has(n) ? "DEAL-9" : "DEAL-5");
      }
    }
    const set = this.sets.get(n);
    const problem = set ? await seedsProblem(set, n, seeds, this.seat) : null;
    if (problem) this.fail(n, problem, "DEAL-11");
  }

  /** The hand whose seeds are gathered, in plain words (null when none is). */
  stage() {
    const w = this.waiting;
    if (!w) return null;
    const head = `Hand ${w.hand}: the server has committed to its seed (${short(w.commitment)})`;
    if (this.violations.has(w.hand)) return `${head}; this page sends no seed for it, as its check failed.`;
    if (this.seat !== null && this.stopped()) {
      return `${head}; this page sends nothing more at this table, as a check failed.`;
    }
    const player = this.seat !== null;
    if (!w.set) {
      return `${head}; ${player && this.mine.has(w.hand) ? "your browser has committed to a seed of its own, and the "
        + "other seats commit to theirs" : "the seats commit to their seeds"}.`;
    }
    return `${head}, and every seat to its own (set ${short(w.set)}); ${player && this.sent.has(w.hand)
      ? "your browser has revealed its seed; the deal follows" : "the seats reveal their seeds"}.`;
  }

  /** The reveal: recompute the hand's deck from the seeds and check everything this seat was shown. */
  async reveal(m) {
    if (!this.dealt.has(m.hand)) this.dealt.add(m.hand);
    if (this.waiting && this.waiting.hand <= m.hand) this.waiting = null;
    if (this.violations.has(m.hand)) { // what the server did before the reveal decides the check
      const { reason, rule } = this.violations.get(m.hand);
      this.fail(m.hand, reason, rule);
      return this.checks.get(m.hand);
    }
    const rec = this.hands.get(m.hand) || { dealt: null, upcard: null, shown: new Map() };
    const pinned = this.pinned.get(m.hand);
    const set = this.sets.get(m.hand);
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
      const problems = []; // [rule, words]
      if (pinned === undefined) {
        problems.push(["DEAL-9", "this page did not see the server's commitment before the seats' seeds (it was "
          + "opened or reloaded after them, or lost what it kept), so it cannot tell that the commitment came first"]);
      } else if (pinned !== m.commitment) {
        problems.push(["DEAL-9", "the reveal names another commitment than the one the server sent before the seeds"]);
      }
      if (!set) {
        problems.push(["DEAL-11", "this page did not see the hand's commitment set before the seeds were revealed (it "
          + "was opened or reloaded after them, or lost what it kept), so it cannot tell that every party committed "
          + "before any seed was seen"]);
      } else {
        const wrong = await seedsProblem(set, m.hand, m.seeds, this.seat);
        if (wrong) problems.push(["DEAL-11", wrong]);
      }
      if (this.acked.has(m.hand) && supplied) {
        problems.push(["DEAL-9", "the server acknowledged your seed and then dealt from a seed it supplied for your seat"]);
      }
      if (this.refused.has(m.hand)) {
        problems.push(["DEAL-5", "the server refused this page's commitment as a second one: one sent before was lost "
          + "by this page, so it cannot check which seed the deal used"]);
      }
      if (rec.dealt) { // DEAL-3: one at a time, the non-dealer first: his the even positions, the dealer's the odd
        const parity = rec.dealer === this.seat ? 1 : 0;
        const dealt = new Set(deck.slice(0, 20).filter((_, i) => i % 2 === parity));
        if (rec.dealt.length !== 10 || !rec.dealt.every((c) => dealt.has(cardCode(c)))) {
          problems.push(["DEAL-10", "your ten cards are not the ones the seeds deal to your seat"]);
        }
      }
      if (rec.upcard && deck[20] !== cardCode(rec.upcard)) problems.push(["DEAL-10", "the upcard is not the seeds' 21st card"]);
      if (m.hand === 1 && this.drawn) { // the draw for the deal comes from the first hand's seeds (DEAL-8, DEAL-10)
        const draw = await drawCodes(fromHex(m.server), m.seeds.map(fromHex), 0);
        if (this.drawn.some((code, i) => draw[i] !== code)) {
          problems.push(["DEAL-10", "the draw for the deal is not the one the first hand's seeds give"]);
        }
      }
      for (const [position, code] of rec.shown) {
        if (deck[position] !== code) problems.push(["DEAL-10", `a card you drew (deck position ${position}) is not the seeds'`]);
      }
      if (problems.length) {
        const rules = [...new Set(problems.map(([rule]) => rule))].join(", ");
        check = { ok: false, rule: rules, reason: problems.map(([, words]) => words).join("; ") };
      }
    }
    const drew = m.hand === 1 && this.drawn ? ", the draw for the deal" : "";
    const what = this.seat === null ? `the upcard${drew} follows` : `your cards, the upcard${drew} and your draws follow`;
    const text = check.ok
      ? `Deal checked, hand ${m.hand}: ${what} from the seeds, every seat's seed is the one it committed to before any `
        + "seed was revealed, and the server's seed matches the commitment it sent before the seats' seeds"
        + `${check.note ? ` (${check.note})` : ""}.`
      : `Deal check FAILED, hand ${m.hand} (${check.rule}): ${check.reason}.`;
    this.checks.set(m.hand, check.ok ? { ok: true, text } : { ok: false, text, rule: check.rule, reason: check.reason });
    this.save();
    return this.checks.get(m.hand);
  }

  /** The evidence of a failed check, for a third party (fairkeep.js): every fair frame this page received for the
   *  table and every message it sent, with what it kept and the check that failed. Plain JSON. */
  evidence() {
    return this.kept.evidence(this);
  }
}
