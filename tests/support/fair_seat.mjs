// A malicious server driven against the page's own fair-dealing code (knock/web/static/js/fairseat.js, issue #57's
// 1.3 hotfix): Node runs the page's modules and feeds them forged frames. Prints one JSON object: for each
// scenario, the hand's check as the page shows it ({ ok, text }). tests/web/test_fair_page.py runs it with Node 20.
import { FairSeat } from "../../knock/web/static/js/fairseat.js";
import { commitment, drawCodes, fromHex, suppliedSeed, toHex } from "../../knock/web/static/js/fair.js";

/** A stand-in for the browser's localStorage (what a reload keeps). */
class Storage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

const random = () => globalThis.crypto.getRandomValues(new Uint8Array(32));
const TABLE = "t-forged";
const HAND = 1;

/** A server's seed for the hand and its commitment, as an honest or a cheating server makes them. */
async function serverSeed() {
  const server = random();
  return { server, commitment: toHex(await commitment(server)) };
}

/** The reveal frame of a hand whose seat 0 sent ``own`` (or is supplied) and seat 1 is the server's bot. */
async function revealFrame(s, own, { suppliedSeats = [1] } = {}) {
  const seeds = [];
  for (const seat of [0, 1]) {
    seeds.push(suppliedSeats.includes(seat) ? toHex(await suppliedSeed(s.server, HAND, seat)) : own);
  }
  return { type: "fair_reveal", seat: 0, hand: HAND, commitment: s.commitment, seeds, supplied: suppliedSeats, server: toHex(s.server) };
}

const commitFrame = (s) => ({ type: "fair_commit", table: TABLE, hand: HAND, commitment: s.commitment, timeout: 10, left: 10 });
const out = {};

{ // an honest server: the check passes
  const page = new FairSeat(0, { table: TABLE, storage: new Storage() });
  const s = await serverSeed();
  const sent = page.commit(commitFrame(s));
  page.seedTaken({ hand: HAND, seat: 0, seed: sent.seed });
  out.honest = await page.reveal(await revealFrame(s, sent.seed));
}
{ // the server commits again with another value after the seat's seed, and reveals the second seed
  const page = new FairSeat(0, { table: TABLE, storage: new Storage() });
  const first = await serverSeed();
  const sent = page.commit(commitFrame(first));
  const second = await serverSeed();
  out.recommit_answer = page.commit(commitFrame(second)); // null: no second seed for a changed commitment
  out.recommit = await page.reveal(await revealFrame(second, sent.seed));
}
{ // the server acknowledges the seat's seed, then deals from a seed it supplied for the seat
  const page = new FairSeat(0, { table: TABLE, storage: new Storage() });
  const s = await serverSeed();
  const sent = page.commit(commitFrame(s));
  page.seedTaken({ hand: HAND, seat: 0, seed: sent.seed });
  out.dropped = await page.reveal(await revealFrame(s, null, { suppliedSeats: [0, 1] }));
}
{ // a reload: the page comes back with its storage, and checks the hand as if it had never left
  const storage = new Storage();
  const s = await serverSeed();
  const sent = new FairSeat(0, { table: TABLE, storage }).commit(commitFrame(s));
  const reloaded = new FairSeat(0, { table: TABLE, storage });
  out.reload_resend = reloaded.commit(commitFrame(s)); // the same commitment again: no second seed
  reloaded.seedTaken({ hand: HAND, seat: 0, seed: sent.seed });
  out.reload = await reloaded.reveal(await revealFrame(s, sent.seed));
}
{ // a reload, and then the server changes its commitment: the pinned one survived the reload
  const storage = new Storage();
  const s = await serverSeed();
  const sent = new FairSeat(0, { table: TABLE, storage }).commit(commitFrame(s));
  const reloaded = new FairSeat(0, { table: TABLE, storage });
  const other = await serverSeed();
  reloaded.commit(commitFrame(other));
  out.reload_recommit = await reloaded.reveal(await revealFrame(other, sent.seed));
}
{ // a reload that lost what the page kept: it saw the commitment only in a view, after the deal
  const s = await serverSeed();
  const sent = new FairSeat(0, { table: TABLE, storage: new Storage() }).commit(commitFrame(s));
  const forgetful = new FairSeat(0, { table: TABLE, storage: new Storage() });
  forgetful.view({ fair: { hand: HAND, commitment: s.commitment, seeds: null, supplied: [], server: null },
    view: { dealer: 1, upcard: null, seats: [0, 1], cards: [] }, events: [] });
  out.lost = await forgetful.reveal(await revealFrame(s, sent.seed));
}
{ // a reload that lost it while the seeds are still gathered: the page's new seed is refused as a second one
  const s = await serverSeed();
  const sent = new FairSeat(0, { table: TABLE, storage: new Storage() }).commit(commitFrame(s));
  const forgetful = new FairSeat(0, { table: TABLE, storage: new Storage() });
  forgetful.commit(commitFrame(s));
  forgetful.seedRefused();
  out.lost_gathering = await forgetful.reveal(await revealFrame(s, sent.seed));
}
{ // a revealed server seed that matches no commitment the page was sent
  const page = new FairSeat(0, { table: TABLE, storage: new Storage() });
  const s = await serverSeed();
  const sent = page.commit(commitFrame(s));
  const other = await serverSeed();
  out.unmatched = await page.reveal({ ...(await revealFrame(other, sent.seed)), commitment: s.commitment });
}
{ // no storage at all (a browser that refuses it): the hand is still checked within the page's life
  const page = new FairSeat(0, { table: TABLE, storage: null });
  const s = await serverSeed();
  const sent = page.commit(commitFrame(s));
  out.no_storage = await page.reveal(await revealFrame(s, sent.seed));
}
{ // the draw for the deal (1.4: in a view's `draw`) checked at the first hand's reveal, honest and forged
  const text = (code) => "A23456789TJQK"[code % 13] + "cdhs"[Math.floor(code / 13)];
  for (const forged of [false, true]) {
    const page = new FairSeat(0, { table: TABLE, storage: new Storage() });
    const s = await serverSeed();
    const sent = page.commit(commitFrame(s));
    const reveal = await revealFrame(s, sent.seed);
    const draw = (await drawCodes(s.server, reveal.seeds.map(fromHex), 0)).slice(0, 2).map(text);
    if (forged) draw.reverse(); // the server shows p0 the card the seeds gave p1, and p1 p0's
    page.view({ fair: { hand: HAND, commitment: s.commitment, seeds: reveal.seeds, supplied: [1], server: null },
      view: { dealer: 1, upcard: null, seats: [0, 1], cards: [] }, events: [], draw: [{ seats: [0, 1], cards: draw }] });
    out[forged ? "draw_forged" : "draw_honest"] = await page.reveal(reveal);
  }
}
console.log(JSON.stringify(out));
