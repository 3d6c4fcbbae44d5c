// Statements and receipts at a fair table (spec/rules.md DEAL-12, spec/protocol.md PROTO-47). This browser signs
// what it saw when it reveals a seed (its *statement*), with an Ed25519 key of its own made once per browser
// profile by Web Crypto, its private half not extractable, kept in IndexedDB; the server answers each commitment and
// seed it stores with a *receipt*, signed by the key it names in `welcome`, which this page checks here.
//
// A key is only as good as what checks it: a receipt is verified as Knock's verifier (replay/ed25519_verify.py)
// verifies a seal (LOG-17, LOG-18) — a key or `R` of small order, or not canonically encoded, and an `S` not below
// the group order are refused before Web Crypto is asked — so that a receipt this page takes is one a third party
// takes too.
import { concat, fromHex, toHex, u64 } from "./fair.js";

const subtle = globalThis.crypto?.subtle;
const ascii = (text) => new TextEncoder().encode(text);
const ED25519 = { name: "Ed25519" };
export const STATEMENT_LABEL = ascii("knock-fair-statement/1"); // 22 bytes
export const RECEIPT_LABEL = ascii("knock-fair-receipt/1"); // 20 bytes
const COMMIT_KIND = ascii("C");
const SEED_KIND = ascii("S");

/** DEAL-12's statement: the 87 bytes a seat signs when it reveals its seed for a commitment set. */
export function statementMessage(set, seat, seed) {
  return concat(STATEMENT_LABEL, set, [seat], seed);
}

/** DEAL-12's receipt of a seat's commitment: label ‖ "C" ‖ the server's commitment ‖ the hand number (8 bytes) ‖
 *  the seat ‖ the commitment. */
export function commitReceiptMessage(committed, number, seat, commitment) {
  return concat(RECEIPT_LABEL, COMMIT_KIND, committed, u64(number), [seat], commitment);
}

/** DEAL-12's receipt of a seat's seed: label ‖ "S" ‖ the set's hash ‖ the seat ‖ the seed. */
export function seedReceiptMessage(set, seat, seed) {
  return concat(RECEIPT_LABEL, SEED_KIND, set, [seat], seed);
}

// --- verifying (LOG-17, LOG-18's checks, then Web Crypto) -------------------------------------------------------

/** The canonical encodings of the eight points of small order (replay/ed25519_verify.py's SMALL_ORDER). */
export const SMALL_ORDER = new Set([
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0000000000000000000000000000000000000000000000000000000000000080",
  "0100000000000000000000000000000000000000000000000000000000000000",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
]);
/** x = 0 with the sign bit set: no canonical encoding (RFC 8032, 5.1.3). */
const NEGATIVE_ZERO_X = new Set([
  "0100000000000000000000000000000000000000000000000000000000000080",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
]);
const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n; // the group order
const Y_BITS = 2n ** 255n - 1n;

