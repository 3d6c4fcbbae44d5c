// A fair hand's commitment set (spec/rules.md DEAL-11, spec/protocol.md PROTO-45): what a seat checks of the
// server's `fair_set` before it reveals its seed, and of the seeds it is shown once the hand is dealt. Each check
// gives, in plain words, why the set or the seeds are not what DEAL-11 allows, or null when they are.
import { fromHex, seatCommitment, setHash, toHex } from "./fair.js";

const HEX = /^[0-9a-f]{64}$/;
const hex = (text) => typeof text === "string" && HEX.test(text);
const short = (text) => `${String(text).slice(0, 16)}…`;

/** What is wrong with a `fair_set` frame as such: its shape, its server commitment against ``pinned`` (the one the
 *  hand's first `fair_commit` named; undefined where this page saw none) and its hash. */
export async function setProblem(m, pinned) {
  if (!hex(m.commitment) || !hex(m.set) || !Array.isArray(m.commitments) || m.commitments.length < 2
    || m.commitments.length > 3 || !m.commitments.every(hex)) {
    return "the commitment set is not a commitment of 64 hex digits from the server and from each seat of the game, "
      + "with its hash";
  }
  if (pinned !== undefined && m.commitment !== pinned) {
    return `the commitment set names another server commitment (${short(m.commitment)}) than the one the server sent `
      + `first for this hand (${short(pinned)}): a server that may change its commitment can choose the deck`;
  }
  const want = toHex(await setHash(m.hand, fromHex(m.commitment), m.commitments.map(fromHex)));
  if (m.set !== want) return "the commitment set's hash is not the hash of its commitments";
  return null;
}

/** The same set twice: the server's commitment, every seat's, and the hash. */
export const sameSet = (a, b) => a.commitment === b.commitment && a.set === b.set
  && a.commitments.length === b.commitments.length && a.commitments.every((c, i) => c === b.commitments[i]);

/** What is wrong with a hand's seeds (hex, seat order) against its pinned ``set``: each seat's seed must be the
 *  one it committed to before any seed was revealed. ``seat``: this page's (its seed is "your seed"). */
export async function seedsProblem(set, number, seeds, seat = null) {
  if (!Array.isArray(seeds) || seeds.length !== set.commitments.length || !seeds.every(hex)) {
    return "the deal's seeds are not one seed of 64 hex digits for each seat of the commitment set";
  }
  const committed = fromHex(set.commitment);
  for (const [s, seed] of seeds.entries()) {
    if (toHex(await seatCommitment(committed, number, s, fromHex(seed))) !== set.commitments[s]) {
      const whose = s === seat ? "your seat's seed" : `p${s}'s seed`;
      return `${whose} is not the one committed to before any seed was revealed: a seed changed once the others `
        + "are known can choose the deck";
    }
  }
  return null;
}
