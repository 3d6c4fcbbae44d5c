// The lobby: make a table (any preset, any option, people or bots in each seat), get its links; list tables.
import { announce, fill, h, seatName } from "./dom.js";

async function getJSON(url, init) {
  const response = await fetch(url, init);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const e = body.error || {};
    throw new Error(`${e.rule ? `${e.rule}: ` : ""}${e.message || response.statusText}`);
  }
  return body;
}

function words(name) {
  return name.replaceAll("_", " ");
}

/** One rule-set option's control, from its description in ``GET /api`` and the preset's value. */
function optionField(name, spec, value) {
  const id = `opt-${name}`;
  let input;
  if (spec.choices) {
    input = h("select", { id, name }, spec.choices.map((c) => h("option", { value: c, selected: c === value || null }, words(String(c)))));
  } else if (typeof spec.default === "boolean") {
    input = h("input", { id, name, type: "checkbox", checked: value || null });
  } else {
    input = h("input", { id, name, type: "number", step: "1", value: value === null ? "" : String(value),
      placeholder: value === null ? "none" : null, "data-nullable": spec.default === null ? "1" : null });
  }
  return h("div", { class: "field" }, h("label", { for: id }, words(name)), input);
}

function readOption(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.type === "number") return input.value === "" ? null : Number(input.value);
  return input.value;
}

/** Each bot in a few words, weakest first among the levels (docs/bots.md); a bot the server lists and this page
 *  does not know is shown by its name. */
const BOT_WORDS = {
  random: "any legal move (for testing)",
  greedy: "grabs what lowers its deadwood now (a beginner)",
  heuristic: "builds melds, watches your pickups (a steady player)",
  easy: "searches a little, often misled by luck",
  medium: "searches more",
  hard: "the heuristic player's moves",
  expert: "the deepest search (the strongest)",
};

function seatFieldset(i, bots) {
  const kind = h("select", { id: `seat-${i}-player`, name: `seat-${i}-player` },
    h("option", { value: "human", selected: i === 0 || null }, "a person"),
    h("option", { value: "bot", selected: i !== 0 || null }, "a bot"));
  const name = h("input", { id: `seat-${i}-name`, name: `seat-${i}-name`, type: "text", value: i === 0 ? "you" : "",
    maxlength: "64", autocomplete: "off" });
  const bot = h("select", { id: `seat-${i}-bot`, name: `seat-${i}-bot` },
    bots.map((b) => h("option", { value: b }, BOT_WORDS[b] ? `${b}: ${BOT_WORDS[b]}` : b)));
  return h("fieldset", { class: "seat-spec", "data-seat": i }, h("legend", {}, `Seat p${i}`),
    h("div", { class: "field" }, h("label", { for: kind.id }, "Player"), kind),
    h("div", { class: "field" }, h("label", { for: name.id }, "Name"), name),
    h("div", { class: "field" }, h("label", { for: bot.id }, "Bot (for a bot's seat)"), bot));
}

