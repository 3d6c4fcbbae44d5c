// The showdown: the knocker's spread (melds and deadwood), the defence (melds, layoffs, deadwood), the result.
import { h, seatName } from "./dom.js";
import { cardName, cardRow, cardSvg, meldName } from "./cards.js";

const KINDS = { gin: "gin", big_gin: "big gin", knock: "knock", undercut: "undercut", tie: "tie", dead: "dead hand" };

/** The result of a hand in words (seats by number, short enough for the score sheet). */
export function resultText(result) {
  if (!result) return "";
  if (result.kind === "dead") return `Dead hand (${result.reason || "no score"}): nobody scores.`;
  const kind = KINDS[result.kind] || result.kind;
  const times = result.multiplier > 1 ? ` ×${result.multiplier}` : "";
  let dw = "";
  if (result.deadwood && result.knocker !== null) {
    const k = result.seats.indexOf(result.knocker);
    dw = `, deadwood ${result.deadwood[k]} against ${result.deadwood[1 - k]}`;
  }
  const scored = result.winner === null ? "nobody scores" : `p${result.winner} scores ${result.points}${times}`;
  return `${kind[0].toUpperCase()}${kind.slice(1)} by p${result.knocker}${dw}: ${scored}.`;
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
export function renderShowdown({ spread, defence, result, hand = null }, players, { title = null } = {}) {
  const section = h("section", { class: "showdown", "aria-label": title || "Showdown" });
  section.append(h("h3", {}, title || (hand ? `Showdown of hand ${hand}` : "Showdown")));
  if (spread) {
    const who = seatName(players, spread.seat);
    section.append(h("div", { class: "showdown-side spread" },
      h("h4", {}, `${who} spreads`), melds(spread.melds, `${who}'s`), deadwood(spread.deadwood_cards, spread.deadwood, `${who}'s`)));
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
      h("h4", {}, `${who} answers`), melds(defence.melds, `${who}'s`),
      h("h5", {}, "Layoffs"), layoffs, deadwood(defence.deadwood_cards, defence.deadwood, `${who}'s`)));
  }
  if (result) section.append(h("p", { class: `result result-${result.kind}` }, resultText(result)));
  return section;
}
