#!/usr/bin/env node
// A client of the Knock table protocol 1.1 (1.4 at a fair table, PROTO-46), written from spec/protocol.md,
// spec/protocol.schema.json and spec/notation.md alone (and rules.md's DEAL-5 .. DEAL-11 for fair dealing).
// Two transports: stdio (`knock engine` as a child process) and WebSocket
// (`knock serve`'s /ws, tables made over its HTTP API). Every frame received and sent, and every HTTP body,
// is validated against protocol.schema.json with Ajv (draft 2020-12, strict mode).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { createHash, createHmac, randomBytes } from "node:crypto";
import Ajv2020 from "ajv/dist/2020.js";
import WebSocket from "ws";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TIMEOUT_MS = 20000;
const PROTOCOL = [1, 1];

class Failure extends Error {}
const fail = (msg) => { throw new Failure(msg); };

// ---------------------------------------------------------------- schema validation
const schema = JSON.parse(readFileSync(path.join(HERE, "spec", "protocol.schema.json"), "utf8"));
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(schema);
const validators = {};
function validator(def) {
  if (!validators[def]) {
    const v = ajv.getSchema(`${schema.$id}#/$defs/${def}`);
    if (!v) fail(`schema has no definition ${def}`);
    validators[def] = v;
  }
  return validators[def];
}
function check(def, value, what) {
  const v = validator(def);
  if (!v(value)) {
    fail(`invalid ${what} (schema ${def}): ${ajv.errorsText(v.errors)}; value: ${JSON.stringify(value).slice(0, 600)}`);
  }
  return value;
}
// the definition of each message type, read from the schema itself: the branches of `server_message` and
// `client_message`, each a definition whose `type` is a constant (protocol.schema.json)
const typeDefs = (union) => Object.fromEntries(schema.$defs[union].oneOf.map((b) => {
  const def = b.$ref.split("/").pop();
  return [schema.$defs[def].properties.type.const, def];
}));
const SERVER_DEF = typeDefs("server_message");
const CLIENT_DEF = typeDefs("client_message");
// the version spec/protocol.schema.json describes: its definition `protocol_version`, the constant [1, 4]
// (PROTO-20). A client validates what it receives against the schema of the version the server named when it
// has that schema: this client has 1.4's, so against a server of 1.4 every failure is an invalid frame.
const SCHEMA_VERSION = schema.$defs.protocol_version.const;
if (!Array.isArray(SCHEMA_VERSION) || SCHEMA_VERSION[0] !== PROTOCOL[0] || SCHEMA_VERSION[1] < 4) fail(`spec/protocol.schema.json describes protocol ${JSON.stringify(SCHEMA_VERSION)}; this client needs 1.4's (fair dealing in two rounds)`);
const SCHEMA_MINOR = SCHEMA_VERSION[1];
// PROTO-20: the version the server named (GET /api's `protocol`, `welcome`, `started`). With only an earlier
// minor's schema and a server of a higher minor, the only failures an addition may cause are a key that
// `additionalProperties` refuses and a `type` no branch of `server_message` takes: the client reads past
// exactly those (drops the key, ignores the message); any other failure is an invalid frame. Against a
// server of the schema's minor (or a lower one), every failure is one.
let serverMinor = SCHEMA_MINOR;
function noteServerVersion(protocol, where) {
  if (!Array.isArray(protocol) || protocol[0] !== PROTOCOL[0]) fail(`${where}: the server speaks protocol ${JSON.stringify(protocol)}, this client ${PROTOCOL.join(".")}`);
  if (protocol[1] < PROTOCOL[1]) fail(`${where}: the server speaks ${protocol.join(".")}: this client needs 1.1's messages (the engine's done frame, PROTO-15)`);
  serverMinor = protocol[1];
}
// validate against `def`; returns the value (with keys of a later minor dropped), or null for a message of a
// later minor to ignore
function checkTolerant(def, value, what, minor) {
  const v = validator(def);
  if (v(value)) return value;
  if (minor === undefined) minor = serverMinor;
  if (minor <= SCHEMA_MINOR) check(def, value, what);
  const copy = structuredClone(value);
  // PROTO-20 also lets a later minor add an error code, and says a client treats a code it does not know as
  // an error; the 1.1 schema's `server_error.code` is a closed enum, so that failure is read past as well
  // (PROTO-20 names both code lists: server_error's `code` and http_error's `error.code`)
  const newCode = (e) => e.keyword === "enum" &&
    ((def === "server_error" && e.instancePath === "/code" && typeof value.code === "string") ||
     (def === "http_error" && e.instancePath === "/error/code" && typeof value.error?.code === "string"));
  for (let round = 0; round < 20; round++) {
    const errs = (v.errors || []).filter((e) => !newCode(e));
    if (!errs.length && (v.errors || []).length) return copy;
    if (!errs.length || errs.some((e) => e.keyword !== "additionalProperties")) break;
    for (const e of errs) {
      let o = copy;
      for (const k of e.instancePath.split("/").slice(1)) o = o[k.replace(/~1/g, "/").replace(/~0/g, "~")];
      delete o[e.params.additionalProperty];
    }
    if (v(copy) || (v.errors || []).every(newCode)) return copy;
  }
  return check(def, value, what);
}
function checkServerFrame(msg, where) {
  const what = `frame received (${where})`;
  if (!msg || typeof msg !== "object" || Array.isArray(msg)) fail(`${what}: not a JSON object`);
  const def = SERVER_DEF[msg.type];
  if (!def) {
    if (serverMinor > SCHEMA_MINOR && typeof msg.type === "string") return null; // a later minor's message
    check("server_message", msg, what);
  }
  // welcome and started name the server's version: read it before judging the frame's keys
  if ((msg.type === "welcome" || msg.type === "started") && Array.isArray(msg.protocol)) noteServerVersion(msg.protocol, where);
  const m = checkTolerant(def, msg, what);
  // the closed union too, unless the frame was read past a later minor's addition (its branch is then the
  // only one its const `type` can take)
  if (validator(def)(m)) check("server_message", m, what);
  return m;
}
function checkClientFrame(msg, where) {
  check(CLIENT_DEF[msg.type] || "client_message", msg, `frame to send (${where})`);
  check("client_message", msg, `frame to send (${where})`);
  return msg;
}

// ---------------------------------------------------------------- fair dealing (protocol 1.4: two rounds)
// The deck's derivation and the commitments written from spec/rules.md's words alone (DEAL-6 .. DEAL-9, DEAL-11),
// on node:crypto: not the web client's fair.js, so that a second reading of the rules checks the server's.
// PROTO-46: a fair table takes only clients of 1.4 or later; this client says 1.4 in its hello there.
const FAIR_PROTOCOL = [1, 4];
const u64 = (n) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; };
const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
// DEAL-6: B_i = HMAC-SHA256(server seed, "knock-fair/1" || P || N (8 bytes) || k (1 byte) || seeds || i (4 bytes))
function fairBytes(server, seeds, purpose, number) {
  const head = Buffer.concat([Buffer.from("knock-fair/1", "ascii"), Buffer.from([purpose]), u64(number),
    Buffer.from([seeds.length]), ...seeds]);
  let i = 0, block = Buffer.alloc(0), at = 0;
  return () => {
    if (at >= block.length) { block = createHmac("sha256", server).update(Buffer.concat([head, u32(i++)])).digest(); at = 0; }
    return block[at++];
  };
}
// DEAL-7: rejection sampling, one byte at a time
function uniform(next, n) {
  const limit = 256 - (256 % n);
  for (;;) { const b = next(); if (b < limit) return b % n; }
}
// DEAL-8: Fisher-Yates over the codes 0..51, i from 51 down to 1; hand N's deck from purpose D (0x44), the draw
// deck number N from purpose C (0x43)
const PURPOSE_DECK = 0x44, PURPOSE_DRAW = 0x43;
function fairDeck(server, seeds, number, purpose = PURPOSE_DECK) {
  const next = fairBytes(server, seeds, purpose, number);
  const deck = [...Array(52).keys()];
  for (let i = 51; i >= 1; i--) { const j = uniform(next, i + 1); [deck[i], deck[j]] = [deck[j], deck[i]]; }
  return deck;
}
// DEAL-9: a seed the server supplies
const suppliedSeed = (server, number, seat) => createHmac("sha256", server)
  .update(Buffer.concat([Buffer.from("knock-fair-seat/1", "ascii"), u64(number), Buffer.from([seat])])).digest();
// DEAL-8's card code: suit x 13 + rank - 1, suits c d h s, ace 1 .. king 13
const cardCode = (c) => "cdhs".indexOf(c[1]) * 13 + "A23456789TJQK".indexOf(c[0]);
const codeCard = (n) => "A23456789TJQK"[n % 13] + "cdhs"[Math.floor(n / 13)];
const hex = (h) => Buffer.from(h, "hex");
const sha256 = (...parts) => createHash("sha256").update(Buffer.concat(parts)).digest();
// DEAL-11: a seat's commitment c = SHA-256("knock-fair-commit/1" || C || N (8 bytes) || s (1 byte) || seed), C the
// server's commitment's 32 bytes, the seed's 32 bytes
const seatCommitment = (C, number, seat, seed) =>
  sha256(Buffer.from("knock-fair-commit/1", "ascii"), C, u64(number), Buffer.from([seat]), seed);
// DEAL-11: the commitment set's hash, SHA-256("knock-fair-set/1" || N (8 bytes) || C || c0 || c1 || ...)
const setHash = (number, C, commitments) =>
  sha256(Buffer.from("knock-fair-set/1", "ascii"), u64(number), C, ...commitments);

// ---------------------------------------------------------------- strategy
const RANKS = "A23456789TJQK";
const rankIdx = (c) => RANKS.indexOf(c[0]);
const cardValue = (c) => Math.min(rankIdx(c) + 1, 10);
const cardsIn = (a) => (a.match(/[A2-9TJQK][cdhs]/g) || []).length;

