// The page's own fair-dealing code (knock/web/static/js/fairseat.js, fairsign.js) driven by a server's frames that
// tests/web/test_fair_page.py forges with engine/fairdeal.py: Node runs the page's modules, feeds them each
// scenario's frames in order and prints one JSON object, for each scenario what the page answered to each step and
// how it checked each hand. The page's seeds come from crypto.getRandomValues, which answers here with the
// scenario's ``randoms`` (so the Python side knows them) and from the platform once those are used up. Its statement
// key is the page's own (fairsign.js ``statementKey``), kept in an in-memory store in place of IndexedDB: made once
// per scenario (a browser profile) and found again after a reload.
//
// stdin: {"scenarios": {name: {"seat": 0 | null, "table": id, "storage": true | false, "key": true | false,
//   "welcome": frame | null (sent first, and again after each reload, as a server answers each hello),
//   "randoms": [hex],
//   "steps": [{"frame": frame} | {"frames": [frame, ...]} (handed over together, none awaited before the next)
//             | {"reload": "kept" | "lost"} (a new page at the same seat, with the same storage or an empty one;
//                with "welcome": the frame its hello is answered with in place of the scenario's, and "table": the
//                table it opens, in place of the scenario's)]}}}
// stdout: {name: {"steps": [{"send", "said"} | [{"send", "said"}, ...] | null], "checks": {hand: {ok, text, ...}},
//   "stage": the page's words for the hand whose seeds are gathered, "signing": its words on its statements,
//   "keys": the public key of each page made (null: none), "failure": what stops the page at the table (or null),
//   "evidence": what its "Download the evidence" gives, "welcomes": what the page said on each welcome}}
import { FairSeat } from "../../knock/web/static/js/fairseat.js";
import { fromHex } from "../../knock/web/static/js/fair.js";
import { MemoryStore, statementKey } from "../../knock/web/static/js/fairsign.js";

/** A stand-in for the browser's localStorage (what a reload keeps). */
class Storage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

const randoms = [];
const platform = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
globalThis.crypto.getRandomValues = (bytes) => {
  if (!randoms.length) return platform(bytes);
  const next = fromHex(randoms.shift());
  if (next.length !== bytes.length) throw new Error(`asked for ${bytes.length} random bytes, given ${next.length}`);
  bytes.set(next);
  return bytes;
};

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { scenarios } = JSON.parse(Buffer.concat(chunks).toString("utf-8"));
const out = {};
for (const [name, s] of Object.entries(scenarios)) {
  randoms.splice(0, randoms.length, ...(s.randoms || []));
  let storage = s.storage === false ? null : new Storage();
  const keys = s.key === false ? null : new MemoryStore(); // IndexedDB: a profile's, kept across reloads
  const made = [];
  const welcomes = [];
  const open = async (table = s.table, hello = s.welcome) => {
    const signer = await statementKey({ store: keys });
    made.push(signer ? signer.publicKey : null);
    const page = new FairSeat(s.seat, { table, storage, signer });
    if (hello) welcomes.push(await page.receive(hello));
    return page;
  };
  let page = await open();
  const steps = [];
  for (const step of s.steps) {
    if (step.reload) {
      if (step.reload === "lost") storage = storage === null ? null : new Storage();
      page = await open(step.table ?? s.table, step.welcome ?? s.welcome);
      steps.push(null);
    } else if (step.frames) {
      steps.push(await Promise.all(step.frames.map((f) => page.receive(f))));
    } else {
      steps.push(await page.receive(step.frame));
    }
  }
  out[name] = {
    steps, checks: Object.fromEntries(page.checks), stage: page.stage(), signing: page.signing(), keys: made,
    failure: page.failure(), evidence: page.evidence(), welcomes,
  };
}
console.log(JSON.stringify(out));