function littleEndian(bytes) {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/** Whether 32 bytes may name a point a verifier accepts: y below p, not x = 0 with the sign bit, not of small order
 *  (whether they name a point of the curve at all is Web Crypto's to say). */
function acceptablePoint(bytes) {
  const hex = toHex(bytes);
  return bytes.length === 32 && (littleEndian(bytes) & Y_BITS) < P && !SMALL_ORDER.has(hex) && !NEGATIVE_ZERO_X.has(hex);
}

/** Whether 32 bytes are a public key a verifier accepts (LOG-17), as far as this page can tell before importing it. */
export function isPublicKey(bytes) {
  return bytes instanceof Uint8Array && acceptablePoint(bytes);
}

/** Whether ``signature`` (64 bytes) is ``publicKey``'s (32 bytes) Ed25519 signature of ``message`` (RFC 8032,
 *  cofactorless), refusing what LOG-18 refuses: a key or an R not canonical or of small order, an S not below L.
 *  False, never an exception, for anything that does not verify (Web Crypto without Ed25519 included). */
export async function verify(publicKey, message, signature) {
  if (!(publicKey instanceof Uint8Array) || !(signature instanceof Uint8Array)) return false;
  if (publicKey.length !== 32 || signature.length !== 64 || !isPublicKey(publicKey)) return false;
  if (!acceptablePoint(signature.slice(0, 32)) || littleEndian(signature.slice(32)) >= L) return false;
  try {
    const key = await subtle.importKey("raw", publicKey, ED25519, false, ["verify"]);
    return await subtle.verify(ED25519, key, signature, message);
  } catch {
    return false;
  }
}

// --- the server's receipts (PROTO-47) --------------------------------------------------------------------------

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;
const short = (text) => `${String(text).slice(0, 16)}…`;

/** What is wrong with ``key``, the receipts key a fair table's `welcome` names (PROTO-47), given ``pinned``, the one
 *  the first `welcome` for the table named (hex; undefined where none was valid): null when it may be pinned or is
 *  the one pinned, else why not. A key that may change proves nothing with its receipts. */
export function receiptsKeyProblem(pinned, key) {
  if (pinned === undefined) {
    if (typeof key === "string" && HEX64.test(key) && isPublicKey(fromHex(key))) return null;
    return "the server named no valid key for its receipts when this page joined the table, so no receipt it gives "
      + "can be checked";
  }
  if (key === pinned) return null;
  return `the server named another key for its receipts (${typeof key === "string" ? short(key) : key}) than the `
    + `one it named when this page first joined the table (${short(pinned)}): receipts by a key that changes prove `
    + "nothing";
}

/** What is wrong with a receipt (PROTO-47) the server sent with ``what`` ("commitment" or "seed"), checked against
 *  ``message`` (null where this page did not see what it is of) with ``key``, the receipts key the server named at
 *  the first `welcome` (hex; undefined where it named none): null when it verifies, else why not. */
export async function receiptProblem(key, receipt, message, what) {
  if (receipt === undefined || receipt === null) {
    return `the server acknowledged your ${what} without its receipt, so this page holds no proof that it stored it`;
  }
  if (typeof receipt !== "string" || !HEX128.test(receipt)) {
    return `the server's receipt of your ${what} is not a signature of 128 hex digits`;
  }
  if (key === undefined) {
    return `the server sent a receipt of your ${what} but named no key for its receipts when this page joined the `
      + "table, so it cannot be checked";
  }
  if (message === null) {
    return `this page cannot check the server's receipt of your ${what}: it did not see what the receipt is of`;
  }
  if (!(await verify(fromHex(key), message, fromHex(receipt)))) {
    return `the server's receipt of your ${what} does not verify with the key it named for its receipts `
      + `(${short(key)}): it is no proof that the server stored it`;
  }
  return null;
}

// --- this browser's statement key ------------------------------------------------------------------------------

const DB = "knock-fair";
const STORE = "keys";
const KEY_NAME = "statement/1";

/** The browser's IndexedDB as a key store (``get(name)``, ``put(name, value)``, both promises), or null where there
 *  is none. CryptoKey objects are structured-cloneable: the private key is stored as it is, never exported. */
export function indexedStore(idb = globalThis.indexedDB) {
  if (!idb) return null;
  const open = () => new Promise((resolve, reject) => {
    const req = idb.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error("IndexedDB is blocked"));
  });
  const run = async (mode, act) => {
    const db = await open();
    try {
      return await new Promise((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = act(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  };
  return {
    get: (name) => run("readonly", (s) => s.get(name)),
    put: (name, value) => run("readwrite", (s) => s.put(value, name)),
  };
}

/** A key store in memory (for Node, which has no IndexedDB): what a reload of the same profile keeps. */
export class MemoryStore {
  constructor() { this.items = new Map(); }
  async get(name) { return this.items.get(name); }
  async put(name, value) { this.items.set(name, value); }
}

const isPair = (pair) => Boolean(pair && pair.publicKey && pair.privateKey && pair.privateKey.type === "private"
  && pair.privateKey.algorithm?.name === "Ed25519" && pair.privateKey.usages?.includes("sign"));

const within = (promise, ms) => new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("the key store did not answer")), ms);
  promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
});

/** This browser profile's statement key (PROTO-47): the one kept in ``store``, else one made now (Ed25519, its
 *  private half not extractable) and kept there. Gives ``{ publicKey, sign(message) }`` — the raw public key in 64
 *  lowercase hex digits, and a signature of the bytes given (a promise of 64 bytes) — or null where there is no
 *  store, no Ed25519 in Web Crypto, or the store does not answer within ``wait`` ms: the page then reveals unsigned. */
export async function statementKey({ store = indexedStore(), wait = 5000 } = {}) {
  if (!store || !subtle) return null;
  const find = async () => {
    let pair = await store.get(KEY_NAME);
    if (!isPair(pair)) {
      pair = await subtle.generateKey(ED25519, false, ["sign", "verify"]);
      await store.put(KEY_NAME, pair);
    }
    const raw = new Uint8Array(await subtle.exportKey("raw", pair.publicKey));
    if (raw.length !== 32) return null;
    const { privateKey } = pair;
    return {
      publicKey: toHex(raw),
      sign: async (message) => new Uint8Array(await subtle.sign(ED25519, privateKey, message)),
    };
  };
  try {
    return await within(find(), wait);
  } catch {
    return null;
  }
}

/** The statement (DEAL-12) ``signer`` makes for revealing ``seed`` (hex) at ``seat`` for the set ``set`` (hex):
 *  128 lowercase hex digits. */
export async function statement(signer, set, seat, seed) {
  return toHex(await signer.sign(statementMessage(fromHex(set), seat, fromHex(seed))));
}
