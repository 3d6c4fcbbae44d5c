// Compile the table protocol's schema with Ajv in strict mode, then validate values against its definitions.
//
//     node check.mjs SCHEMA.json < pairs.jsonl
//
// Each input line is [definition, value] (e.g. ["server_message", {...}]); each output line is "ok" or the
// first error. Exit status: 0 when the schema compiled (whatever the values), 2 when it did not.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import Ajv2020 from "ajv/dist/2020.js";

const schema = JSON.parse(readFileSync(process.argv[2], "utf8"));
const ajv = new Ajv2020({ strict: true, allErrors: false });
let validators;
try {
  ajv.addSchema(schema);
  ajv.compile(schema);
  validators = new Map();
  for (const name of Object.keys(schema.$defs)) {
    validators.set(name, ajv.getSchema(`${schema.$id}#/$defs/${name}`));
  }
} catch (err) {
  console.log(`schema does not compile: ${err.message}`);
  process.exit(2);
}
console.log("compiled");
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const [name, value] = JSON.parse(line);
  const validate = validators.get(name);
  if (validate === undefined) {
    console.log(`no definition ${name}`);
  } else if (validate(value)) {
    console.log("ok");
  } else {
    const e = validate.errors[0];
    console.log(`${e.instancePath || "/"} ${e.message} (${e.schemaPath})`);
  }
}