// The least deadwood of a set of cards (KNOCK-4's minimum), by trying every set of disjoint melds.
function deadwood(cards) {
  const melds = [];
  const byRank = {}, bySuit = {};
  for (const c of cards) { (byRank[c[0]] ||= []).push(c); (bySuit[c[1]] ||= []).push(c); }
  for (const g of Object.values(byRank)) {
    if (g.length >= 3) {
      if (g.length === 4) melds.push(g);
      for (let i = 0; i < g.length; i++) {
        const three = g.filter((_, j) => j !== i);
        if (three.length === 3) melds.push(three);
      }
      if (g.length === 3) melds.push(g);
    }
  }
  for (const g of Object.values(bySuit)) {
    const sorted = [...g].sort((a, b) => rankIdx(a) - rankIdx(b));
    for (let i = 0; i < sorted.length; i++) {
      const run = [sorted[i]];
      for (let j = i + 1; j < sorted.length && rankIdx(sorted[j]) === rankIdx(run[run.length - 1]) + 1; j++) {
        run.push(sorted[j]);
        if (run.length >= 3) melds.push([...run]);
      }
    }
  }
  const total = cards.reduce((t, c) => t + cardValue(c), 0);
  let best = 0;
  const search = (i, used, saved) => {
    if (saved > best) best = saved;
    for (let k = i; k < melds.length; k++) {
      const m = melds[k];
      if (m.some((c) => used.has(c))) continue;
      m.forEach((c) => used.add(c));
      search(k + 1, used, saved + m.reduce((t, c) => t + cardValue(c), 0));
      m.forEach((c) => used.delete(c));
    }
  };
  search(0, new Set(), 0);
  return total - best;
}
// the least deadwood after discarding one of `cards` (eleven), and the card to discard
function bestDiscard(cards, allowed) {
  let best = null;
  for (const c of allowed) {
    const d = deadwood(cards.filter((x) => x !== c));
    if (!best || d < best.d || (d === best.d && cardValue(c) > cardValue(best.c))) best = { c, d };
  }
  return best;
}

// A simple legal strategy that ends hands fast: big gin or knock as soon as legal, spread the most cards,
// lay off the most cards, take a face-up card when it lowers the deadwood, else draw from the stock, and
// discard the card that leaves the least deadwood. The sitter never advises.
// `hold`: while the reconnect tests are still to come, end no hand by choice (no knock or big gin while a
// discard is legal), so that a short game cannot end before them
function choose(frame, hold = false) {
  const legal = frame.legal.filter((a) => !a.startsWith("advise "));
  if (!legal.length) return null;
  const v = frame.view;
  const has = (a) => legal.includes(a);
  const kind = (k) => legal.filter((a) => a === k || a.startsWith(k + " "));
  const cardOf = (a) => a.split(" ")[1];
  const holding = hold && kind("discard").length > 0;
  if (has("big-gin") && !holding) return "big-gin";
  const spreads = kind("spread");
  if (spreads.length) return spreads.reduce((b, a) => (cardsIn(a) > cardsIn(b) ? a : b));
  const layoffs = kind("layoff");
  if (layoffs.length) return layoffs.reduce((b, a) => (cardsIn(a) > cardsIn(b) ? a : b));
  const cards = v.cards || [];
  const knocks = kind("knock");
  if (knocks.length && !holding) {
    const b = bestDiscard(cards, knocks.map(cardOf));
    return `knock ${b.c}`;
  }
  if (has("pickup") && v.phase === "wall") return "pickup";
  if (has("decline")) return "decline";
  const top = v.discard_top || v.upcard;
  if ((has("take") || has("pickup")) && top && cards.length === 10) {
    // worth taking if, after the best discard of another card, the deadwood falls by 3 or more
    const after = bestDiscard([...cards, top], cards);
    if (after.d <= deadwood(cards) - 3) return has("take") ? "take" : "pickup";
  }
  if (has("draw")) return "draw";
  if (has("pass")) return "pass";
  const discards = kind("discard");
  if (discards.length) return `discard ${bestDiscard(cards, discards.map(cardOf)).c}`;
  return legal[0];
}

// the seat that may act now: its newest view offers it an action of its own and is of the game's newest record
function actor(views, gameRecord) {
  for (const [seat, f] of views) {
    if (!f || f.record < gameRecord) continue;
    if (f.view.to_act !== seat) continue;
    if (f.legal.some((a) => !a.startsWith("advise "))) return seat;
  }
  return null;
}

const splitCmd = (s) => s.split(" ").filter(Boolean);

function run(cmd, args, timeoutMs = 60000) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    const t = setTimeout(() => { p.kill(); reject(new Failure(`${cmd} ${args.join(" ")}: timed out`)); }, timeoutMs);
    p.on("error", (e) => { clearTimeout(t); reject(new Failure(`cannot start ${cmd}: ${e.message}`)); });
    p.on("close", (code) => { clearTimeout(t); resolve({ code, out, err }); });
  });
}

// knock verify on files; every file must pass. LOG-13: with --json, one object a line per file in the order
// given, `path` as given, `verdict` "pass" | "unfinished" | "fail", `view` the seat of a per-seat view (null for a
// full log), `digest` a passing log's trailer digest; exit status 0 when every file passes. `files` are
// {file, view, digest} (digest null: not checked)
async function verify(knockCmd, files) {
  const [cmd, ...pre] = splitCmd(knockCmd);
  const r = await run(cmd, [...pre, "verify", "--json", ...files.map((f) => f.file)]);
  const objs = [];
  for (const l of r.out.split("\n").filter((x) => x.trim())) {
    try { objs.push(JSON.parse(l)); } catch { fail(`knock verify --json printed a line that is not JSON: ${l.slice(0, 200)}`); }
  }
  const problems = [];
  if (r.code !== 0) problems.push(`exit status ${r.code}`);
  if (objs.length !== files.length) problems.push(`${objs.length} verdicts for ${files.length} files`);
  files.forEach((f, i) => {
    const o = objs[i];
    if (!o) return;
    if (o.path !== f.file) problems.push(`verdict ${i} is for ${o.path}, expected ${f.file}`);
    else if (o.verdict !== "pass") problems.push(`${f.file}: ${o.verdict} at record ${o.record} (${o.rule}) ${o.message}`);
    else if (o.view !== f.view) problems.push(`${f.file}: judged as the view of ${o.view}, written as ${f.view}`);
    else if (f.digest && o.digest !== f.digest) problems.push(`${f.file}: digest ${o.digest}, offered ${f.digest}`);
    // LOG-13: `record`, for pass, the trailer's number: the last record, so the log's record count (records are
    // numbered from 1, LOG-1; log_offered's `records`)
    else if (f.records !== undefined && o.record !== f.records) problems.push(`${f.file}: knock verify's record ${o.record}, the log has ${f.records} records`);
    // LOG-13: `hands` the hands begun, `scores` the totals after a game over, `winner` the seat; for a finished
    // game, what its game_result said (PROTO-10: the number of hands, the totals, the winner)
    // LOG-25: a fair log's verdict says which it is: "each seed the one its seat committed to before any seed was
    // revealed", or "no commitments recorded"; a log of a table of 1.4 (which writes the seats' commitments for
    // every hand) says the first, never the second. Since round 5's report the verdict has the key for it too
    // (LOG-13's `seats_committed`: true), which this client checks with the words
    else if (f.words && o.seats_committed !== true) problems.push(`${f.file}: the verdict's seats_committed is ${o.seats_committed}, not true (LOG-13, LOG-25)`);
    else if (f.words && !f.words.every((w) => o.message.includes(w))) problems.push(`${f.file}: the verdict does not say ${f.words.map((w) => JSON.stringify(w)).join(" and ")} (LOG-25): ${o.message}`);
    else if (f.notWords && f.notWords.some((w) => o.message.includes(w))) problems.push(`${f.file}: the verdict says ${JSON.stringify(f.notWords.find((w) => o.message.includes(w)))} (LOG-25): ${o.message}`);
    else if (f.expect && (o.hands !== f.expect.hands || JSON.stringify(o.scores) !== JSON.stringify(f.expect.totals) || o.winner !== f.expect.winner)) {
      problems.push(`${f.file}: knock verify says ${o.hands} hand(s), scores ${JSON.stringify(o.scores)}, winner ${o.winner}; game_result said ${f.expect.hands}, ${JSON.stringify(f.expect.totals)}, ${f.expect.winner}`);
    }
  });
  if (problems.length) fail(`knock verify: ${problems.join("; ")} ${r.err.trim()}`.slice(0, 2000));
  return objs;
}

// LOG-25's words for the two kinds of fair log
const LOG25_COMMITTED = "each seed the one its seat committed to before any seed was revealed";
const LOG25_NONE = "no commitments recorded";

