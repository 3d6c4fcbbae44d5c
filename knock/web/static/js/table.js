// The table page: a seat (or a spectator) at a live table over its WebSocket, drawn from the views it is sent.
import { announce, fill, h, seatName } from "./dom.js";
import { Seat } from "./net.js";
import { renderBoard } from "./board.js";
import { actionName, cardActionFor, renderActions, splitActions } from "./actions.js";
import { cardName } from "./cards.js";
import { renderShowdown, resultText } from "./showdown.js";
import { renderSheet } from "./sheet.js";
import { FairSeat } from "./fairseat.js";
import { statementKey } from "./fairsign.js";
import { renderDiscards } from "./discards.js";
import { endingText, renderEndings, tickEndings } from "./endings.js";
import { playCue, setSound, soundOn, turnTitle } from "./cue.js";

/** How long the pause at a hand's end lasts at most, in seconds; with a turn timer, at most a third of it (the
 *  server's timer for the next turn runs meanwhile: the pause leaves the player two thirds of his turn). */
const PAUSE = 30;

/** Where the player's option of confirming each discard is kept (this browser's storage). */
const CONFIRM_KEY = "knock.confirmDiscards";

/** Whether discards are confirmed: the player's choice, else on for a touch screen (a tap cannot misfire). */
function confirmDiscards() {
  let kept = null;
  try { kept = localStorage.getItem(CONFIRM_KEY); } catch { /* storage refused: the default */ }
  return kept === null ? window.matchMedia("(pointer: coarse)").matches : kept === "1";
}

