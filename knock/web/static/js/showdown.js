// The showdown: the knocker's spread (melds and deadwood), the defence (melds, layoffs, deadwood), the result.
import { h, seatName, who } from "./dom.js";
import { cardName, cardRow, cardSvg, meldName } from "./cards.js";

/** Why a dead hand died (``replay.narration.DEAD_REASONS``). */
const DEAD_REASONS = {
  stock: "only two cards were left in the stock",
  "pickup cap": "too many pickups from the discard pile in a row",
  "last discard declined": "the last discard was left",
};

/** A hand's result as a player says it, to the reader ``me``: "you knock with 4 against ann's 19: you score 15
 *  points" (the words of ``replay.narration.result_text``, which the server's narration uses). */
export function resultWords(result, players = [], me = null) {
  if (result.kind === "dead") return `dead hand (${DEAD_REASONS[result.reason] || result.reason}): nobody scores`;
  const name = (seat) => who(players, seat, me);
  const does = (seat, verb, third = null) => `${name(seat)} ${seat === me ? verb : third || `${verb}s`}`;
  const whose = (seat) => (seat === me ? "your" : `${seatName(players, seat)}'s`);
  const knocker = result.knocker;
  const defender = result.seats.find((s) => s !== knocker);
  const kd = result.deadwood[result.seats.indexOf(knocker)];
  const dd = result.deadwood[result.seats.indexOf(defender)];
  const times = result.multiplier !== 1 ? ` (×${result.multiplier}, a spade upcard)` : "";
  const scores = result.winner === null ? "nobody scores" : `${does(result.winner, "score")} ${result.points} points${times}`;
  switch (result.kind) {
    case "gin": case "big_gin":
      return `${does(knocker, "go", "goes")} ${result.kind === "gin" ? "gin" : "big gin"}, catching ${whose(defender)} ${dd}: ${scores}`;
    case "knock": return `${does(knocker, "knock")} with ${kd} against ${whose(defender)} ${dd}: ${scores}`;
    case "undercut": return `${does(defender, "undercut")} ${name(knocker)} with ${dd} against ${kd}: ${scores}`;
    default: return `${does(knocker, "knock")} with ${kd} against ${whose(defender)} ${dd}: a tie, nobody scores`;
  }
}

/** The result as a sentence: "You knock with 5 against bob's 47: you score 42 points." (a name that begins it
 *  is written as its player wrote it). */
export function resultText(result, players = [], me = null) {
  if (!result) return "";
  const words = resultWords(result, players, me);
  const named = (players || []).some((_, seat) => seat !== me && words.startsWith(`${seatName(players, seat)} `));
  return `${named ? words[0] : words[0].toUpperCase()}${words.slice(1)}.`;
}

function melds(list, who) {
  if (!list || list.length === 0) return h("p", { class: "muted" }, "no melds");
  return h("div", { class: "hand-groups" }, list.map((m) => cardRow(m, `${who} meld: ${meldName(m)}`, { size: "small" })));
}

function deadwood(cards, count, who) {
  return h("div", { class: "showdown-deadwood" },
    cards && cards.length ? cardRow(cards, `${who} deadwood: ${cards.map(cardName).join(", ")}`, { size: "small" }) : null,
    h("p", {}, `Deadwood: ${count}`));
}

/** The showdown of a hand from its spread, defence and result (a view's, or a ``hand_result`` message's). */
export function renderShowdown({ spread, defence, result, hand = null }, players, { title = null, me = null } = {}) {
  const section = h("section", { class: "showdown", "aria-label": title || "Showdown" });
  section.append(h("h3", {}, title || (hand ? `Showdown of hand ${hand}` : "Showdown")));
  if (spread) {
    const who = seatName(players, spread.seat);
    section.append(h("div", { class: "showdown-side spread" },
      h("h4", {}, spread.seat === me ? "You spread" : `${who} spreads`), melds(spread.melds, `${who}'s`), deadwood(spread.deadwood_cards, spread.deadwood, `${who}'s`)));
  }
  if (defence) {
    const who = seatName(players, defence.seat);
    const layoffs = defence.layoffs && defence.layoffs.length
      ? h("ul", { class: "layoffs", "aria-label": `${who}'s layoffs` }, defence.layoffs.map((lo) =>
        h("li", { "aria-label": `${cardName(lo.card)} laid off onto ${meldName(lo.onto)}` },
          cardSvg(lo.card, { label: false, size: "small" }), h("span", { class: "onto", "aria-hidden": "true" }, "→"),
          cardRow(lo.onto, `onto ${meldName(lo.onto)}`, { size: "tiny" }))))
      : h("p", { class: "muted" }, "no layoffs");
    section.append(h("div", { class: "showdown-side defence" },
      h("h4", {}, defence.seat === me ? "You answer" : `${who} answers`), melds(defence.melds, `${who}'s`),
      h("h5", {}, "Layoffs"), layoffs, deadwood(defence.deadwood_cards, defence.deadwood, `${who}'s`)));
  }
  if (result) section.append(h("p", { class: `result result-${result.kind}` }, resultText(result, players, me)));
  return section;
}
