// Checks knock/web/static/js/fair.js against spec/fair-vectors.json (tests/spec/test_fair_vectors.py runs it
// with Node 20): prints "ok" for each vector that matches, then "tamper-caught" when a changed seed fails the check.
import { readFileSync } from "node:fs";
import { commitment, dealCodes, drawCodes, fromHex, streamBytes, suppliedSeed, toHex, checkHand, DEAL } from "../../knock/web/static/js/fair.js";

const vectors = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const fail = (name, what, got, want) => {
  console.error(`${name}: ${what}: got ${got}, want ${want}`);
  process.exit(1);
};
for (const c of vectors.cases) {
  const server = fromHex(c.server);
  const seeds = c.seeds.map(fromHex);
  const com = toHex(await commitment(server));
  if (com !== c.commitment) fail(c.name, "commitment", com, c.commitment);
  for (const seat of c.supplied) {
    const got = toHex(await suppliedSeed(server, c.number, seat));
    if (got !== c.seeds[seat]) fail(c.name, `supplied seed of p${seat}`, got, c.seeds[seat]);
  }
  const stream = toHex(await streamBytes(server, seeds, DEAL, c.number, 96));
  if (stream !== c.stream) fail(c.name, "stream", stream, c.stream);
  const deal = (await dealCodes(server, seeds, c.number)).join(" ");
  if (deal !== c.deal.join(" ")) fail(c.name, "deal", deal, c.deal.join(" "));
  const draw = (await drawCodes(server, seeds, 0)).join(" ");
  if (draw !== c.draw.join(" ")) fail(c.name, "draw", draw, c.draw.join(" "));
  const check = await checkHand({ number: c.number, committed: fromHex(c.commitment), seeds, supplied: c.supplied, server, shown: Uint8Array.from(c.deal) });
  if (!check.ok) fail(c.name, "checkHand", check.reason, "ok");
  console.log("ok");
}
const c = vectors.cases[0];
const seeds = c.seeds.map(fromHex);
seeds[1] = seeds[1].slice();
seeds[1][0] ^= 1;
const check = await checkHand({ number: c.number, committed: fromHex(c.commitment), seeds, supplied: [], server: fromHex(c.server), shown: Uint8Array.from(c.deal) });
if (check.ok || check.rule !== "DEAL-10") fail(c.name, "a changed seed", JSON.stringify(check), "DEAL-10");
console.log("tamper-caught");
