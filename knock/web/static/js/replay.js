// Replay mode: a transcript (made in Python: the verdict, the digest, the records from each perspective)
// stepped through with a slider, buttons and the keys ←/→, Home/End. Nothing here decodes a log. A server's
// transcript comes in pages (PROTO-18): the last records from the first perspective, then each page as it is
// needed; ``knock view``'s file holds its whole transcript.
import { announce, fill, h, seatName } from "./dom.js";
import { renderBoard } from "./board.js";
import { renderSheet } from "./sheet.js";

const VERDICTS = { pass: "Pass", unfinished: "Unfinished", fail: "Fail" };

/** The view of ``step`` from perspective ``key``, with its score sheet put back. */
export function stepView(t, step, key) {
  const at = step.views[key];
  if (at === null || at === undefined) return null;
  const body = { ...t.views[at] };
  body.sheet = t.sheets[body.sheet];
  return body;
}

function verdictBox(t) {
  const v = t.verdict;
  return h("div", { class: `verdict verdict-${v.verdict}`, role: "status", "aria-label": `verdict: ${v.verdict}` },
    h("p", {}, h("strong", {}, `Verdict: ${VERDICTS[v.verdict] || v.verdict}`), " — ", v.summary),
    v.verdict === "fail" && v.record !== null
      ? h("p", {}, `The log goes wrong at record ${v.record}${v.rule ? `, under ${v.rule}` : ""}; the replay below stops before it.`)
      : null);
}

const PAGE = 200;

/** The steps of a transcript by perspective and index: those ``t`` holds, and the pages ``more`` fetches. */
function stepStore(t, more) {
  const keys = t.perspectives.map((p) => p.key);
  const held = new Map(keys.map((k) => [k, new Map()]));
  const asked = new Map();
  const add = (page) => {
    for (const k of page.perspective === null || page.perspective === undefined ? keys : [page.perspective]) {
      const into = held.get(k);
      if (!into) continue;
      page.steps.forEach((step, i) => into.set((page.start || 0) + i, { step, view: stepView(page, step, k) }));
    }
  };
  add(t);
  return {
    total: more ? t.total : t.steps.length,
    get: (k, i) => held.get(k)?.get(i),
    /** Fetch the page of step ``i`` from ``k`` (once); resolves when it is held, or could not be. */
    load(k, i) {
      if (!more) return Promise.resolve(false);
      const start = Math.floor(i / PAGE) * PAGE;
      const name = `${k} ${start}`;
      if (!asked.has(name)) {
        asked.set(name, more(k, start, PAGE).then((page) => { add(page); return true; },
          (err) => { announce(`The records could not be fetched: ${err.message}`); return false; }));
      }
      return asked.get(name);
    },
  };
}

function facts(t, total) {
  const head = t.header;
  return h("dl", { class: "facts replay-facts" },
    h("dt", {}, "Digest (LOG-6)"), h("dd", {}, h("code", { class: "digest" }, t.digest || "none (the log fails before its digest)")),
    h("dt", {}, "SHA-256 of the file"), h("dd", {}, h("code", { class: "digest" }, t.sha256)),
    h("dt", {}, "Size"), h("dd", {}, `${t.bytes} bytes, ${total} records drawn${t.truncated && total === t.steps.length ? ` (the first ${t.max_steps} only)` : ""}`),
    head ? [h("dt", {}, "Players"), h("dd", {}, head.players.map((p, i) => seatName(head.players, i)).join(", "))] : null,
    head ? [h("dt", {}, "Rules"), h("dd", {}, `${head.rules.name}, to ${head.rules.target}`)] : null,
    head && head.view !== null ? [h("dt", {}, "A per-seat view"), h("dd", {}, `of p${head.view}: what that seat saw`)] : null,
    t.problem ? [h("dt", {}, "Note"), h("dd", {}, t.problem)] : null);
}