// ---------------------------------------------------------------- stdio: knock engine
class Engine {
  constructor(engineCmd, log) {
    const [cmd, ...args] = splitCmd(engineCmd);
    this.log = log;
    this.proc = spawn(cmd, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.stderr = "";
    this.proc.stderr.on("data", (d) => (this.stderr += d));
    this.proc.stdin.on("error", (e) => { this.exited = this.exited || `cannot write to the engine: ${e.message}`; this.wake(); });
    this.lines = [];
    this.waiter = null;
    this.exited = null;
    this.proc.on("error", (e) => { this.exited = `cannot start ${engineCmd}: ${e.message}`; this.wake(); });
    this.proc.on("close", (code) => { this.exited = this.exited || `engine exited (status ${code}) ${this.stderr.slice(-500)}`; this.wake(); });
    createInterface({ input: this.proc.stdout }).on("line", (l) => { this.lines.push(l); this.wake(); });
    this.lineNo = 0;
  }
  wake() { if (this.waiter) { const w = this.waiter; this.waiter = null; w(); } }
  async nextLine() {
    const deadline = Date.now() + TIMEOUT_MS;
    while (!this.lines.length) {
      if (this.exited) fail(this.exited);
      const left = deadline - Date.now();
      if (left <= 0) fail(`knock engine: no answer within ${TIMEOUT_MS / 1000} s (line ${this.lineNo})`);
      await new Promise((res) => { this.waiter = res; setTimeout(res, left); });
    }
    return this.lines.shift();
  }
  // send one message; read its frames up to `done`
  async request(msg) {
    checkClientFrame(msg, "engine");
    this.lineNo += 1;
    this.proc.stdin.write(JSON.stringify(msg) + "\n");
    const frames = [];
    for (;;) {
      const line = await this.nextLine();
      let f;
      try { f = JSON.parse(line); } catch { fail(`knock engine wrote a line that is not JSON: ${line.slice(0, 200)}`); }
      f = checkServerFrame(f, "engine");
      if (!f) continue; // a later minor's message (PROTO-20)
      if (f.type === "done") {
        if (f.line !== this.lineNo) fail(`done for line ${f.line}, expected ${this.lineNo}`);
        return frames;
      }
      frames.push(f);
    }
  }
  async quit() {
    if (this.quitting) return this.quitting;
    this.quitting = this._quit();
    return this.quitting;
  }
  async _quit() {
    if (this.exited) return;
    try { await this.request({ type: "quit" }); } catch { /* ended anyway */ }
    this.proc.stdin.end();
    await new Promise((res) => { if (this.exited) res(); else { this.proc.on("close", res); setTimeout(res, 3000); } });
    if (!this.exited) this.proc.kill();
  }
}

// PROTO-15: knock engine lists no presets; those of this version are RULES-1's, with PROTO-25's seat counts
const ENGINE_PRESETS = { standard: 2, oklahoma: 2, three_handed: 3 };

// PROTO-28 on knock engine: the answer to an applied act is the ack, then for each human seat in seat order its
// hand_result and game_result frames and its view, then log_offered once (when the game is over)
function checkEngineOrder(frames, humans, what) {
  const bad = (why) => fail(`${what}: frames out of PROTO-28's order (${why}): ${frames.map((f) => `${f.type}${f.seat === undefined ? "" : ` ${f.seat}`}`).join(", ")}`);
  let i = 1;
  const over = frames.some((f) => f.type === "game_result");
  for (const seat of humans) {
    while (frames[i] && frames[i].type === "hand_result") { if (frames[i].seat !== seat) bad(`hand_result for ${frames[i].seat} where p${seat}'s frames belong`); i++; }
    if (over) { if (!frames[i] || frames[i].type !== "game_result" || frames[i].seat !== seat) bad(`p${seat}'s game_result missing`); i++; }
    if (!frames[i] || frames[i].type !== "view" || frames[i].seat !== seat) bad(`p${seat}'s view missing`);
    i++;
  }
  if (over) { if (!frames[i] || frames[i].type !== "log_offered") bad("log_offered missing after the last view"); i++; }
  if (i !== frames.length) bad("frames after the last expected one");
}

async function stdioGame(engine, { preset, seed, options, outDir, tag, rules }) {
  const t0 = Date.now();
  // the seat count: PROTO-15/PROTO-25's list for this version's presets, on which a client may rely; a client
  // of 1.1 on knock engine plays the presets it knows (PROTO-15), so a preset outside the list is not played
  const players = ENGINE_PRESETS[preset];
  if (players === undefined) fail(`preset ${preset}: not one of protocol 1.1's (standard, oklahoma, three_handed); a 1.1 client on knock engine plays only those (PROTO-15)`);
  // GET /api lists every preset with its rules, the number of players their `players` (PROTO-15): the two agree
  if (rules && rules.players !== players) fail(`GET /api gives ${preset} ${rules.players} players, PROTO-15/PROTO-25 ${players}`);
  const seats = Array.from({ length: players }, (_, i) => ({ player: "human", name: `js${i}` }));
  let frames = await engine.request({ type: "new", protocol: PROTOCOL, preset, options, seed, seats });
  if (frames.length && frames[0].type === "error") fail(`new refused: ${frames[0].code} (${frames[0].rule}) ${frames[0].message}`);
  const started = frames[0];
  if (!started || started.type !== "started") fail(`new answered without started first: ${JSON.stringify(frames).slice(0, 500)}`);
  if (started.rules.name !== preset) fail(`started with the rules of ${started.rules.name}, asked ${preset} (LOG-1: rules.name is the preset)`);
  if (started.rules.players !== players || started.seats.length !== players) fail(`started with ${started.seats.length} seats (rules.players ${started.rules.players}), asked ${players}`);
  const humans = started.seats.filter((x) => x.player === "human").map((x) => x.seat);
  // PROTO-15: started, then the view of every human seat
  const firstViews = frames.slice(1);
  if (firstViews.length !== humans.length || firstViews.some((f, i) => f.type !== "view" || f.seat !== humans[i])) {
    fail(`new: started not followed by the view of every human seat in seat order (PROTO-15): ${frames.map((f) => `${f.type}${f.seat === undefined ? "" : ` ${f.seat}`}`).join(", ")}`);
  }
  const nSeats = humans.length;
  const views = new Map();
  let gameRecord = 0, offered = null, acts = 0, handResults = 0, gameResults = [];
  const absorb = (fs) => {
    for (const f of fs) {
      if (f.type === "view") {
        if (f.seat === null) continue;
        const prev = views.get(f.seat);
        if (prev && f.record < prev.record) fail(`p${f.seat} sent a view at record ${f.record} after one at ${prev.record} (PROTO-28)`);
        views.set(f.seat, f);
        gameRecord = Math.max(gameRecord, f.record);
      } else if (f.type === "log_offered") {
        if (offered) fail("log_offered twice");
        if (f.url !== null) fail(`log_offered.url on knock engine is ${JSON.stringify(f.url)}, PROTO-10 says null`);
        offered = f;
      } else if (f.type === "hand_result") handResults++;
      else if (f.type === "game_result") gameResults.push(f);
      else if (f.type === "error") fail(`engine error: ${JSON.stringify(f)}`);
    }
  };
  absorb(frames);
  let stale = 0;
  while (!offered) {
    const seat = actor(views, gameRecord);
    if (seat === null) fail(`no seat may act and the game is not over (record ${gameRecord})`);
    const f = views.get(seat);
    const action = choose(f);
    frames = await engine.request({ type: "act", seat, action, record: f.record });
    const answer = frames[0];
    if (!answer || (answer.type !== "ack" && answer.type !== "refusal")) fail(`act answered by ${JSON.stringify(answer)}`);
    if (answer.type === "refusal") {
      if (answer.rule === "PROTO-7" && stale++ < 5) {
        // stale: ask for the seat's view again and act from it (PROTO-7)
        gameRecord = Math.max(gameRecord, answer.record);
        absorb(await engine.request({ type: "view", seat }));
        continue;
      }
      fail(`refusal of ${action} by p${seat} at record ${f.record}: ${answer.rule} ${answer.reason}`);
    }
    if (answer.duplicate) fail(`fresh act acknowledged as a duplicate: ${JSON.stringify(answer)}`);
    if (answer.record !== f.record || answer.seat !== seat) fail(`ack ${JSON.stringify(answer)} of an act by p${seat} at ${f.record}`);
    if (answer.action !== action) fail(`ack of ${JSON.stringify(answer.action)}, sent the canonical ${JSON.stringify(action)} (NOTE-9)`);
    checkEngineOrder(frames, humans, `act ${action} by p${seat}`);
    gameRecord = Math.max(gameRecord, answer.next);
    acts++;
    absorb(frames.slice(1));
    if (acts > 5000) fail("game too long");
  }
  if (gameResults.length !== nSeats) fail(`game_result came ${gameResults.length} times for ${nSeats} human seats`);
  // PROTO-10: game_result's `hands` counts every deal: the view's last `hand`; the final views are over
  for (const g of gameResults) {
    const fv = views.get(g.seat);
    if (!fv || !fv.view.over || fv.view.hand !== g.hands || fv.view.winner !== g.winner) fail(`p${g.seat}: game_result says ${g.hands} hand(s), winner ${g.winner}; the final view: hand ${fv && fv.view.hand}, over ${fv && fv.view.over}, winner ${fv && fv.view.winner} (PROTO-10)`);
  }
  frames = await engine.request({ type: "log" });
  const lg = frames.find((f) => f.type === "log");
  if (!lg) fail("log request answered without log");
  const data = Buffer.from(lg.data, "base64");
  if (data.length !== lg.bytes || lg.bytes !== offered.bytes) fail(`log size ${data.length}, said ${lg.bytes}, offered ${offered.bytes}`);
  if (lg.digest !== offered.digest) fail("log digest differs from the offered one");
  if (lg.verdict !== "pass") fail(`engine's own verdict on the log: ${lg.verdict}`);
  if (lg.records !== offered.records) fail(`log of ${lg.records} records, offered ${offered.records}`);
  const file = path.join(outDir, `${tag}.knock`);
  writeFileSync(file, data);
  const gr = gameResults[0];
  for (const g of gameResults) {
    if (g.winner !== gr.winner || g.hands !== gr.hands || JSON.stringify(g.totals) !== JSON.stringify(gr.totals)) fail("the human seats were sent different game_results");
  }
  return { tag, files: [{ file, view: null, digest: offered.digest, expect: gr, records: offered.records }], acts, hands: gr.hands, winner: gr.winner, totals: gr.totals, records: lg.records, ms: Date.now() - t0 };
}

// ---------------------------------------------------------------- HTTP
async function http(method, url, { body, def, token, raw, status = 200, retries = 2 } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const ctl = new AbortController();
  const t = setTimeout(() => ctl.abort(), TIMEOUT_MS);
  let res;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: ctl.signal });
  } catch (e) {
    fail(`${method} ${url}: ${e.name === "AbortError" ? `no answer within ${TIMEOUT_MS / 1000} s` : e.message}`);
  } finally { clearTimeout(t); }
  const buf = Buffer.from(await res.arrayBuffer());
  const ctype = res.headers.get("content-type") || "";
  if (res.status >= 400) {
    let j;
    try { j = JSON.parse(buf.toString("utf8")); } catch { fail(`${method} ${url}: ${res.status} with a body that is not JSON`); }
    j = checkTolerant("http_error", j, `HTTP ${res.status} body of ${method} ${url}`);
    const wait = Number(res.headers.get("retry-after"));
    if (res.status === 429 && retries > 0 && Number.isInteger(wait) && wait >= 0 && wait <= 15) {
      // PROTO-17: a limit; wait the whole seconds Retry-After says and ask again
      console.error(`  ${method} ${url}: 429 ${j.error.code}, retrying after ${wait} s`);
      await new Promise((r) => setTimeout(r, wait * 1000 + 100));
      return http(method, url, { body, def, token, raw, status, retries: retries - 1 });
    }
    fail(`${method} ${url}: ${res.status} ${j.error.code} (${j.error.rule}) ${j.error.message}`);
  }
  if (res.status !== status) fail(`${method} ${url}: status ${res.status}, PROTO-23 says ${status}`);
  if (raw) return { status: res.status, buf, ctype };
  let j;
  try { j = JSON.parse(buf.toString("utf8")); } catch { fail(`${method} ${url}: body is not JSON`); }
  // GET /api names the version first; its own body is judged against the version it names (PROTO-20)
  const minor = def === "http_api" && j && Array.isArray(j.protocol) && j.protocol[0] === PROTOCOL[0] ? j.protocol[1] : undefined;
  return checkTolerant(def, j, `HTTP ${res.status} body of ${method} ${url}`, minor);
}

