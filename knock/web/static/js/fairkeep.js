// What a fair seat keeps (fairseat.js; spec/protocol.md PROTO-45 to PROTO-47): its state, in the browser's storage
// (localStorage, per table and seat) before anything goes out, so that a reload forgets nothing and reveals the seed
// it committed to (PROTO-45); and its evidence, every fair frame it received for the table and every message it sent,
// bounded, which it hands over once a check has failed (PROTO-47, ``evidence``).

/** The storage key's prefix: one entry per table and seat. */
export const STORAGE_PREFIX = "knock-fair/1";
/** The storage key of the evidence: the fair frames received and the messages sent at one table, the current one. */
export const EVIDENCE_KEY = `${STORAGE_PREFIX}:evidence`;
/** At most this many frames received (and as many messages sent) are kept; the oldest go first. */
export const EVIDENCE_LIMIT = 1000;
/** The frames kept as evidence, whole (a view's `fair` is kept apart from the rest of the view). */
const EVIDENCE_TYPES = new Set(["welcome", "fair_commit", "commit_taken", "fair_set", "seed_taken", "fair_reveal"]);

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

/** What one fair seat (a fairseat.js ``FairSeat``, passed to each method as ``seat``) keeps: its storage and its
 *  evidence. */
export class FairKeep {
  /** ``storage``: where the seat's state is kept (localStorage by default; null keeps nothing). */
  constructor(storage = undefined) {
    this.storage = storage === undefined ? defaultStorage() : storage;
    this.received = []; // the fair frames received for the table, in order (a view: its `fair` only)
    this.sentLog = []; // every message the seat asked to send for the table, in order
    this.dropped = 0; // frames and messages dropped from the two lists above, over EVIDENCE_LIMIT each
  }

  key(seat) {
    return `${STORAGE_PREFIX}:${seat.table}:${seat.seat === null ? "spectator" : seat.seat}`;
  }

  /** What an earlier page at the seat's table and seat kept, restored into ``seat``: the pinned commitments and
   *  sets, its seeds and commitments, the acknowledgements, the violations and the checks; and the evidence. */
  load(seat) {
    if (!this.storage || seat.table === null) return;
    let kept;
    try {
      kept = JSON.parse(this.storage.getItem(this.key(seat)) || "null");
    } catch {
      kept = null;
    }
    if (!kept || typeof kept !== "object") return;
    const restore = (into, what) => { for (const [n, v] of Object.entries(what || {})) into.set(Number(n), v); };
    restore(seat.pinned, kept.pinned);
    restore(seat.mine, kept.mine);
    restore(seat.commitAcked, kept.commitAcked);
    restore(seat.sets, kept.sets);
    restore(seat.sent, kept.sent);
    restore(seat.acked, kept.acked);
    restore(seat.violations, kept.violations);
    for (const [n, v] of seat.violations) if (typeof v === "string") seat.violations.set(n, { rule: "DEAL-9", reason: v });
    restore(seat.checks, kept.checks);
    if (Array.isArray(kept.drawn)) seat.drawn = kept.drawn;
    for (const n of kept.refused || []) seat.refused.add(Number(n));
    for (const n of kept.dealt || []) seat.dealt.add(Number(n));
    if (typeof kept.receiptsKey === "string") seat.receiptsKey = kept.receiptsKey;
    restore(seat.receipts, kept.receipts);
    restore(seat.statements, kept.statements);
    if (kept.tableBreach && typeof kept.tableBreach === "object") seat.tableBreach = kept.tableBreach;
    let evidence;
    try {
      evidence = JSON.parse(this.storage.getItem(EVIDENCE_KEY) || "null");
    } catch {
      evidence = null;
    }
    if (evidence && evidence.table === seat.table && evidence.seat === seat.seat) {
      this.received = Array.isArray(evidence.received) ? evidence.received : [];
      this.sentLog = Array.isArray(evidence.sent) ? evidence.sent : [];
      this.dropped = Number(evidence.dropped) || 0;
    }
  }

  /** Keep ``seat``'s state and the evidence, in place of what was kept before. */
  save(seat) {
    if (!this.storage || seat.table === null) return;
    const plain = (m) => Object.fromEntries(m);
    try {
      this.storage.setItem(this.key(seat), JSON.stringify({
        pinned: plain(seat.pinned), mine: plain(seat.mine), commitAcked: plain(seat.commitAcked), sets: plain(seat.sets),
        sent: plain(seat.sent), acked: plain(seat.acked), violations: plain(seat.violations), checks: plain(seat.checks),
        refused: [...seat.refused], dealt: [...seat.dealt], drawn: seat.drawn,
        receiptsKey: seat.receiptsKey, receipts: plain(seat.receipts), statements: plain(seat.statements),
        tableBreach: seat.tableBreach,
      }));
    } catch {
      // storage full or refused: what this page saw is still held in memory until it is closed
    }
    try { // the current table's evidence only: it takes the place of another table's
      this.storage.setItem(EVIDENCE_KEY, JSON.stringify({
        table: seat.table, seat: seat.seat, received: this.received, sent: this.sentLog, dropped: this.dropped,
      }));
    } catch {
      // as above: held in memory
    }
  }

  /** Keep a frame received (``sent`` false) or a message sent, for the evidence: bounded, the oldest dropped. */
  keep(m, sent = false) {
    const list = sent ? this.sentLog : this.received;
    if (sent) {
      list.push(m);
    } else if (m.type === "view") {
      if (!m.fair) return;
      const last = this.received.findLast((f) => f.type === "view");
      if (last && JSON.stringify(last.fair) === JSON.stringify(m.fair)) return; // the same fair as the view before
      list.push({ type: "view", record: m.record, fair: m.fair });
    } else if (EVIDENCE_TYPES.has(m.type) || (m.type === "error" && m.code === "bad_seed")) {
      list.push(m);
    } else {
      return;
    }
    while (list.length > EVIDENCE_LIMIT) { list.shift(); this.dropped += 1; }
  }

  /** The evidence of ``seat``'s failed check, for a third party: the table and seat, this browser's statement key,
   *  every fair frame the page received for the table (a view's `fair` alone), every message it sent, its
   *  commitments, the seeds it revealed and its statements, the server's receipts and receipts key, and the check
   *  that failed (null when none has). Plain JSON. */
  evidence(seat) {
    const failure = seat.failure();
    const byHand = (m, pick) => Object.fromEntries([...m].map(([n, v]) => [n, pick(v)]));
    return {
      format: "knock-fair-evidence/1",
      about: "What a Knock web page received from the server and sent to it at one fair table (spec/protocol.md, "
        + "PROTO-45 to PROTO-47), with the reason its fair check failed.",
      made: new Date().toISOString(),
      table: seat.table,
      seat: seat.seat,
      key: seat.signer ? seat.signer.publicKey : null,
      receipts_key: seat.receiptsKey ?? null,
      failed: failure && { hand: failure.hand, rule: failure.rule, reason: failure.reason },
      checks: Object.fromEntries(seat.checks),
      sent: {
        messages: this.sentLog,
        commitments: byHand(seat.mine, (v) => v.commitment),
        seeds: Object.fromEntries(seat.sent),
        statements: Object.fromEntries(seat.statements),
      },
      receipts: Object.fromEntries(seat.receipts),
      received: this.received,
      dropped: this.dropped,
    };
  }
}
