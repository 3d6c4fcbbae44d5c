// The page's own fair-dealing code (knock/web/static/js/fairseat.js) driven by a server's frames that
// tests/web/test_fair_page.py forges with engine/fairdeal.py: Node runs the page's modules, feeds them each
// scenario's frames in order and prints one JSON object, for each scenario what the page answered to each step and
// how it checked each hand. The page's seeds come from crypto.getRandomValues, which answers here with the
// scenario's ``randoms`` (so the Python side knows them) and from the platform once those are used up.
//
// stdin: {"scenarios": {name: {"seat": 0 | null, "table": id, "storage": true | false, "randoms": [hex],
//   "steps": [{"frame": frame} | {"frames": [frame, ...]} (handed over together, none awaited before the next)
//             | {"reload": "kept" | "lost"} (a new page at the same seat, with the same storage or an empty one)]}}}
// stdout: {name: {"steps": [{"send", "said"} | [{"send", "said"}, ...] | null], "checks": {hand: {ok, text}},
//   "stage": the page's words for the hand whose seeds are gathered}}
import { FairSeat } from "../../knock/web/static/js/fairseat.js";
import { fromHex } from "../../knock/web/static/js/fair.js";

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
  let page = new FairSeat(s.seat, { table: s.table, storage });
  const steps = [];
  for (const step of s.steps) {
    if (step.reload) {
      if (step.reload === "lost") storage = storage === null ? null : new Storage();
      page = new FairSeat(s.seat, { table: s.table, storage });
      steps.push(null);
    } else if (step.frames) {
      steps.push(await Promise.all(step.frames.map((f) => page.receive(f))));
    } else {
      steps.push(await page.receive(step.frame));
    }
  }
  out[name] = { steps, checks: Object.fromEntries(page.checks), stage: page.stage() };
}
console.log(JSON.stringify(out));