// GET /api's `presets`: every preset's rules (PROTO-23), each a log header's rules map whose `name` is the preset
// it is built from (LOG-1); the client names a preset by that `name` (the schema does not say what the map's keys are)
const presetNames = (api) => Object.values(api.presets).map((r) => r.name);
const presetRules = (api, name) => Object.values(api.presets).find((r) => r.name === name);
async function getApi(base) {
  const api = await http("GET", `${base}/api`, { def: "http_api" });
  noteServerVersion(api.protocol, "GET /api");
  return api;
}

// ---------------------------------------------------------------- WebSocket
class Seat {
  constructor(game, seat, token) {
    this.game = game; this.seat = seat; this.token = token;
    this.ws = null; this.welcome = null; this.conn = 0;
  }
  connect() {
    const g = this.game;
    this.conn += 1;
    const myConn = this.conn;
    this.welcome = null;
    this.order = null;
    const ws = new WebSocket(g.wsUrl);
    this.ws = ws;
    ws.on("message", (data, isBinary) => {
      if (myConn !== this.conn) return; // a dropped connection's late frames are not read
      try {
        if (isBinary) fail(`p${this.seat}: binary frame from the server`);
        let f;
        try { f = JSON.parse(data.toString("utf8")); } catch { fail(`p${this.seat}: frame not JSON`); }
        f = checkServerFrame(f, `ws p${this.seat}`);
        if (f) g.onFrame(this, f);
      } catch (e) { g.error(e); }
    });
    ws.on("upgrade", (res) => { if (myConn === this.conn) this.socket = res.socket; });
    ws.on("open", () => {
      if (myConn !== this.conn) return;
      this.send({ type: "hello", protocol: g.fair ? FAIR_PROTOCOL : PROTOCOL, table: g.table, token: this.token });
    });
    ws.on("error", (e) => { if (myConn === this.conn) g.error(new Failure(`p${this.seat}: WebSocket error ${e.message}`)); });
    ws.on("close", (code) => {
      if (myConn === this.conn && !g.finished) g.error(new Failure(`p${this.seat}: connection closed by the server (${code})`));
    });
  }
  // PROTO-11's flood limit is a bucket of 100 frames per connection refilled at 50 a second: stay well
  // inside it (a bucket of 60 refilled at 30 a second) by waiting before a frame that would overdraw it
  async pace() {
    const now = Date.now();
    if (this.tokens === undefined) { this.tokens = 60; this.at = now; }
    this.tokens = Math.min(60, this.tokens + ((now - this.at) / 1000) * 30);
    this.at = now;
    if (this.tokens < 1) {
      await new Promise((r) => setTimeout(r, ((1 - this.tokens) / 30) * 1000));
      return this.pace();
    }
    this.tokens -= 1;
  }
  send(msg, cb) {
    checkClientFrame(msg, `ws p${this.seat}`);
    this.ws.send(JSON.stringify(msg), cb);
  }
  drop() { // drop the connection abruptly, as a network failure would
    this.conn += 1;
    this.ws.terminate();
  }
}