export async function openLobby(root) {
  const created = h("div", { class: "created", "aria-live": "polite" });
  const list = h("div", { class: "table-list" });
  const formBox = h("div", {}, h("p", {}, "Loading the server's presets…"));
  fill(root, h("section", { class: "lobby", "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title" }, "Lobby"),
    h("p", {}, "Make a table, then open each person's link in their browser (the link is their seat's key: share it only with them). ",
      h("a", { href: "#replay" }, "Replay a log"), " to step through a finished game."),
    h("div", { class: "lobby-cols" },
      h("section", { "aria-labelledby": "new-title" }, h("h3", { id: "new-title" }, "New table"), formBox, created),
      h("section", { "aria-labelledby": "list-title" }, h("h3", { id: "list-title" }, "Tables"),
        h("button", { type: "button", onclick: () => refresh() }, "Refresh the list"), list))));

  let info;
  try {
    info = await getJSON("/api");
  } catch (err) {
    fill(formBox, h("p", { role: "alert" }, `Cannot reach the server: ${err.message}`));
    return () => {};
  }
  const presetSelect = h("select", { id: "preset", name: "preset" },
    Object.keys(info.presets).map((p) => h("option", { value: p }, words(p))));
  const optionsBox = h("div", { class: "options" });
  const seatsBox = h("div", { class: "seats-specs" });
  const seed = h("input", { id: "seed", name: "seed", type: "number", min: "0", step: "1", placeholder: "random" });
  const delay = h("input", { id: "bot-delay", name: "bot_delay", type: "number", min: "0", max: "10", step: "0.1", value: "0.5" });
  const timeout = h("input", { id: "turn-timeout", name: "turn_timeout", type: "number", min: "1", step: "1", placeholder: "off" });
  const fair = h("input", { id: "fair", name: "fair", type: "checkbox" });
  const error = h("div", { class: "form-error", role: "alert" });

  function showPreset() {
    const rules = info.presets[presetSelect.value];
    fill(optionsBox, Object.entries(info.options).filter(([name]) => name !== "players")
      .map(([name, spec]) => optionField(name, spec, rules[name])));
    fill(seatsBox, [...Array(rules.players).keys()].map((i) => seatFieldset(i, info.bots)));
  }
  presetSelect.addEventListener("change", showPreset);

  async function create(event) {
    event.preventDefault();
    fill(error);
    const rules = info.presets[presetSelect.value];
    const options = {};
    for (const input of optionsBox.querySelectorAll("input, select")) {
      const value = readOption(input);
      if (value !== rules[input.name]) options[input.name] = value;
    }
    const seats = [...seatsBox.querySelectorAll("fieldset")].map((fs) => {
      const i = fs.dataset.seat;
      const player = fs.querySelector(`#seat-${i}-player`).value;
      const name = fs.querySelector(`#seat-${i}-name`).value.trim();
      return player === "bot"
        ? { player, bot: fs.querySelector(`#seat-${i}-bot`).value, ...(name ? { name } : {}) }
        : { player, ...(name ? { name } : {}) };
    });
    const body = { preset: presetSelect.value, options, seats, bot_delay: Number(delay.value || 0) };
    if (seed.value !== "") body.seed = Number(seed.value);
    if (timeout.value !== "") body.turn_timeout = Number(timeout.value);
    body.fair = fair.checked; // PROTO-35: every deck from the server's committed seed and each seat's seed
    try {
      const made = await getJSON("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      showCreated(made);
      refresh();
    } catch (err) {
      fill(error, h("p", {}, `The table was not made: ${err.message}`));
    }
  }

  function showCreated(made) {
    const names = made.seats.map((s) => s.name);
    fill(created, h("section", { class: "links", "aria-labelledby": "links-title" },
      h("h4", { id: "links-title" }, made.seed === null ? `Table ${made.table} is ready`
        : `Table ${made.table} is ready (seed ${made.seed}, which you chose: whoever knows it knows every card)`),
      h("p", {}, "These links are shown only once: each is a seat's key."),
      h("ul", {}, made.seats.filter((s) => s.link).map((s) => {
        const url = new URL(s.link, location.href).href;
        return h("li", {}, h("a", { href: s.link, class: "seat-link" }, `Play ${seatName(names, s.seat)}`), " ",
          h("input", { type: "text", readonly: true, value: url, "aria-label": `capability link of ${seatName(names, s.seat)}`, class: "link-text" }),
          " ", h("button", { type: "button", onclick: () => copy(url) }, `Copy the link of ${seatName(names, s.seat)}`));
      })),
      h("p", {}, h("a", { href: made.spectate }, "Watch as a spectator"))));
    announce(`Table ${made.table} is ready.`);
  }

  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      announce("Link copied.");
    } catch {
      announce("Copying is not allowed here: select the link's text instead.");
    }
  }

  async function refresh() {
    let tables, total;
    try {
      ({ tables, total } = await getJSON("/api/tables?count=50"));  // the newest first (PROTO-17)
    } catch (err) {
      fill(list, h("p", { role: "alert" }, err.message));
      return;
    }
    if (!tables.length) {
      fill(list, h("p", { class: "muted" }, "No tables yet."));
      return;
    }
    fill(list, h("table", { class: "tables" },
      h("caption", {}, `${total} table${total > 1 ? "s" : ""}${total > tables.length ? `, the newest ${tables.length} shown` : ""}`),
      h("thead", {}, h("tr", {}, ["Table", "Rules", "Seats", "Hand", "Scores", "State", "Open"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, tables.map((t) => {
        const names = t.seats.map((s) => s.name);
        return h("tr", {},
          h("th", { scope: "row" }, h("code", {}, t.table)),
          h("td", { "data-label": "Rules" }, words(t.preset)),
          h("td", { "data-label": "Seats" }, t.seats.map((s) => `${seatName(names, s.seat)}${s.player === "bot" ? ` (${s.bot} bot)` : ""}`).join(", ")),
          h("td", { class: "num", "data-label": "Hand" }, String(t.hand)),
          h("td", { "data-label": "Scores" }, (t.scores || []).join(" – ")),
          h("td", { "data-label": "State" }, t.failed ? `failed: ${t.failed}` : t.over ? (t.winner === null ? "over: aborted, no winner" : `over: ${seatName(names, t.winner)} won`) : "playing"),
          h("td", {}, t.over
            ? h("a", { href: `#replay=${encodeURIComponent(t.table)}` }, `Replay ${t.table}`)
            : h("a", { href: `#table=${encodeURIComponent(t.table)}&spectate=1` }, `Watch ${t.table}`)));
      }))));
  }

  fill(formBox, h("form", { class: "new-table", onsubmit: create },
    h("div", { class: "field" }, h("label", { for: "preset" }, "Rules (preset)"), presetSelect),
    h("details", { class: "rule-options" }, h("summary", {}, "Rule-set options"), optionsBox),
    seatsBox,
    h("div", { class: "field fair-field" }, fair,
      h("label", { for: "fair" }, "Deal fairly: every deck from the server's committed seed and each seat's own seed, checked by your browser after each hand")),
    h("details", { class: "table-options" }, h("summary", {}, "Seed and timing"),
      h("div", { class: "field" }, h("label", { for: "seed" }, "Seed (empty: random)"), seed),
      h("div", { class: "field" }, h("label", { for: "bot-delay" }, "Bots' pace, seconds a move"), delay),
      h("div", { class: "field" }, h("label", { for: "turn-timeout" }, "Turn timeout, seconds (empty: off)"), timeout)),
    error,
    h("button", { type: "submit", class: "primary" }, "Make the table")));
  showPreset();
  refresh();
  return () => {};
}
