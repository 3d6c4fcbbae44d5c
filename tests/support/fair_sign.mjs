// The page's Ed25519 verification (knock/web/static/js/fairsign.js ``verify``, which checks the server's receipts,
// PROTO-47) on test vectors that tests/web/test_fair_page.py hands it: it must take what Knock's verifier takes and
// refuse what it refuses (LOG-17, LOG-18; spec/signature-vectors.json).
//
// stdin: [{"public": hex, "message": hex, "signature": hex}, ...]    stdout: [true | false, ...]
import { fromHex } from "../../knock/web/static/js/fair.js";
import { verify } from "../../knock/web/static/js/fairsign.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const vectors = JSON.parse(Buffer.concat(chunks).toString("utf-8"));
const out = [];
for (const v of vectors) out.push(await verify(fromHex(v.public), fromHex(v.message), fromHex(v.signature)));
console.log(JSON.stringify(out));