class WsGame {
  constructor(base, preset, seed, options, reconnect, outDir, tag, fair = false) {
    Object.assign(this, { base, preset, seed, options, reconnect, outDir, tag, fair });
    this.fairChecked = 0; // seat-hands whose deal this client recomputed and checked (PROTO-39, DEAL-10)
    this.setsChecked = 0; // seat-hands whose commitment set this client checked before revealing (PROTO-45)
    this.seedsChecked = 0; // seeds (every seat's, in views and reveals) checked against the pinned set (PROTO-45)
    this.wsUrl = base.replace(/^http/, "ws") + "/ws";
    this.views = new Map();
    this.gameRecord = 0;
    this.failure = null;
    this.waiter = null;
    this.finished = false;
    this.offered = new Map();
    this.gameResults = new Map();
    this.pending = new Map(); // seat -> {action, record}: sent, not yet acknowledged
    this.acks = new Map();
    this.notes = [];
  }
  error(e) { if (!this.failure) this.failure = e; this.wake(); }
  wake() { if (this.waiter) { const w = this.waiter; this.waiter = null; w(); } }
  async until(pred, what) {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      if (this.failure) throw this.failure;
      const r = pred();
      if (r) return r;
      const left = deadline - Date.now();
      if (left <= 0) fail(`no answer within ${TIMEOUT_MS / 1000} s: waiting for ${what}`);
      await new Promise((res) => { this.waiter = res; setTimeout(res, Math.min(left, 1000)); });
    }
  }
  // PROTO-28, per connection: after a change, hand_result(s), game_result if the game ended, the view at the new
  // record (never lower than one already sent), then log_offered if the game is over; the acting connection's
  // ack comes before all of them (PROTO-24: welcome, then the current view; at a finished table log_offered)
  order(s, f) {
    const bad = (why) => fail(`p${s.seat}: ${f.type} out of PROTO-28's order: ${why}`);
    const st = s.order; // null | "result" | "game" | "over"
    // PROTO-36, PROTO-45: a fair hand's commitment, the commitment set and the answers to this client's commit and
    // seed come before its deal, after the change that ended the hand before (or after welcome, before the first
    // view); none is a change's frame
    if (["fair_commit", "commit_taken", "fair_set", "seed_taken"].includes(f.type)) return;
    // an error answers a message of this client's, whenever it comes: reported by onFrame as what it is
    if (f.type === "error") return;
    // PROTO-39: fair_reveal is sent after the hand's hand_result (checked in fairReveal); it is not a change's frame
    if (f.type === "fair_reveal") return;
    if (f.type === "welcome") { if (st) bad(`after ${st}`); s.order = "welcome"; return; }
    // PROTO-24: after a restart a finished table is kept as its summary only: welcome, then log_offered alone
    if (st === "welcome" && f.type === "log_offered") { s.order = "over"; return; }
    // PROTO-10: after log_offered the connection stays open and may still ask for a view
    if (st === "over" && f.type === "view" && s.askedView) { s.askedView = false; return; }
    // PROTO-24: at a table whose game is over, welcome is followed by the final view, game_result, log_offered
    if (st === "welcome" && f.type === "view" && f.view.over) { s.order = "final_view"; return; }
    if (st === "final_view") { if (f.type !== "game_result") bad("PROTO-24: the final view is followed by game_result"); s.order = "view_over"; return; }
    if (st === "welcome") { if (f.type !== "view") bad("PROTO-24: welcome is followed by the current view"); s.order = null; return; }
    if (f.type === "hand_result") { if (st === "game" || st === "over") bad(`after ${st}`); s.order = "result"; }
    else if (f.type === "game_result") { if (st === "game" || st === "over") bad(`after ${st}`); s.order = "game"; }
    else if (f.type === "view") {
      if (st === "over") bad("a view after log_offered");
      if (s.lastView && s.conn === s.lastViewConn && f.record < s.lastView.record) bad(`record ${f.record} after ${s.lastView.record}`);
      if (st === "game" && !f.view.over) bad("the view after game_result is not over");
      if (st !== "game" && f.view.over && !s.sawGameResult) bad("a view of a finished game with no game_result before it");
      s.order = st === "game" ? "view_over" : null;
    } else if (f.type === "log_offered") { if (st !== "view_over") bad(`after ${st || "a view of a game not over"}`); s.order = "over"; }
    else if (f.type === "ack") { if (st) bad(`the ack of an act came after ${st}`); }
  }
  onFrame(s, f) {
    this.order(s, f);
    switch (f.type) {
      case "welcome":
        if (s.welcome) fail(`p${s.seat}: second welcome`);
        if (this.fair && f.fair !== true) fail(`p${s.seat}: welcome's fair is ${f.fair} at a fair table (PROTO-35)`);
        // PROTO-46: a fair table takes clients of 1.4 or later; the commit round is 1.4's (PROTO-20: a client sends
        // nothing the minor named in welcome lacks)
        if (this.fair && !(f.protocol[0] === FAIR_PROTOCOL[0] && f.protocol[1] >= FAIR_PROTOCOL[1])) fail(`p${s.seat}: a fair table's welcome names protocol ${f.protocol.join(".")}: fair dealing in two rounds is 1.4's`);
        if (f.seat !== s.seat) fail(`p${s.seat}: welcome for seat ${f.seat}`);
        if (f.table !== this.table) fail(`welcome for table ${f.table}`);
        s.welcome = f;
        break;
      case "view":
        if (!s.welcome) fail(`p${s.seat}: view before welcome`);
        if (f.seat !== s.seat) fail(`p${s.seat}: view of seat ${f.seat}`);
        this.views.set(s.seat, f);
        if (this.fair) this.fairView(s, f);
        else if (f.fair !== null && f.fair !== undefined) fail(`p${s.seat}: a view's fair is ${JSON.stringify(f.fair)} at a table not fair (PROTO-39)`);
        s.lastView = f;
        s.lastViewConn = s.conn;
        this.gameRecord = Math.max(this.gameRecord, f.record);
        break;
      case "ack": {
        const p = this.pending.get(s.seat);
        if (!p) fail(`p${s.seat}: ack of nothing pending: ${JSON.stringify(f)}`);
        if (f.record !== p.record || f.seat !== s.seat) fail(`p${s.seat}: ack ${JSON.stringify(f)} for ${JSON.stringify(p)}`);
        if (f.action !== p.action) fail(`p${s.seat}: ack of ${JSON.stringify(f.action)}, sent the canonical ${JSON.stringify(p.action)} (NOTE-9)`);
        // PROTO-28 (1) then (2): the ack comes before this connection's view of the change
        if (!f.duplicate && s.lastView && s.lastViewConn === s.conn && s.lastView.record >= f.next) fail(`p${s.seat}: the view at ${s.lastView.record} came before the ack (next ${f.next})`);
        this.pending.delete(s.seat);
        this.acks.set(s.seat, f);
        this.gameRecord = Math.max(this.gameRecord, f.next);
        break;
      }
      case "refusal": {
        const p = this.pending.get(s.seat);
        this.pending.delete(s.seat);
        if (f.rule === "PROTO-7" && p && !p.resent && (this.stale = (this.stale || 0) + 1) < 5) {
          this.notes.push(`stale refusal of ${p.action} at ${p.record}; acting again`);
          this.gameRecord = Math.max(this.gameRecord, f.record);
          s.send({ type: "view" }); // the newest view, to act again from (PROTO-7, PROTO-24)
          break;
        }
        fail(`p${s.seat}: refusal of ${p ? p.action : "?"} at record ${p ? p.record : "?"}: ${f.rule} ${f.reason}`);
        break;
      }
      case "error":
        fail(`p${s.seat}: error ${f.code} (${f.rule}) ${f.message}`);
        break;
      case "game_result":
        if (f.seat !== s.seat) fail(`p${s.seat}: game_result for seat ${f.seat}`);
        s.sawGameResult = true;
        this.gameResults.set(s.seat, f);
        break;
      case "log_offered":
        if (typeof f.url !== "string" || !f.url.startsWith("/")) fail(`p${s.seat}: log_offered.url ${JSON.stringify(f.url)} is not an absolute-path reference (PROTO-10)`);
        this.offered.set(s.seat, f);
        break;
      case "hand_result":
        if (f.seat !== s.seat) fail(`p${s.seat}: hand_result for seat ${f.seat}`);
        (s.handResults ||= new Set()).add(f.hand);
        break;
      case "fair_commit": this.fairCommit(s, f); break;
      case "commit_taken": this.commitTaken(s, f); break;
      case "fair_set": this.fairSet(s, f); break;
      case "seed_taken": this.seedTaken(s, f); break;
      case "fair_reveal": this.fairReveal(s, f); break;
      default:
        break; // timed_out and anything a later minor adds: ignored
    }
    this.wake();
  }
  // ---- fair dealing in two rounds (PROTO-36, PROTO-37, PROTO-39, PROTO-45; rules.md DEAL-9 .. DEAL-11). Each seat
  // keeps, per hand, what it was sent and what it sent: the server's commitment it was sent first (pinned), its own
  // seed and commitment, and the first commitment set it was sent (pinned). A breach fails the game before this seat
  // sends anything more (PROTO-45: a client that finds a breach sends no seed).
  fairHand(s, n) {
    s.fair = s.fair || {};
    return s.fair[n];
  }
  // PROTO-36, PROTO-45 (1): the server committed to its seed for hand n; this seat commits to a seed of its own,
  // 32 random bytes, by DEAL-11's commitment over the server's commitment it pinned
  fairCommit(s, f) {
    if (!this.fair) fail(`p${s.seat}: fair_commit at a table not fair`);
    if (f.table !== this.table) fail(`p${s.seat}: fair_commit for table ${f.table}`);
    const n = f.hand;
    const st = this.fairHand(s, n);
    if (st) {
      // PROTO-39: the client holds the server to the first fair_commit it was sent for a hand
      if (st.C !== f.commitment) fail(`p${s.seat}: hand ${n}: a second fair_commit names commitment ${f.commitment}, the first ${st.C} (PROTO-39: a breach of DEAL-9)`);
      // sent again after a hello or a view request (PROTO-36): the same commit again if it was never answered
      // (PROTO-45: answered again, in either round)
      if (!st.commitTaken) s.send({ type: "commit", hand: n, commitment: st.c });
      return;
    }
    const later = Object.keys(s.fair).map(Number).filter((h) => h >= n);
    if (later.length) fail(`p${s.seat}: fair_commit for hand ${n} after hand ${Math.max(...later)}'s`);
    // PROTO-36: a later hand's commitment comes once the hand before has its result, after its fair_reveal
    if (n > 1 && !(s.fair[n - 1] && s.fair[n - 1].revealed)) fail(`p${s.seat}: fair_commit for hand ${n} before hand ${n - 1}'s fair_reveal (PROTO-36)`);
    const seed = randomBytes(32);
    const c = seatCommitment(hex(f.commitment), n, s.seat, seed).toString("hex");
    s.fair[n] = { C: f.commitment, seed: seed.toString("hex"), c, commitTaken: false, set: null, seedTaken: false, draws: [] };
    s.send({ type: "commit", hand: n, commitment: c });
  }
  // PROTO-45 (1): the commitment is stored; the answer names this seat and the commitment it sent
  commitTaken(s, f) {
    const st = this.fairHand(s, f.hand);
    if (!st) fail(`p${s.seat}: commit_taken for hand ${f.hand}, which this seat never committed to`);
    if (f.seat !== s.seat || f.commitment !== st.c) fail(`p${s.seat}: commit_taken ${JSON.stringify(f)} for the commitment ${st.c} it sent`);
    st.commitTaken = true;
  }
  // PROTO-45 (2): the set. Checked before anything is revealed: its server commitment is the one pinned, it holds
  // this seat's own commitment at its seat, one commitment a seat, and its hash is DEAL-11's, recomputed; the first
  // set for a hand is pinned and a different one later is a breach (DEAL-11). Then (3): the seed, with the set's hash
  fairSet(s, f) {
    if (!this.fair) fail(`p${s.seat}: fair_set at a table not fair`);
    if (f.table !== this.table) fail(`p${s.seat}: fair_set for table ${f.table}`);
    const n = f.hand;
    const st = this.fairHand(s, n);
    if (!st) fail(`p${s.seat}: hand ${n}'s commitment set came before its fair_commit (PROTO-45)`);
    if (st.set) {
      if (st.set.commitment !== f.commitment || st.set.set !== f.set || JSON.stringify(st.set.commitments) !== JSON.stringify(f.commitments)) {
        fail(`p${s.seat}: hand ${n}: a second commitment set differs from the first (DEAL-11: a second set for the same hand)`);
      }
      if (!st.seedTaken) s.send({ type: "seed", hand: n, seed: st.seed, set: st.set.set }); // its answer was never read
      return;
    }
    if (f.commitment !== st.C) fail(`p${s.seat}: hand ${n}'s set names server commitment ${f.commitment}, the one pinned is ${st.C} (PROTO-45, DEAL-9)`);
    if (f.commitments.length !== this.seats.length) fail(`p${s.seat}: hand ${n}'s set holds ${f.commitments.length} commitments for ${this.seats.length} seats (DEAL-11)`);
    if (f.commitments[s.seat] !== st.c) fail(`p${s.seat}: hand ${n}'s set holds ${f.commitments[s.seat]} at this seat, which committed to ${st.c} (PROTO-45)`);
    const h = setHash(n, hex(f.commitment), f.commitments.map(hex)).toString("hex");
    if (h !== f.set) fail(`p${s.seat}: hand ${n}'s set hash is ${f.set}, DEAL-11 gives ${h}`);
    st.set = { commitment: f.commitment, commitments: [...f.commitments], set: f.set };
    this.setsChecked += 1;
    s.send({ type: "seed", hand: n, seed: st.seed, set: f.set });
  }
  // PROTO-37, PROTO-45 (3): the seed is stored; it answers the seed this seat revealed, after the set
  seedTaken(s, f) {
    const st = this.fairHand(s, f.hand);
    if (!st || !st.set) fail(`p${s.seat}: seed_taken for hand ${f.hand} before this seat revealed anything`);
    if (f.seat !== s.seat || f.seed !== st.seed) fail(`p${s.seat}: seed_taken ${JSON.stringify(f)} for the seed ${st.seed} it sent`);
    st.seedTaken = true;
  }
  // PROTO-45: every seat's seed, in a view or the reveal, matches the set pinned (DEAL-11's commitment, recomputed);
  // this seat's is the one it sent, and it is not listed as supplied (a seat that committed never is)
  checkSeeds(s, n, st, fair, where) {
    if (fair.commitment !== st.C) fail(`p${s.seat}: hand ${n}: ${where} names server commitment ${fair.commitment}, the one pinned is ${st.C} (PROTO-39)`);
    if (fair.seeds.length !== this.seats.length) fail(`p${s.seat}: hand ${n}: ${where} holds ${fair.seeds.length} seeds for ${this.seats.length} seats (DEAL-5)`);
    if (fair.seeds[s.seat] !== st.seed) fail(`p${s.seat}: hand ${n}: ${where} holds seed ${fair.seeds[s.seat]} at this seat, which revealed ${st.seed}`);
    if (fair.supplied.includes(s.seat)) fail(`p${s.seat}: hand ${n}: ${where} lists this seat, which committed and revealed, as supplied (PROTO-39, PROTO-45)`);
    const C = hex(st.C);
    fair.seeds.forEach((seed, i) => {
      const c = seatCommitment(C, n, i, hex(seed)).toString("hex");
      if (c !== st.set.commitments[i]) fail(`p${s.seat}: hand ${n}: ${where}: p${i}'s seed does not match p${i}'s commitment in the set (DEAL-11)`);
    });
    this.seedsChecked += fair.seeds.length;
  }
  // PROTO-39, PROTO-45: every view of a fair hand carries its seeds and its commitments; the first view of a hand
  // holds the cards dealt; a stock draw of this seat shows the card at the stock's top (DEAL-3)
  fairView(s, f) {
    const fair = f.fair;
    if (!fair || fair.hand !== f.view.hand) fail(`p${s.seat}: a fair table's view without its hand's seeds: ${JSON.stringify(fair)}`);
    const n = fair.hand;
    const st = this.fairHand(s, n);
    if (!st || !st.set || !st.seedTaken) fail(`p${s.seat}: hand ${n} dealt before this seat's seed was taken after its commitment set (PROTO-45)`);
    if (!Array.isArray(fair.commitments) || JSON.stringify(fair.commitments) !== JSON.stringify(st.set.commitments)) {
      fail(`p${s.seat}: hand ${n}'s view holds commitments ${JSON.stringify(fair.commitments)}, the set pinned ${JSON.stringify(st.set.commitments)} (PROTO-45)`);
    }
    this.checkSeeds(s, n, st, fair, "a view");
    if (fair.server !== null && f.view.result === null) fail(`p${s.seat}: hand ${n}'s server seed shown before the hand's result (PROTO-39)`);
    if (fair.server !== null && sha256(hex(fair.server)).toString("hex") !== st.C) fail(`p${s.seat}: hand ${n}'s view reveals a server seed whose SHA-256 is not the commitment pinned (DEAL-9)`);
    // 1.4's `draw`: the game's rounds of the draw for the deal, the same in every view; checked at hand 1's reveal
    if (s.draw === undefined) s.draw = JSON.stringify(f.draw);
    else if (s.draw !== JSON.stringify(f.draw)) fail(`p${s.seat}: the draw for the deal changed between views: ${s.draw} then ${JSON.stringify(f.draw)}`);
    if (!st.dealt && f.events.some((e) => e.kind === "dealt")) {
      // the cards this seat is shown (PROTO-5: its own; a sitter who sees them, the captain's; else none) and whose
      // they are
      const v = f.view;
      const owner = v.seats.includes(s.seat) ? s.seat : v.cards.length ? v.roles.captain : null;
      st.dealt = { cards: [...v.cards], upcard: v.upcard, dealer: v.dealer, owner };
    }
    // a stock draw by the seat whose cards this seat is shown: views come after every change (PROTO-28), so the view
    // at the next record shows the one card gained, none lost and the stock one smaller; the stock's top was at
    // position 52 - stock (DEAL-3: the stock is positions 21 .. 51, the top drawn first)
    const p = s.fairPrev;
    if (p && st.dealt && st.dealt.owner !== null && p.view.hand === f.view.hand && f.record === p.record + 1 && p.view.stock - f.view.stock === 1) {
      const gained = f.view.cards.filter((c) => !p.view.cards.includes(c));
      if (gained.length === 1 && p.view.cards.every((c) => f.view.cards.includes(c))) st.draws.push({ pos: 52 - p.view.stock, card: gained[0] });
    }
    s.fairPrev = f;
  }
  // PROTO-39, PROTO-45, DEAL-9, DEAL-10: the reveal, checked against the commitment this seat pinned before it
  // committed, every seed against the set pinned, the supplied seeds against DEAL-9; then the deck recomputed and
  // what this seat was shown found in it: its ten dealt cards (DEAL-3: one at a time, the non-dealer first: the
  // non-dealer's the even positions 0..18, the dealer's the odd), the upcard at 20, its stock draws, and in the
  // first hand the draw for the deal (every view's `draw`: the first cards of the draw deck, DEAL-8)
  fairReveal(s, f) {
    const n = f.hand;
    const st = this.fairHand(s, n);
    if (!st || !st.set) fail(`p${s.seat}: hand ${n} revealed, this seat never checked its set`);
    if (f.seat !== s.seat) fail(`p${s.seat}: fair_reveal for seat ${f.seat} (PROTO-39: the seat it is for)`);
    if (!s.handResults || !s.handResults.has(n)) fail(`p${s.seat}: hand ${n}'s fair_reveal before its hand_result (PROTO-39)`);
    if (st.revealed) return; // sent again (a reconnect): checked already
    st.revealed = true;
    const server = hex(f.server);
    if (sha256(server).toString("hex") !== st.C) fail(`p${s.seat}: hand ${n}'s revealed seed does not match the commitment pinned before this seat committed (DEAL-9)`);
    if (f.commitments !== null && JSON.stringify(f.commitments) !== JSON.stringify(st.set.commitments)) fail(`p${s.seat}: hand ${n}'s reveal holds commitments ${JSON.stringify(f.commitments)}, the set pinned ${JSON.stringify(st.set.commitments)}`);
    this.checkSeeds(s, n, st, f, "the reveal");
    const seeds = f.seeds.map(hex);
    for (const seat of f.supplied) if (!suppliedSeed(server, n, seat).equals(seeds[seat])) fail(`p${s.seat}: hand ${n}: p${seat}'s supplied seed is not DEAL-9's`);
    const deck = fairDeck(server, seeds, n);
    const dealt = st.dealt;
    if (!dealt) fail(`p${s.seat}: hand ${n} revealed, its deal never seen`);
    if (dealt.owner !== null) {
      const mine = new Set(deck.slice(0, 20).filter((_, i) => i % 2 === (dealt.dealer === dealt.owner ? 1 : 0)));
      if (dealt.cards.length !== 10 || !dealt.cards.every((c) => mine.has(cardCode(c)))) fail(`p${s.seat}: hand ${n}: the cards dealt ${dealt.owner === s.seat ? "to this seat" : `to p${dealt.owner}`} are not the ones the seeds give (DEAL-10)`);
    }
    if (deck[20] !== cardCode(dealt.upcard)) fail(`p${s.seat}: hand ${n}: the upcard is not the seeds' (DEAL-10)`);
    for (const d of st.draws) if (deck[d.pos] !== cardCode(d.card)) fail(`p${s.seat}: hand ${n}: drew ${d.card} from the stock at position ${d.pos}, the seeds give ${codeCard(deck[d.pos])} (DEAL-10)`);
    this.stockChecked = (this.stockChecked || 0) + st.draws.length;
    if (n === 1) {
      // DEAL-8: the draw takes its cards in order from the draw deck of purpose C, number 0 (then 1, ...) from the
      // first hand's seeds; the rounds in order, each round's cards in its seats' order
      const drawn = JSON.parse(s.draw || "[]").flatMap((r) => r.cards);
      if (!drawn.length) fail(`p${s.seat}: no draw for the deal in the first hand's views (1.4's \`draw\`)`);
      let codes = [];
      for (let k = 0; codes.length < drawn.length; k++) codes = codes.concat(fairDeck(server, seeds, k, PURPOSE_DRAW));
      drawn.forEach((c, i) => { if (cardCode(c) !== codes[i]) fail(`p${s.seat}: the draw for the deal's card ${i + 1} is ${c}, the seeds give ${codeCard(codes[i])} (DEAL-8, DEAL-10)`); });
      this.drawChecked = (this.drawChecked || 0) + drawn.length;
    }
    this.fairChecked += 1;
  }
  async connectSeat(s) {
    s.connect();
    await this.until(() => s.welcome && s.lastView && s.lastView !== s.prevView && this.views.get(s.seat) === s.lastView, `p${s.seat}'s welcome and view`);
  }
  async play() {
    const t0 = Date.now();
    const api = await getApi(this.base);
    const rules = presetRules(api, this.preset);
    if (!rules) fail(`server offers no preset ${this.preset}`);
    const seats = Array.from({ length: rules.players }, (_, i) => ({ player: "human", name: `js${i}` }));
    const req = { preset: this.preset, seed: this.seed, options: this.options, seats, bot_delay: 0, ...(this.fair ? { fair: true } : {}) };
    check("http_table_request", req, "table request");
    const created = await http("POST", `${this.base}/api/tables`, { body: req, def: "http_table_created", status: 201 });
    this.table = created.table;
    if (created.seed !== this.seed) fail(`table made with seed ${created.seed}, asked ${this.seed}`);
    const summary0 = await http("GET", `${this.base}/api/tables/${this.table}`, { def: "http_table_summary" });
    if (summary0.over) fail("new table already over");
    // the answer's seats carry their `seat` (the schema); their order is not relied on: indexed by `seat`
    this.seats = [];
    for (const c of created.seats) {
      if (c.player !== "human" || !c.token) fail(`seat ${c.seat} has no token`);
      if (this.seats[c.seat]) fail(`seat ${c.seat} twice in the table's answer`);
      this.seats[c.seat] = new Seat(this, c.seat, c.token);
    }
    if (this.seats.length !== rules.players || this.seats.some((x) => !x)) fail(`the table's answer has seats ${created.seats.map((c) => c.seat)}, asked ${rules.players}`);
    for (const s of this.seats) s.connect();
    await this.until(() => this.seats.every((s) => s.welcome && this.views.get(s.seat)), "every seat's welcome and first view");
    let acts = 0, dropped = 0;
    const resent = {};
    const dropAt = 2, lostAt = 4, appliedAt = 6;
    while (this.gameResults.size < this.seats.length || this.offered.size < this.seats.length) {
      const seat = await this.until(() => {
        if (this.gameResults.size === this.seats.length && this.offered.size === this.seats.length) return "over";
        if (this.pending.size) return null;
        const a = actor(this.views, this.gameRecord);
        return a === null ? null : String(a);
      }, `a seat to act (record ${this.gameRecord})`);
      if (seat === "over") break;
      const s = this.seats[Number(seat)];
      const f = this.views.get(s.seat);
      const action = choose(f, this.reconnect && !(dropped && resent.lost && resent.applied));
      const midHand = ["draw", "pass", "take", "pickup"].includes(action) || action.startsWith("discard ");
      if (this.reconnect && !dropped && acts >= dropAt && midHand) {
        // drop 1: a connection dropped in the middle of a hand, nothing pending; the other seat acts while it
        // is away; then it reconnects with its token and must be shown the hand from its deal
        const other = this.seats.find((x) => x.seat !== s.seat) || s;
        other.drop();
        other.prevView = other.lastView;
        this.views.delete(other.seat);
        this.away = { s: other, record: this.gameRecord, hand: f.view.hand };
        dropped++;
        continue;
      }
      const msg = { type: "act", action, record: f.record };
      await s.pace();
      const mode = !this.reconnect ? null : !resent.lost && acts >= lostAt ? "lost" : resent.lost && !resent.applied && acts >= appliedAt ? "applied" : null;
      if (mode && midHand) {
        // an act sent, the connection dropped before its ack is read; reconnect and resend it (PROTO-7: the
        // same seat, action and expected record). "lost": the frame is handed to the socket but the connection
        // dies before it leaves (the socket corked, then destroyed), so the server never applied it and must
        // apply the resend (duplicate false). "applied": the connection dies only once another seat has been
        // shown the action applied, so the resend must be acknowledged again (duplicate true).
        this.pending.set(s.seat, { action, record: f.record });
        let appliedNext = null; // "applied": the game's record right after the action, from another seat's view of it
        if (mode === "lost") {
          s.socket.cork();
          s.send(msg, () => {});
          s.drop();
        } else {
          const others = this.seats.filter((x) => x !== s);
          await new Promise((res, rej) => s.send(msg, (e) => (e ? rej(new Failure(`send: ${e.message}`)) : res())));
          s.conn += 1; // deaf from now on: the ack on this connection is never read
          const seen = await this.until(() => others.find((x) => x.lastView && x.lastView.record > f.record), `another seat's view of ${action} applied`);
          appliedNext = seen.lastView.record;
          s.drop();
        }
        s.prevView = s.lastView;
        this.views.delete(s.seat);
        await this.connectSeat(s);
        const v = this.views.get(s.seat);
        this.pending.set(s.seat, { action, record: f.record, resent: true });
        this.acks.delete(s.seat);
        await s.pace();
        s.send(msg);
        const ack = await this.until(() => this.acks.get(s.seat), `p${s.seat}'s ack of the resent ${action}`);
        this.acks.delete(s.seat);
        resent[mode] = { action, record: f.record, duplicate: ack.duplicate, viewRecord: v.record, next: ack.next };
        this.notes.push(`[${mode}] sent ${action} at record ${f.record} as p${s.seat}, dropped before its ack, reconnected (view at record ${v.record}), resent: ack duplicate=${ack.duplicate} next=${ack.next}`);
        if (mode === "lost") {
          if (v.record !== f.record) fail(`the "lost" act ${action} reached the server after all (view at ${v.record} after reconnecting): the never-applied resend was not exercised`);
          if (ack.duplicate) fail("resend of an action never applied acknowledged as a duplicate (PROTO-7: it is applied)");
        } else {
          if (v.record <= f.record) fail(`p${s.seat} reconnected to a view at ${v.record}, before the action applied at ${f.record}`);
          if (!ack.duplicate) fail("resend of an applied action not acknowledged as a duplicate (PROTO-7)");
          if (ack.next > v.record) fail(`duplicate ack's next ${ack.next} is past the game's record ${v.record}`);
          // Messages (`ack`): for a duplicate, the same `next` as the first ack gave, whatever the game's record
          // number is now
          if (ack.next !== appliedNext) fail(`duplicate ack's next ${ack.next}, the action was applied to record ${appliedNext}`);
        }
        acts++;
        continue;
      }
      this.pending.set(s.seat, { action, record: f.record });
      this.acks.delete(s.seat);
      s.send(msg);
      const ack = await this.until(() => this.acks.get(s.seat) || (!this.pending.has(s.seat) && "refused"), `p${s.seat}'s ack of ${action}`);
      if (ack === "refused") continue;
      this.acks.delete(s.seat);
      if (ack.duplicate) fail(`fresh act acknowledged as a duplicate: ${JSON.stringify(ack)}`);
      acts++;
      if (this.away) {
        const { s: other, record, hand } = this.away;
        this.away = null;
        await this.connectSeat(other);
        const v = this.views.get(other.seat);
        if (v.record < ack.next) fail(`p${other.seat} reconnected to a view at record ${v.record}, the game is at ${ack.next}`);
        if (!v.events.length || v.events[0].kind !== "hand_started" || v.events.some((e) => e.hand !== v.view.hand)) {
          fail(`p${other.seat}'s view after reconnecting does not hold the hand's events from its deal: ${JSON.stringify(v.events).slice(0, 300)}`);
        }
        this.notes.push(`dropped p${other.seat} mid-hand at record ${record} (hand ${hand}), p${s.seat} played ${action} meanwhile, reconnected: view at record ${v.record} (hand ${v.view.hand}, phase ${v.view.phase}) with ${v.events.length} events from the deal`);
      }
      if (acts > 5000) fail("game too long");
    }
    if (this.reconnect && (!dropped || !resent.lost || !resent.applied)) fail(`the game ended before the reconnect tests (dropped ${dropped}, resent ${Object.keys(resent).join(", ") || "none"})`);
    this.finished = true;
    // the logs: the full log, and every seat's view with its token
    const offered = this.offered.get(0);
    const files = [];
    const summary = await http("GET", `${this.base}/api/tables/${this.table}`, { def: "http_table_summary" });
    if (!summary.over || summary.verdict !== "pass" || summary.digest !== offered.digest) {
      fail(`summary after the game: over=${summary.over} verdict=${summary.verdict} digest=${summary.digest}`);
    }
    // PROTO-23: once over, the full log's log_bytes; `record` the game's record number, which is the log's record
    // count (Values, LOG-1); the winner as game_result's
    if (summary.log_bytes !== offered.bytes || summary.record !== offered.records || summary.winner !== this.gameResults.get(0).winner || summary.preset !== this.preset) {
      fail(`summary after the game: log_bytes ${summary.log_bytes}, record ${summary.record}, winner ${summary.winner}, preset ${summary.preset}; offered ${offered.bytes} bytes, ${offered.records} records, game_result's winner ${this.gameResults.get(0).winner}, preset ${this.preset}`);
    }
    // PROTO-23: the summary's `table`, `rules` and `seats` (as in welcome), `hand` the current hand's number
    // (every deal counts), `scores` every seat's running score (the view's `scores`), `turn_timeout` (none asked)
    const w0 = this.seats[0].welcome, fv0 = this.views.get(0);
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    if (summary.table !== this.table || !same(summary.rules, w0.rules) || !same(summary.seats, w0.seats) || summary.hand !== fv0.view.hand || !same(summary.scores, fv0.view.scores) || summary.turn_timeout !== null || summary.turn_timeout !== w0.turn_timeout) {
      fail(`summary after the game does not match welcome and the final view (PROTO-23): ${JSON.stringify(summary).slice(0, 800)}`);
    }
    // PROTO-10: game_result's `hands` counts every deal: the view's last `hand`
    for (const [seat, g] of this.gameResults) {
      const fv = this.views.get(seat);
      if (!fv || !fv.view.over || fv.view.hand !== g.hands || fv.view.winner !== g.winner) fail(`p${seat}: game_result says ${g.hands} hand(s), winner ${g.winner}; the final view: hand ${fv && fv.view.hand}, over ${fv && fv.view.over} (PROTO-10)`);
    }
    // PROTO-10: nothing is closed at the game's end; the connection stays open after log_offered and may still
    // ask for a view
    for (const s of this.seats) {
      if (s.ws.readyState !== WebSocket.OPEN) fail(`p${s.seat}: the server closed the connection after the game (PROTO-10: it stays open)`);
      const before = s.lastView;
      s.askedView = true;
      await s.pace();
      s.send({ type: "view" });
      await this.until(() => s.lastView !== before, `p${s.seat}'s view asked for after log_offered`);
      if (s.lastView.record !== before.record || !s.lastView.view.over) fail(`p${s.seat}: the view after log_offered is at ${s.lastView.record}, over ${s.lastView.view.over}; the game ended at ${before.record}`);
    }
    const list = await http("GET", `${this.base}/api/tables?start=0&count=50`, { def: "http_table_list" });
    if (!list.tables.some((t) => t.table === this.table) && list.total <= 50) fail("the table is not in GET /api/tables");
    for (const o of this.offered.values()) {
      if (o.url !== offered.url || o.digest !== offered.digest || o.bytes !== offered.bytes) fail("the seats were offered different logs");
    }
    // PROTO-10: an absolute-path reference, resolved against the server's base URL (RFC 3986)
    const full = await http("GET", new URL(offered.url, this.base + "/").href, { raw: true });
    if (!full.ctype.startsWith("application/x-knock-log")) fail(`full log served as ${full.ctype}`);
    if (full.buf.length !== offered.bytes) fail(`full log of ${full.buf.length} bytes, offered ${offered.bytes}`);
    const fullFile = path.join(this.outDir, `${this.tag}.knock`);
    writeFileSync(fullFile, full.buf);
    const gr0 = this.gameResults.get(0);
    for (const g of this.gameResults.values()) {
      if (g.winner !== gr0.winner || g.hands !== gr0.hands || JSON.stringify(g.totals) !== JSON.stringify(gr0.totals)) fail("the seats were sent different game_results");
    }
    // a fair table of 1.4 records every seat's commitment before any seed (LOG-25): its verdict says so
    const words = this.fair ? { words: [LOG25_COMMITTED], notWords: [LOG25_NONE] } : {};
    files.push({ file: fullFile, view: null, digest: offered.digest, expect: gr0, records: offered.records, ...words });
    for (const s of this.seats) {
      const v = await http("GET", `${this.base}/api/tables/${this.table}/log`, { raw: true, token: s.token });
      if (!v.ctype.startsWith("application/x-knock-log")) fail(`p${s.seat}'s view of the log served as ${v.ctype} (PROTO-23)`);
      const vf = path.join(this.outDir, `${this.tag}.p${s.seat}.knock`);
      writeFileSync(vf, v.buf);
      files.push({ file: vf, view: s.seat, digest: null, expect: gr0, ...words });
    }
    // PROTO-24: a seat reconnecting to a finished table is sent welcome, the final view, game_result and
    // log_offered (the order is checked by order())
    const s0 = this.seats[0];
    s0.connect();
    await this.until(() => s0.welcome && s0.order === "over", `p${s0.seat}'s welcome, final view, game_result and log_offered at the finished table`);
    if (this.offered.get(s0.seat).digest !== offered.digest) fail("the log offered again differs");
    this.notes.push(`reconnected p${s0.seat} to the finished table: welcome, final view at ${s0.lastView.record}, game_result, log_offered`);
    for (const s of this.seats) { s.conn += 1; s.ws.close(1000); }
    const gr = this.gameResults.get(0);
    if (this.fair && this.fairChecked !== gr.hands * this.seats.length) fail(`${this.fairChecked} fair deals checked, ${gr.hands} hand(s) of ${this.seats.length} seats`);
    if (this.fair && this.setsChecked !== gr.hands * this.seats.length) fail(`${this.setsChecked} commitment sets checked, ${gr.hands} hand(s) of ${this.seats.length} seats`);
    const extra = this.fair ? `fair (1.4, two rounds): ${this.setsChecked} commitment sets checked before revealing (own commitment, pinned server commitment, DEAL-11 hash recomputed), ${this.seedsChecked} seeds checked against the sets; ${this.fairChecked} seat-hands' deals recomputed by this client's own derivation (DEAL-6 .. DEAL-8) and checked (dealt cards, upcards, ${this.stockChecked || 0} stock draws, ${this.drawChecked || 0} cards of the draw), server seeds against their commitments, supplied seeds against DEAL-9` : this.reconnect ? `dropped mid-hand and reconnected ${dropped}x; resent a lost act (${resent.lost.action} at ${resent.lost.record}: applied, duplicate=${resent.lost.duplicate}) and an applied one (${resent.applied.action} at ${resent.applied.record}: duplicate=${resent.applied.duplicate})` : "";
    return { extra, tag: this.tag, files, acts, hands: gr.hands, winner: gr.winner, totals: gr.totals, records: offered.records, ms: Date.now() - t0, notes: this.notes, table: this.table };
  }
}