/** Show transcript ``t`` in ``root`` (``more(key, start, count)``: a promise of a page of it, for a server's
 * transcript); returns a function that stops listening to the keys. */
export function showTranscript(root, t, { title = null, more = null } = {}) {
  const players = t.header ? t.header.players : [];
  const store = stepStore(t, more);
  const total = store.total;
  let index = total ? total - 1 : 0;
  let key = t.perspective || (t.perspectives.length ? t.perspectives[0].key : null);
  const perspective = h("select", { id: "perspective", name: "perspective" },
    t.perspectives.map((p) => h("option", { value: p.key, selected: p.key === key ? true : null }, p.label)));
  const slider = h("input", { id: "step", type: "range", min: "0", max: String(Math.max(0, total - 1)), step: "1",
    value: String(index), disabled: total ? null : true });
  const where = h("p", { class: "where", id: "step-where", "aria-live": "polite" });
  const board = h("div", { class: "replay-board" });
  const events = h("ol", { class: "events", "aria-label": "Events of this hand so far", tabindex: "0" });
  const sheet = h("div", { class: "sheet-box" });
  const button = (label, text, go) => h("button", { type: "button", "aria-label": label, onclick: () => go(), disabled: total ? null : true }, text);
  slider.setAttribute("aria-describedby", "step-where");

  fill(root, h("section", { class: "replay", "aria-labelledby": "replay-title" },
    h("h2", { id: "replay-title" }, title || `Replay${t.name ? `: ${t.name}` : ""}`),
    verdictBox(t), facts(t, total),
    h("div", { class: "replay-controls" },
      h("div", { class: "field" }, h("label", { for: "perspective" }, "Perspective"), perspective),
      h("div", { class: "stepper", role: "group", "aria-label": "Step through the records" },
        button("first record", "◀◀ First", () => go(0)), button("previous record", "◀ Previous", () => go(index - 1)),
        button("next record", "Next ▶", () => go(index + 1)), button("last record", "Last ▶▶", () => go(total - 1))),
      h("div", { class: "field slider" }, h("label", { for: "step" }, "Record"), slider),
      h("p", { class: "hint" }, "Keys: ← and → step one record, Home and End go to the first and the last.")),
    where,
    h("div", { class: "layout" }, h("div", { class: "main-col" }, board),
      h("aside", { class: "side-col", "aria-label": "Record" },
        h("section", { class: "log", "aria-labelledby": "replay-log-title" }, h("h3", { id: "replay-log-title" }, "Events"), events),
        sheet))));

  /** Fetch what step ``i`` from ``k`` needs (its page, and the page before for its hand's events), then draw. */
  function fetchFor(k, i) {
    const wanted = [store.get(k, i) ? null : store.load(k, i),
      i > 0 && !store.get(k, i - 1) && store.get(k, i) ? store.load(k, i - 1) : null].filter(Boolean);
    if (wanted.length) Promise.all(wanted).then((done) => { if (done.some(Boolean) && k === key) draw(); });
  }

  function draw() {
    if (!total) {
      fill(where, "No record to show.");
      fill(board, h("p", { class: "muted" }, "The log could not be read far enough to draw any record."));
      return;
    }
    slider.value = String(index);
    const entry = store.get(key, index);
    fetchFor(key, index);
    if (!entry) {
      slider.setAttribute("aria-valuetext", `record ${index + 1}`);
      fill(where, h("strong", {}, "Record …"), ` (${index + 1} of ${total}): fetching it from the server…`);
      fill(board, h("p", { class: "muted" }, "Fetching this record…"));
      fill(sheet, null);
      fill(events, []);
      return;
    }
    const step = entry.step;
    slider.setAttribute("aria-valuetext", `record ${step.record}: ${step.label}`);
    fill(where, h("strong", {}, `Record ${step.record}`), ` (${index + 1} of ${total}), hand ${step.hand || "—"}: `, step.label);
    const view = entry.view;
    fill(board, view ? renderBoard(view, { players, title: `The hand of ${seatName(players, view.you)}` })
      : h("p", { class: "muted" }, "Before the first deal: the draw for the first dealer."));
    fill(sheet, view ? renderSheet(view.sheet, players, view.scores.length) : null);
    const lines = [];
    for (let i = index; i >= 0 && lines.length < 60; i--) {
      const s = store.get(key, i);
      if (!s || s.step.hand !== step.hand) break;
      const texts = (s.step.events[key] || []).slice().reverse();
      for (const text of texts) lines.push(h("li", { class: i === index ? "current" : null }, text));
    }
    fill(events, lines.reverse());
  }

  function go(i) {
    if (!total) return;
    index = Math.max(0, Math.min(total - 1, i));
    draw();
  }

  perspective.addEventListener("change", () => {
    key = perspective.value;
    draw();
    announce(`Perspective: ${perspective.selectedOptions[0].textContent}`);
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const keys = (event) => {
    const target = event.target;
    if (target && target.closest && target.closest("input, select, textarea")) return; // their own keys
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: total - 1 };
    if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    go(moves[event.key]);
  };
  document.addEventListener("keydown", keys);
  draw();
  return () => document.removeEventListener("keydown", keys);
}

/** Ask the server to verify a log's bytes and draw a page of it (``POST /api/replay``, PROTO-18): by default the
 * last records from the log's first perspective. */
export async function transcriptOf(bytes, name, { perspective = null, start = null, count = PAGE } = {}) {
  const query = new URLSearchParams({ name: name || "", count: String(count) });
  if (perspective !== null) query.set("perspective", perspective);
  if (start !== null) query.set("start", String(start));
  const response = await fetch(`/api/replay?${query}`, {
    method: "POST", headers: { "content-type": "application/x-knock-log" }, body: bytes });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((body.error && body.error.message) || response.statusText);
  return body;
}

/** Replay mode with a loader: a ``.knock`` file (chosen or dropped) or a stored game (``table``). */
export function openReplay(root, { table = null } = {}) {
  let stop = () => {};
  const input = h("input", { id: "log-file", type: "file", accept: ".knock,application/x-knock-log" });
  const drop = h("div", { class: "drop", tabindex: "-1" }, "…or drop a .knock file here.");
  const status = h("p", { class: "status", role: "status" });
  const shown = h("div", { class: "replay-shown" });
  fill(root, h("section", { class: "replay-loader", "aria-labelledby": "loader-title" },
    h("h2", { id: "loader-title" }, "Replay a game"),
    h("p", {}, "Any Knock log or per-seat view: the server verifies it (strict replay) and draws every record."),
    h("div", { class: "field" }, h("label", { for: "log-file" }, "Open a .knock log"), input), drop, status),
    shown);

  async function load(bytes, name) {
    fill(status, `Verifying ${name}…`);
    try {
      const t = await transcriptOf(bytes, name);
      stop();
      const more = (perspective, start, count) => transcriptOf(bytes, name, { perspective, start, count });
      stop = showTranscript(shown, t, { more });
      fill(status, `${name}: ${t.verdict.summary}`);
    } catch (err) {
      fill(status, `${name} could not be replayed: ${err.message}`);
    }
  }
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (file) load(await file.arrayBuffer(), file.name);
  });
  for (const kind of ["dragenter", "dragover"]) drop.addEventListener(kind, (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const file = e.dataTransfer.files[0];
    if (file) load(await file.arrayBuffer(), file.name);
  });
  if (table) {
    (async () => {
      fill(status, `Fetching the log of table ${table}…`);
      const response = await fetch(`/api/tables/${encodeURIComponent(table)}/log`);
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        fill(status, `The log of table ${table} is not available: ${(body.error && body.error.message) || response.statusText}`);
        return;
      }
      load(await response.arrayBuffer(), `${table}.knock`);
    })();
  }
  return () => stop();
}
