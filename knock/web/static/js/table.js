// The table page: a seat (or a spectator) at a live table over its WebSocket, drawn from the views it is sent.
import { announce, fill, h, seatName } from "./dom.js";
import { Seat } from "./net.js";
import { renderBoard } from "./board.js";
import { cardActionFor, renderActions, splitActions } from "./actions.js";
import { renderShowdown, resultText } from "./showdown.js";
import { renderSheet } from "./sheet.js";

/** Open the table ``params`` names (``table``, and ``seat`` + ``token`` or ``spectate``) in ``root``. */
export function openTable(root, params) {
  const table = params.get("table");
  const token = params.get("token");
  const state = {
    welcome: null, view: null, legal: [], events: [], hands: [], game: null, log: null, refusal: null,
    knockMode: false, status: "connecting…", closedFor: null,
  };
  const els = {
    status: h("p", { class: "status", role: "status" }, state.status),
    who: h("p", { class: "who" }),
    refusal: h("div", { class: "refusal", role: "alert" }),
    play: h("div", { class: "play" }),
    showdown: h("div", { class: "last-hand" }),
    log: h("ol", { class: "events", "aria-label": "Events, newest last" }),
    sheet: h("div", { class: "sheet-box" }),
    offer: h("div", { class: "offer" }),
  };
  fill(root, h("section", { class: "table-page", "aria-labelledby": "table-title" },
    h("div", { class: "table-head" }, h("h2", { id: "table-title" }, `Table ${table}`), els.who, els.status),
    els.refusal,
    h("div", { class: "layout" },
      h("div", { class: "main-col" }, els.play),
      h("aside", { class: "side-col", "aria-label": "Game record" },
        els.offer, els.showdown,
        h("section", { class: "log", "aria-labelledby": "log-title" }, h("h3", { id: "log-title" }, "Events"), els.log),
        els.sheet))));

  const players = () => (state.welcome ? state.welcome.players : []);
  const seat = new Seat(token ? { table, token } : { table, spectate: true }, {
    status: (text) => { state.status = text; els.status.textContent = `Connection: ${text}`; },
    welcome: (m) => {
      state.welcome = m;
      const you = m.seat === null ? "You are watching (spectator: public information only)." : `You play ${seatName(m.players, m.seat)}.`;
      fill(els.who, you, " ", `Rules: ${m.rules.name}, to ${m.rules.target}.`, m.turn_timeout ? ` Turn timeout ${m.turn_timeout} s.` : "");
    },
    view: (m) => {
      state.view = m.view;
      state.legal = m.legal;
      // A view whose events begin with ``hand_started`` holds its hand's events from the deal (the first view, a
      // reconnection, the answer to a view request: PROTO-24): they take the place of those shown of that hand.
      if (m.events.length && m.events[0].kind === "hand_started") dropEvents(m.events[0].hand);
      for (const e of m.events) addEvent(e.text, e.hand);
      if (m.events.length) announce(m.events.map((e) => e.text).join(". "));
      if (m.legal.length && m.view.to_act === (state.welcome && state.welcome.seat)) announce("Your move.");
      render();
    },
    ack: () => render(),
    refusal: (m) => {
      state.refusal = m;
      fill(els.refusal, h("p", {}, h("strong", {}, `Refused (${m.rule}): `), `${m.action} — ${m.reason}`));
      render();
    },
    timed_out: (m) => {
      addEvent(`p${m.seat}'s turn timed out: ${m.action} was played for it`, state.view ? state.view.hand : 0);
      announce(`p${m.seat}'s turn timed out.`);
    },
    hand_result: (m) => {
      state.hands.push(m);
      fill(els.showdown, h("details", { open: true }, h("summary", {}, `Hand ${m.hand}: ${resultText(m.result)}`),
        renderShowdown(m, players(), { title: `Showdown of hand ${m.hand}` }),
        h("p", {}, `Scores: ${m.scores.map((s, i) => `${seatName(players(), i)} ${s}`).join(", ")}`)));
      announce(`Hand ${m.hand} is over. ${resultText(m.result)}`);
    },
    game_result: (m) => {
      state.game = m;
      announce(`Game over: ${seatName(players(), m.winner)} wins.`);
      render();
    },
    log_offered: (m) => {
      state.log = m;
      fill(els.offer, h("section", { class: "log-offer", "aria-labelledby": "offer-title" },
        h("h3", { id: "offer-title" }, "The game's log"),
        h("p", {}, h("a", { href: m.url, download: `${table}.knock`, class: "download" }, `Download the log (${m.bytes} bytes, ${m.records} records)`)),
        h("p", {}, "Verdict: ", h("strong", {}, m.verdict), "; digest ", h("code", { class: "digest" }, m.digest)),
        h("p", {}, h("a", { href: `#replay=${encodeURIComponent(table)}` }, "Replay it"))));
      announce("The game's log is offered for download.");
    },
    error: (m) => {
      state.refusal = null;
      fill(els.refusal, h("p", {}, h("strong", {}, `Error (${m.code}): `), m.message));
    },
    closed: (code) => { state.closedFor = code; render(); },
  });

  function addEvent(text, hand) {
    state.events.push({ hand, text });
    els.log.append(h("li", { "data-hand": String(hand) }, text));
    while (els.log.childElementCount > 200) els.log.firstElementChild.remove();
    els.log.lastElementChild.scrollIntoView({ block: "nearest" });
  }

  /** Forget the events shown of hand ``hand`` and later (a view is about to show them again). */
  function dropEvents(hand) {
    state.events = state.events.filter((e) => e.hand < hand);
    for (const li of [...els.log.children]) if (Number(li.dataset.hand) >= hand) li.remove();
  }

  function send(action) {
    if (seat.act(action)) {
      fill(els.refusal);
      state.knockMode = false;
      render(true);
    }
  }

  function render(busy = false) {
    if (!state.view) return;
    const focused = document.activeElement;
    const wasHere = focused && (els.play.contains(focused) || focused === document.body);
    const label = focused && focused.getAttribute ? focused.getAttribute("aria-label") || focused.textContent : null;
    const disabled = busy || seat.pending !== null;
    const { byCard } = splitActions(state.legal);
    const knockMode = state.knockMode || (byCard.knock.size > 0 && byCard.discard.size === 0);
    const ctx = { send, knockMode, disabled, setKnockMode: (on) => { state.knockMode = on; render(); } };
    const view = state.view;
    fill(els.play,
      renderBoard(view, { players: players(), cardAction: cardActionFor(state.legal, ctx) }),
      state.welcome && state.welcome.seat !== null ? renderActions(state.legal, view, ctx) : null,
      state.welcome && state.welcome.seat !== null ? typed() : null);
    // The board draws the hand's showdown while its view holds it (the game's last hand): not twice.
    els.showdown.hidden = Boolean(view.result && state.hands.length && state.hands.at(-1).hand === view.hand);
    fill(els.sheet, renderSheet(state.game ? state.game.sheet : view.sheet, players(), view.scores.length));
    if (wasHere && label) {
      const again = [...els.play.querySelectorAll("button, input")].find((b) =>
        (b.getAttribute("aria-label") || b.textContent) === label && !b.disabled);
      const first = els.play.querySelector(".actions button:not([disabled]), .hand .card-button:not([disabled])");
      (again || first)?.focus();
    }
  }

  function typed() {
    const input = h("input", { id: "typed-action", name: "action", type: "text", autocomplete: "off",
      spellcheck: "false", placeholder: "e.g. discard Kh" });
    return h("form", { class: "typed", onsubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text) send(text);
      input.value = "";
    } }, h("label", { for: "typed-action" }, "Type an action (card notation)"), input, h("button", { type: "submit" }, "Send"));
  }

  window.knockSeat = seat; // for the browser tests (a dropped connection, reconnected with the token)
  seat.open();
  return () => seat.close();
}