// ---------------------------------------------------------------- command line
function parseArgs(argv) {
  const o = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const k = a.slice(2);
      if (k === "reconnect") o.reconnect = true;
      else if (k === "fair") o.fair = true;
      else { if (i + 1 >= argv.length) fail(`${a} needs a value`); o[k] = argv[++i]; }
    } else o._.push(a);
  }
  return o;
}
const intArg = (v, name, dflt) => {
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v)) fail(`--${name} must be a whole number`);
  return Number(v);
};
const optionsFor = (o) => { const t = intArg(o.target, "target", 25); return t ? { target: t } : {}; };
const line = (kind, preset, r, verdict) =>
  `PASS ${kind} ${preset}: seed ${r.seed} table ${r.table || "engine"}, ${r.hands} hand(s), ${r.acts} acts, ${r.records} records, winner p${r.winner}, totals ${r.totals.join("-")}, ${r.ms} ms; ${r.files.length} log file(s) verified ${verdict}${r.extra ? `; ${r.extra}` : ""}`;

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const cmd = o._[0];
  // how to start `knock` for `knock verify`: --knock; else the --engine command without its last word when
  // that word is `engine` (`/path/knock engine` -> `/path/knock`); else `knock`
  const engineWords = o.engine ? splitCmd(o.engine) : [];
  const knockCmd = o.knock || (engineWords.length > 1 && engineWords[engineWords.length - 1] === "engine"
    ? engineWords.slice(0, -1).join(" ") : "knock");
  if (!["stdio", "ws", "all"].includes(cmd)) {
    console.error("usage: node client.mjs stdio --preset NAME --seed N --games K --out DIR [--engine CMD]\n" +
      "       node client.mjs ws --url http://HOST:PORT --preset NAME --seed N [--reconnect | --fair] --out DIR\n" +
      "       node client.mjs all --engine CMD --url http://HOST:PORT --out DIR [--knock CMD]\n" +
      "options everywhere: --target N (the game's target, 0: the preset's; default 25), --knock CMD");
    process.exit(2);
  }
  if (!o.out) fail("--out DIR is required");
  mkdirSync(o.out, { recursive: true });
  const options = optionsFor(o);
  const t0 = Date.now();
  if (cmd === "stdio") {
    const preset = o.preset || "standard", seed = intArg(o.seed, "seed", 1), games = intArg(o.games, "games", 1);
    const engine = new Engine(o.engine || "knock engine");
    try {
      const results = [];
      for (let g = 0; g < games; g++) {
        const r = await stdioGame(engine, { preset, seed: seed + g, options, outDir: o.out, tag: `stdio-${preset}-${seed + g}` });
        r.seed = seed + g;
        results.push(r);
      }
      await engine.quit();
      await verify(knockCmd, results.flatMap((r) => r.files));
      for (const r of results) console.log(line("stdio", preset, r, "pass"));
    } finally { await engine.quit(); }
  } else if (cmd === "ws") {
    if (!o.url) fail("--url is required");
    const base = o.url.replace(/\/+$/, "");
    const preset = o.preset || "standard", seed = intArg(o.seed, "seed", 1);
    const g = new WsGame(base, preset, seed, options, !!o.reconnect, o.out, `ws-${o.fair ? "fair-" : ""}${preset}-${seed}`, !!o.fair);
    const r = await g.play();
    r.seed = seed;
    await verify(knockCmd, r.files);
    for (const n of r.notes) console.error(`  ${n}`);
    console.log(line(o.fair ? "ws-fair" : "ws", preset, r, "pass"));
  } else {
    if (!o.url) fail("--url is required");
    const base = o.url.replace(/\/+$/, "");
    const api = await getApi(base);
    const presets = presetNames(api);
    if (presets.some((n) => typeof n !== "string") || new Set(presets).size !== presets.length) fail(`GET /api's presets have no distinct names: ${JSON.stringify(presets)}`);
    if (!presets.length) fail("the server offers no preset");
    const seed = intArg(o.seed, "seed", 7);
    // one engine plays every preset in turn (a `new` replaces the game, PROTO-15): one start of the program
    const engine = new Engine(o.engine || "knock engine");
    const stdioJobs = [];
    let chain = Promise.resolve();
    // PROTO-15: a client of 1.1 on knock engine plays the presets it knows (RULES-1's, PROTO-25's seat counts);
    // a preset a later minor adds is listed by GET /api but not played on knock engine
    const stdioPresets = presets.filter((n) => n in ENGINE_PRESETS);
    for (const n of presets) if (!(n in ENGINE_PRESETS)) console.error(`  preset ${n}: offered by the server, not one of protocol 1.1's; not played on knock engine (PROTO-15)`);
    if (!stdioPresets.length) fail("the server offers none of protocol 1.1's presets");
    for (const [i, preset] of stdioPresets.entries()) {
      chain = chain.catch(() => {}).then(async () => {
        const r = await stdioGame(engine, { preset, seed: seed + i, options, outDir: o.out, tag: `stdio-${preset}-${seed + i}`, rules: presetRules(api, preset) });
        r.seed = seed + i; r.kind = "stdio"; r.preset = preset;
        return r;
      });
      stdioJobs.push(chain.catch((e) => { throw new Failure(`stdio ${preset}: ${e.message}`); }));
    }
    const jobs = [...stdioJobs];
    const engineDone = chain.catch(() => {}).then(() => engine.quit());
    const wsPreset = presets.includes("standard") ? "standard" : presets[0];
    const wg = new WsGame(base, wsPreset, seed, options, true, o.out, `ws-${wsPreset}-${seed}`);
    jobs.push(wg.play().then((r) => Object.assign(r, { seed, kind: "ws", preset: wsPreset }), (e) => { throw new Failure(`ws ${wsPreset}: ${e.message}`); }));
    // protocol 1.3: a fair table (PROTO-35 .. PROTO-39), both seats sending their seeds and checking every deal
    const fg = new WsGame(base, wsPreset, seed + 1, options, false, o.out, `ws-fair-${wsPreset}-${seed + 1}`, true);
    jobs.push(fg.play().then((r) => Object.assign(r, { seed: seed + 1, kind: "ws-fair", preset: wsPreset }), (e) => { throw new Failure(`ws-fair ${wsPreset}: ${e.message}`); }));
    const settled = await Promise.allSettled(jobs);
    await engineDone;
    const bad = settled.filter((s) => s.status === "rejected");
    const ok = settled.filter((s) => s.status === "fulfilled").map((s) => s.value);
    const verdicts = ok.length ? await verify(knockCmd, ok.flatMap((r) => r.files)).catch((e) => e) : {};
    for (const r of ok) {
      for (const n of r.notes || []) console.error(`  ${n}`);
      if (verdicts instanceof Error) console.log(`FAIL ${r.kind} ${r.preset}: ${verdicts.message}`);
      else console.log(line(r.kind, r.preset, r, "pass"));
    }
    for (const b of bad) console.log(`FAIL ${b.reason.message}`);
    if (bad.length || verdicts instanceof Error) {
      console.log(`FAILED: ${bad.length + (verdicts instanceof Error ? 1 : 0)} problem(s), ${Date.now() - t0} ms`);
      process.exit(1);
    }
    console.log(`ALL PASSED: ${ok.length} games (${stdioPresets.length} stdio, 1 ws with reconnect and resend, 1 fair ws), ${Date.now() - t0} ms`);
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(`FAIL: ${e instanceof Failure ? e.message : e.stack || e}`);
  process.exit(1);
});
