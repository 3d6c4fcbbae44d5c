// A game's end before the target at the table (protocol 1.4, PROTO-41 .. PROTO-43; rules.md section 16): the
// seat's Resign (confirmed first) and Abort while the server's ``endings`` offer them, the seats away with the
// countdown to a claim and "Claim victory" once it is open, and the words for how a game ended.
import { h, seatName, who } from "./dom.js";

/** The words for a game's end, to the reader ``me``: who won and how ("you resigned: bob wins."). */
export function endingText(result, players, me = null) {
  const e = result.ending;
  const name = (seat) => who(players, seat, me);
  const does = (seat, verb) => `${name(seat)} ${seat === me ? verb : `${verb}s`}`;
  const winner = result.winner === null ? "no winner" : does(result.winner, "win");
  if (!e) return `${winner}.`;
  switch (e.kind) {
    case "resign": return `${name(e.seat)} resigned: ${winner}.`;
    case "abort": return `${name(e.seat)} aborted the game: no winner, and it does not count.`;
    case "claim": return `${name(e.seat)} claimed the game, ${name(e.against)} having left the table: ${winner}.`;
    case "abandon": return "the game was abandoned: nobody had been at the table; no winner.";
    case "forfeit": return `${name(e.seat)} forfeited (${{ timeout: "the turn ran out", no_reveal: "no seed sent", absent: "gone from the table" }[e.reason] || e.reason}): ${winner}.`;
    default: return `${winner}.`;
  }
}

/** Seconds as m:ss. */
function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The seconds left before a claim against ``a`` (an entry of the view's ``away``) opens, counted down on this
 *  page from the server's figure when the view came (``at``, this page's clock). */
export function claimLeft(a, at) {
  return a.claim_in === null ? null : a.claim_in - (performance.now() - at) / 1000;
}

/** The panel: the seats away (each with its countdown or "Claim victory"), Resign behind a confirmation, Abort.
 *  ``m`` is the newest view message; ``ctx``: {players, seat, at, confirming, setConfirming, act, claim, disabled}. */
export function renderEndings(m, ctx) {
  const { players, seat, at, confirming, setConfirming, act, claim, disabled } = ctx;
  const endings = m.endings || [];
  const away = (m.away || []).filter((a) => a.seat !== seat);
  if (!endings.length && !away.length) return null;
  const section = h("section", { class: "endings", "aria-label": "Ending the game" });
  for (const a of away) {
    const left = claimLeft(a, at);
    const open = endings.includes(`claim p${a.seat}`) || (left !== null && left <= 0);
    section.append(h("p", { class: "away", "data-seat": String(a.seat) },
      `${seatName(players, a.seat)} has left the table. `,
      left === null ? "Claims are not played at this table."
        : open ? h("button", { type: "button", class: "primary claim", "data-against": String(a.seat),
          disabled: disabled || null, onclick: () => claim(a.seat) }, "Claim victory")
          : h("span", { class: "claim-countdown", "data-seat": String(a.seat) }, `You may claim victory in ${clock(left)}.`)));
  }
  const row = h("p", { class: "ending-buttons" });
  if (endings.includes("abort")) {
    row.append(h("button", { type: "button", class: "abort", disabled: disabled || null, onclick: () => act("abort") },
      "Abort the game"), " ", h("span", { class: "muted" }, "no winner, allowed until both have moved"), " ");
  }
  if (endings.includes("resign")) {
    if (confirming) {
      row.append(h("span", { class: "confirm", role: "group", "aria-label": "Resign?" },
        h("strong", {}, "Resign this game? You lose it. "),
        h("button", { type: "button", class: "danger confirm-resign", disabled: disabled || null,
          onclick: () => { setConfirming(false); act("resign"); } }, "Yes, resign"), " ",
        h("button", { type: "button", class: "keep-playing", onclick: () => setConfirming(false) }, "Keep playing")));
    } else {
      row.append(h("button", { type: "button", class: "resign", disabled: disabled || null,
        onclick: () => setConfirming(true) }, "Resign…"));
    }
  }
  if (row.childElementCount) section.append(row);
  return section;
}

/** Update every countdown shown to a claim; whether one still counts (the caller's ticker then goes on). */
export function tickEndings(root, m, at, rerender) {
  let counting = false;
  for (const a of (m && m.away) || []) {
    const el = root.querySelector(`.claim-countdown[data-seat="${a.seat}"]`);
    if (!el) continue;
    const left = claimLeft(a, at);
    if (left !== null && left <= 0) { rerender(); return false; }
    el.textContent = `You may claim victory in ${clock(left)}.`;
    counting = true;
  }
  return counting;
}