/** Open the table ``params`` names (``table``, and ``seat`` + ``token`` or ``spectate``) in ``root``. */
export function openTable(root, params) {
  const table = params.get("table");
  const token = params.get("token");
  const state = {
    welcome: null, view: null, legal: [], events: [], hands: [], game: null, log: null, refusal: null,
    knockMode: false, status: "connecting…", closedFor: null,
    pause: null, // the hand_result shown until the player goes on, and when it ends by itself
    turn: null, // the turn the timer counts: {key, left, at}: the seconds left by the server's clock (PROTO-33) at
    // ``at`` (this page's clock, when the view came); null when no timer runs
    discards: null, // the hand's discards, oldest first, with who picked each up (PROTO-34; null: a 1.1 server)
    drawn: null, // the card this seat just took or drew (the one its cards gained since its previous view)
    order: null, // the player's own order of his hand's cards (null: grouped by melds), for this hand
    rematch: null, asked: false, // the series' next table once made (PROTO-30), and whether this page asked
    fair: null, // at a fair table (PROTO-35): this seat's seeds sent and each hand's check (fairseat.js)
    key: null, // this browser's statement key (PROTO-47, fairsign.js), named in every hello of a seat; null: none
    stopped: false, // a fair check failed: the page offers no moves at this table
    message: null, viewAt: 0, // the newest view message, and when it came (this page's clock): its endings and away
    confirming: false, // Resign was pressed: its confirmation is shown
    typedOpen: false, // the notation box was opened (it stays so)
    fairOpen: false, // the fair-dealing box was opened (it stays so)
    confirm: confirmDiscards(), // a discard (or a knock's card) is chosen by a first tap, made by a second
    chosen: null, // the card's action chosen and not yet confirmed
    fitted: null, // the turn whose stock, pile, hand and moves were last brought on screen (and cued)
    sound: soundOn(), // a tone when it becomes the seat's move (the player's choice; off until asked for)
  };
  let ticker = null;
  const els = {
    status: h("p", { class: "status", role: "status" }, state.status),
    who: h("p", { class: "who" }),
    series: h("p", { class: "series", hidden: true }),
    fair: h("section", { class: "fair-box", hidden: true, "aria-label": "Fair dealing", "aria-live": "polite" }),
    refusal: h("div", { class: "refusal", role: "alert" }),
    play: h("div", { class: "play" }),
    showdown: h("div", { class: "last-hand" }),
    log: h("ol", { class: "events", "aria-label": "Events, newest last", tabindex: "0" }),
    sheet: h("div", { class: "sheet-box" }),
    offer: h("div", { class: "offer" }),
    sound: h("button", { type: "button", class: "sound-toggle", "aria-pressed": "false", hidden: true,
      title: "A tone when it becomes your move",
      onclick: () => {
        state.sound = !state.sound;
        setSound(state.sound);
        soundButton();
        if (state.sound) playCue(); // what it will sound like (and the browser's leave to play it: a tap)
      } }, ""),
  };
  fill(root, h("section", { class: "table-page", "aria-labelledby": "table-title" },
    h("div", { class: "table-head" }, h("h2", { id: "table-title" }, `Table ${table}`), els.who, els.status, els.sound, els.series,
      els.fair),
    els.refusal,
    h("div", { class: "layout" },
      h("div", { class: "main-col" }, els.play),
      h("aside", { class: "side-col", "aria-label": "Game record" },
        els.offer, els.showdown,
        h("section", { class: "log", "aria-labelledby": "log-title" }, h("h3", { id: "log-title" }, "Events"), els.log),
        els.sheet))));

  const players = () => (state.welcome ? state.welcome.players : []);
  const me = () => (state.welcome ? state.welcome.seat : null); // the reader's seat: "you" in sentences
  const seat = new Seat(token ? { table, token } : { table, spectate: true }, {
    status: (text) => { state.status = text; els.status.textContent = `Connection: ${text}`; },
    welcome: (m) => {
      state.welcome = m;
      const you = m.seat === null ? "You are watching (spectator: public information only)." : `You play ${seatName(m.players, m.seat)}.`;
      fill(els.who, you, " ", `Rules: ${m.rules.name}, to ${m.rules.target}.`, m.turn_timeout ? ` Turn timeout ${m.turn_timeout} s.` : "");
      if (m.series) { // a rematch's table (PROTO-31): the games before it and their running totals
        els.series.hidden = false;
        fill(els.series, h("strong", {}, `Game ${m.series.games + 1} of the series`),
          `: running totals of the ${m.series.games} before it: ${totalsText(m.series.totals)}.`);
      }
      // kept across reconnections and reloads; it signs with the key this page's hello named
      if (m.fair && !state.fair) state.fair = new FairSeat(m.seat, { table, signer: state.key });
      if (state.fair) fairFrame(m); // the receipts key, pinned at the first welcome (PROTO-47)
      els.sound.hidden = m.seat === null;
      soundButton();
      renderFair();
    },
    // Fair dealing (PROTO-36, PROTO-45): the server's commitment is answered with this page's commitment, and the
    // commitment set, once checked, with this page's seed; the reveal's check is said aloud (PROTO-39).
    fair_commit: (m) => fairFrame(m, true),
    commit_taken: (m) => fairFrame(m),
    fair_set: (m) => fairFrame(m, true),
    seed_taken: (m) => fairFrame(m),
    fair_reveal: (m) => fairFrame(m),
    rematch: (m) => {
      state.rematch = m;
      announce(`The rematch is ready: table ${m.table}.`);
      if (state.asked) goToRematch();
      else render();
    },
    view: (m) => {
      const before = state.view;
      if (before && before.hand === m.view.hand && m.view.cards.length === before.cards.length + 1) {
        state.drawn = m.view.cards.find((c) => !before.cards.includes(c)) || null;
      } else if (!before || before.hand !== m.view.hand || m.view.cards.length < before.cards.length) {
        state.drawn = m.view.taken;
      }
      const key = `${m.view.hand}/${m.view.to_act}/${m.view.phase}`;
      const timeout = state.welcome && state.welcome.turn_timeout;
      if (m.turn_left !== undefined) { // the server's clock, in every view (protocol 1.2)
        state.turn = m.turn_left === null ? null : { key, left: m.turn_left, at: performance.now() };
      } else if (!timeout) {
        state.turn = null;
      } else if (!state.turn || state.turn.key !== key) { // a 1.1 server: counted from this page's first view of it
        state.turn = { key, left: timeout, at: performance.now() };
      }
      state.discards = m.discards || null;
      if (before && before.hand !== m.view.hand) state.order = null;
      if (state.order) { // the cards gone leave the order; the new join it at its end
        state.order = state.order.filter((c) => m.view.cards.includes(c));
        state.order.push(...m.view.cards.filter((c) => !state.order.includes(c)));
      }
      if (state.fair) fairFrame(m);
      state.message = m;
      state.viewAt = performance.now();
      state.view = m.view;
      state.legal = m.legal;
      if (!m.legal.includes(state.chosen)) state.chosen = null;
      state.defences = m.defences || [];
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
    timed_out: (m) => { // the move made for the seat is told to it alone (PROTO-12); at a table of forfeits, to none
      const mine = m.seat === me();
      const made = m.action ? `: ${actionName(m.action, state.view)} was played for ${mine ? "you" : "it"}` : "";
      const whose = mine ? "Your" : `${seatName(players(), m.seat)}'s`;
      addEvent(`${whose} turn timed out${made}`, state.view ? state.view.hand : 0);
      announce(`${whose} turn timed out.`);
    },
    hand_result: (m) => {
      state.hands.push(m);
      fill(els.showdown, h("details", { open: true }, h("summary", {}, `Hand ${m.hand}: ${resultText(m.result, players(), me())}`),
        renderShowdown(m, players(), { title: `Showdown of hand ${m.hand}`, me: me() }),
        h("p", {}, `Scores: ${m.scores.map((s, i) => `${seatName(players(), i)} ${s}`).join(", ")}`)));
      announce(`Hand ${m.hand} is over. ${resultText(m.result, players(), me())}`);
      const timeout = state.welcome && state.welcome.turn_timeout;
      const wait = timeout ? Math.max(2, Math.min(PAUSE, timeout / 3)) : PAUSE;
      state.pause = { result: m, until: performance.now() + wait * 1000 };
      render();
    },
    game_result: (m) => {
      state.game = m;
      state.confirming = false;
      announce(`Game over: ${endingText(m, players(), me())}`);
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
      if (m.code === "bad_seed" && state.fair) fairFrame(m);
      state.refusal = null;
      fill(els.refusal, h("p", {}, h("strong", {}, `Error (${m.code}): `), m.message));
    },
    closed: (code) => { state.closedFor = code; render(); },
  });

  /** A frame for the seat's fair dealing (fairseat.js), handled in the order the frames came: what it answers is
   *  sent, and a hand's check that changed is said aloud. ``open``: the frame makes the fair seat if there is none
   *  yet (the server's commitment or the commitment set); any other frame is for a seat made before it. */
  function fairFrame(m, open = false) {
    if (!state.fair && !open) return;
    if (!state.fair) state.fair = new FairSeat(me(), { table, signer: state.key });
    state.fair.receive(m).then(({ send, said }) => {
      if (send) seat.send(send);
      renderFair();
      if (said) announce(said);
      const stop = stopped();
      if (stop && !state.stopped) {
        state.stopped = true;
        announce(`Moves are off at this table: ${stop.reason}.`);
        render();
      }
    });
  }

  /** Why this page offers no moves at this table (a fair check failed: {hand, rule, reason}), or null. */
  function stopped() {
    return state.fair && me() !== null ? state.fair.failure() : null;
  }

  /** The evidence of a failed fair check, saved as a JSON file (fairseat.js ``evidence``). */
  function downloadEvidence() {
    const data = state.fair.evidence();
    const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const who = data.seat === null ? "spectator" : `p${data.seat}`;
    const link = h("a", { href: url, download: `knock-evidence-${table}-${who}.json`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  /** Where the moves were: why there are none (a fair check failed). */
  function stoppedNotice(stop) {
    const which = stop.hand === null ? "the fair-dealing check" : `the fair-dealing check of hand ${stop.hand}`;
    return h("section", { class: "fair-stop", "aria-labelledby": "fair-stop-title" },
      h("h3", { id: "fair-stop-title" }, "No moves at this table"),
      h("p", {}, `This page offers no more moves here: ${which} failed (${stop.rule}): ${stop.reason}. `,
        "It sends nothing more for the deals either. What the server sent and what this page sent are kept in this ",
        "browser: use \u201cDownload the evidence\u201d in the Fair dealing box to save them."));
  }

  function addEvent(said, hand) {
    const text = said.replace(/^you\b/, "You"); // the server's narration to this seat: "you discard 10♦"
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

  /** The fair-dealing box: a line saying how the deals checked so far went, which opens on demand (at once when a
   *  check failed) to the hand whose seeds are gathered and every hand's check in plain words. */
  function renderFair() {
    const f = state.fair;
    els.fair.hidden = !f;
    if (!f) return;
    const w = f.waiting;
    const all = [...f.checks.values()];
    const failed = all.filter((c) => !c.ok).length;
    const stop = f.failure();
    const line = failed ? `a deal check FAILED (${failed} of ${all.length})`
      : stop ? "a check FAILED"
        : all.length ? `${all.length} deal${all.length > 1 ? "s" : ""} checked, each as committed`
          : w ? `hand ${w.hand}'s seeds are being gathered` : "each deal is checked here";
    const signing = f.signing();
    const box = h("details", { class: `fair-details${stop ? " failed" : ""}`, open: state.fairOpen || stop !== null || null,
      ontoggle: () => { state.fairOpen = box.open; } },
    h("summary", {}, h("strong", {}, "Fair dealing: "), line),
    w ? h("p", { class: "fair-waiting" }, f.stage()) : null,
    stop && stop.hand === null ? h("p", { class: "fair-check failed" }, stop.text) : null,
    all.length
      ? h("ul", { class: "fair-checks" }, [...f.checks].map(([n, c]) =>
        h("li", { class: `fair-check ${c.ok ? "ok" : "failed"}`, "data-hand": String(n) }, c.text)))
      : h("p", { class: "muted" }, "Each hand's deal is checked here once the server reveals its seed."),
    signing ? h("p", { class: "fair-signing muted" }, signing) : null,
    stop ? h("p", { class: "fair-evidence" },
      h("button", { type: "button", class: "download-evidence", onclick: downloadEvidence }, "Download the evidence"),
      " ", h("span", { class: "muted" }, "A JSON file with every fair-dealing message the server sent this page at this "
        + "table, what this page sent (its commitments, seeds and signed statements), the server's receipts, and "
        + "why the check failed.")) : null);
    fill(els.fair, box);
  }

  function totalsText(totals) {
    return totals.map((t, i) => `${seatName(players(), i)} ${t}`).join(", ");
  }

  function goToRematch() {
    const m = state.rematch;
    location.hash = token ? `table=${m.table}&seat=${state.welcome.seat}&token=${token}` : `table=${m.table}&spectate=1`;
  }

  /** At the game's end: the rematch (PROTO-29, a server of protocol 1.2), or the table it made. */
  function rematchPanel() {
    const w = state.welcome;
    if (!state.view || !state.view.over || !w || (w.protocol[0] === 1 && w.protocol[1] < 2)) return null;
    const m = state.rematch;
    if (m) {
      return h("section", { class: "rematch", "aria-labelledby": "rematch-title" },
        h("h3", { id: "rematch-title" }, "Rematch ready"),
        h("p", {}, `Table ${m.table}; running totals after ${m.games} game${m.games > 1 ? "s" : ""}: ${totalsText(m.totals)}.`),
        h("p", {}, h("button", { type: "button", class: "primary go-rematch", onclick: goToRematch },
          w.seat === null ? "Watch the rematch" : "Play the rematch")));
    }
    if (w.seat === null) return null;
    return h("section", { class: "rematch", "aria-labelledby": "rematch-title" },
      h("h3", { id: "rematch-title" }, "Play again?"),
      h("p", {}, h("button", { type: "button", class: "primary ask-rematch", onclick: () => {
        state.asked = true;
        seat.send({ type: "rematch" });
      } }, "Rematch"), " ", h("span", { class: "muted" }, "the same seats and rules; the totals run on")));
  }

  function send(action) {
    if (seat.act(action)) {
      fill(els.refusal);
      state.knockMode = false;
      state.chosen = null;
      render(true);
    }
  }

  function claim(against) {
    if (seat.claim(against)) {
      fill(els.refusal);
      render(true);
    }
  }

  /** The game's end in words, once it is over (how it ended, if before the target). */
  function gameEnd() {
    if (!state.game) return null;
    const won = state.game.winner !== null && state.game.winner === me();
    return [won ? h("p", { class: "moment won" }, "You win the game!") : null,
      h("p", { class: "game-end", role: "status" }, h("strong", {}, "Game over: "), endingText(state.game, players(), me()))];
  }

  function soundButton() {
    els.sound.setAttribute("aria-pressed", state.sound ? "true" : "false");
    fill(els.sound, "Turn sound", h("span", { "aria-hidden": "true" }, state.sound ? ": on" : ": off")); // pressed: on
  }

  /** Whether the seat is to move now. */
  function myMove() {
    const v = state.view;
    return Boolean(v && !v.over && state.legal.length && state.welcome && v.to_act === state.welcome.seat && !stopped());
  }

  function render(busy = false) {
    if (!state.view) return;
    turnTitle(table, myMove());
    const focused = document.activeElement;
    const wasHere = focused && (els.play.contains(focused) || focused === document.body);
    const label = focused && focused.getAttribute ? focused.getAttribute("aria-label") || focused.textContent : null;
    const disabled = busy || seat.pending !== null;
    const { byCard } = splitActions(state.legal);
    const knockMode = state.knockMode || (byCard.knock.size > 0 && byCard.discard.size === 0);
    const ctx = { send, knockMode, disabled, defences: state.defences || [],
      setKnockMode: (on) => { state.knockMode = on; state.chosen = null; render(); },
      confirm: state.confirm, chosen: state.chosen, choose: (action) => { state.chosen = action; render(); },
      setConfirm: (on) => {
        state.confirm = on;
        state.chosen = null;
        try { localStorage.setItem(CONFIRM_KEY, on ? "1" : "0"); } catch { /* kept for this page only */ }
        render();
      } };
    const view = state.view;
    if (state.pause) {
      els.showdown.hidden = true; // the pause shows it
      fill(els.play, pausePanel(state.pause.result), timer());
      if (wasHere) els.play.querySelector("button.continue")?.focus();
      tick();
      fill(els.sheet, renderSheet(state.game ? state.game.sheet : view.sheet, players(), view.scores.length, me()));
      return;
    }
    const seated = state.welcome && state.welcome.seat !== null;
    const stop = stopped(); // a fair check failed: no moves at this table, and why
    const playing = seated && !stop;
    fill(els.play,
      timer(),
      renderBoard(view, { players: players(), me: me(), cardAction: stop ? null : cardActionFor(state.legal, ctx),
        drawn: state.drawn, arrange: seated && !view.over && view.role !== "sitter" && view.cards.length ? arrange : null }),
      gameEnd(),
      stop ? null : rematchPanel(),
      stop ? stoppedNotice(stop) : null,
      playing ? renderActions(state.legal, view, ctx) : null,
      playing && !view.over ? renderEndings(state.message, { players: players(), seat: state.welcome.seat,
        at: state.viewAt, confirming: state.confirming, disabled,
        setConfirming: (on) => { state.confirming = on; render(); }, act: send, claim }) : null,
      renderDiscards(state.discards, view, players()),
      playing && !view.over ? typed() : null);
    tick();
    // The board draws the hand's showdown while its view holds it (the game's last hand): not twice.
    els.showdown.hidden = Boolean(view.result && state.hands.length && state.hands.at(-1).hand === view.hand);
    fill(els.sheet, renderSheet(state.game ? state.game.sheet : view.sheet, players(), view.scores.length, me()));
    if (wasHere && (label || focused.id)) {
      const again = (focused.id && els.play.querySelector(`#${focused.id}`)) || [...els.play.querySelectorAll("button, input")]
        .find((b) => (b.getAttribute("aria-label") || b.textContent) === label && !b.disabled);
      const first = els.play.querySelector(".actions button:not([disabled]), .hand .card-button:not([disabled])");
      (again || first)?.focus();
    }
    if (!state.pause) newTurn();
  }

  /** Once a turn of the seat's: its stock, pile, hand and moves brought on screen, and its cue if asked for. */
  function newTurn() {
    const turn = myMove() ? `${state.view.hand}/${state.view.phase}/${state.message.record}` : null;
    if (!turn || turn === state.fitted) return;
    const first = !state.fitted || !state.fitted.startsWith(`${state.view.hand}/`) || state.view.phase !== "discard";
    state.fitted = turn;
    fitTurn();
    if (state.sound && first) playCue(); // once a turn: not again for its discard after its draw
  }

  /** The seat's stock and pile, its hand and its moves brought on screen together: the page scrolls by the least
   *  that shows them all (at a new turn, and when the screen changes size on the seat's move). */
  function fitTurn() {
    if (!myMove()) return;
    const parts = [".board .centre", ".board .hands.mine", ".actions"].map((css) => els.play.querySelector(css))
      .filter(Boolean).map((e) => e.getBoundingClientRect());
    if (!parts.length) return;
    const top = Math.min(...parts.map((r) => r.top)) - 4;
    const bottom = Math.max(...parts.map((r) => r.bottom)) + 4;
    if (top >= 0 && bottom <= window.innerHeight) return;
    window.scrollBy(0, bottom - top > window.innerHeight || top < 0 ? top : bottom - window.innerHeight);
  }
  const onResize = () => fitTurn();
  const pointer = window.matchMedia("(pointer: coarse)"); // a touch screen's larger targets change the layout too
  window.addEventListener("resize", onResize);
  pointer.addEventListener("change", onResize);

  /** The pause at a hand's end: the showdown with both hands face up (the spread, the defence with its layoffs),
   *  the points and the scores, until the player goes on or the pause's time is up. */
  function pausePanel(m) {
    const left = Math.max(0, Math.ceil((state.pause.until - performance.now()) / 1000));
    const next = state.game ? "See the game's end" : "Go on to the next hand";
    return h("section", { class: "pause", "aria-labelledby": "pause-title" },
      h("h3", { id: "pause-title" }, `Hand ${m.hand} is over`),
      ginMoment(m.result),
      renderShowdown(m, players(), { title: `Showdown of hand ${m.hand}: both hands face up`, me: me() }),
      h("p", { class: "pause-scores" }, `Scores: ${m.scores.map((sc, i) => `${seatName(players(), i)} ${sc}`).join(", ")}`),
      h("p", { class: "pause-go" }, h("button", { type: "button", class: "primary continue", onclick: endPause }, next),
        " ", h("span", { class: "muted pause-left" }, `(goes on by itself in ${left} s)`)));
  }

  /** The moment of a gin (or a big gin): said large, and popped in unless the player asks for less motion. */
  function ginMoment(result) {
    if (result.kind !== "gin" && result.kind !== "big_gin") return null;
    const gin = result.kind === "gin" ? "gin" : "big gin";
    return h("p", { class: "moment gin" }, result.knocker === me() ? `You go ${gin}!` : `${seatName(players(), result.knocker)} goes ${gin}!`);
  }

  function endPause() {
    if (!state.pause) return;
    state.pause = null;
    render();
    els.play.querySelector(".actions button:not([disabled]), .hand .card-button:not([disabled]), .defences input")?.focus();
  }

  /** The turn timer, while one runs: whose turn, and the seconds left, counted down from the server's figure in
   *  the last view (PROTO-33). */
  function timer() {
    const timeout = state.welcome && state.welcome.turn_timeout;
    if (!timeout || !state.turn || !state.view || state.view.to_act === null || state.view.over) return null;
    const mine = state.welcome.seat === state.view.to_act;
    return h("p", { class: `turn-timer${mine ? " mine" : ""}`, role: "timer", "aria-live": "off" },
      h("span", { class: "timer-who" }, mine ? "Your turn" : `${seatName(players(), state.view.to_act)}'s turn`),
      " ", h("span", { class: "timer-left" }, ""));
  }

  /** Update the timer's seconds and the pause's, once a second while either is shown. */
  function tick() {
    const timeout = state.welcome && state.welcome.turn_timeout;
    const el = els.play.querySelector(".timer-left");
    if (el && state.turn) {
      const left = Math.max(0, Math.ceil(state.turn.left - (performance.now() - state.turn.at) / 1000));
      el.textContent = `${left} s left of ${timeout} s`;
    }
    if (state.pause) {
      const left = Math.ceil((state.pause.until - performance.now()) / 1000);
      if (left <= 0) { endPause(); return; }
      const shown = els.play.querySelector(".pause-left");
      if (shown) shown.textContent = `(goes on by itself in ${left} s)`;
    }
    const counting = !state.pause && tickEndings(els.play, state.message, state.viewAt, () => render());
    if (!ticker && (el || state.pause || counting)) ticker = setInterval(() => { if (!document.hidden) tick(); }, 1000);
    if (ticker && !el && !state.pause && !counting) { clearInterval(ticker); ticker = null; }
  }

  /** The player's arrangement of his hand (his screen only: nothing is sent). */
  const arrange = {
    get order() { return state.order; },
    shown() { // the order the hand is drawn in now: the player's, or the melds' then the deadwood
      const v = state.view;
      return state.order || [...(v.melds || []).flat(), ...(v.deadwood_cards || [])];
    },
    put(order, card) {
      state.order = order;
      render();
      els.play.querySelector(`.hand li[data-card="${card}"] button, .hand li[data-card="${card}"] svg[tabindex]`)?.focus();
      announce(`${cardName(card)} moved to place ${order.indexOf(card) + 1} of ${order.length}.`);
    },
    move(card, step) {
      const order = [...arrange.shown()];
      const at = order.indexOf(card);
      const to = Math.max(0, Math.min(order.length - 1, at + step));
      order.splice(at, 1);
      order.splice(to, 0, card);
      arrange.put(order, card);
    },
    moveOnto(card, onto) {
      const order = arrange.shown().filter((c) => c !== card);
      const was = arrange.shown().indexOf(card);
      const at = order.indexOf(onto) + (arrange.shown().indexOf(onto) > was ? 1 : 0);
      order.splice(at, 0, card);
      arrange.put(order, card);
    },
    reset() { state.order = null; render(); },
  };

  /** The notation box, behind a disclosure (most players tap their moves); it stays open once opened. */
  function typed() {
    const input = h("input", { id: "typed-action", name: "action", type: "text", autocomplete: "off",
      spellcheck: "false", placeholder: "e.g. discard Kh" });
    const form = h("form", { class: "typed", onsubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text) send(text);
      input.value = "";
    } }, h("label", { for: "typed-action" }, "Your move in card notation"), input, h("button", { type: "submit" }, "Send"));
    const box = h("details", { class: "typed-box", open: state.typedOpen || null,
      ontoggle: () => { state.typedOpen = box.open; } }, h("summary", {}, "Type a move instead"), form);
    return box;
  }

  window.knockSeat = seat; // for the browser tests (a dropped connection, reconnected with the token)
  // A seat's hello names this browser's statement key (PROTO-47), found or made before the first hello: the hello
  // comes before the welcome that says whether the table is fair, and a table that is not ignores it. A spectator
  // reveals nothing and names none.
  let gone = false;
  (token ? statementKey({ wait: 3000 }) : Promise.resolve(null)).then((key) => {
    state.key = key;
    if (key) seat.hello.key = key.publicKey;
    if (!gone) seat.open();
  });
  return () => { gone = true; if (ticker) clearInterval(ticker); window.removeEventListener("resize", onResize);
    pointer.removeEventListener("change", onResize); seat.close(); };
}
