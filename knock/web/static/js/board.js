// The table drawn from one view: who is where, the stock and the discard pile, the hands, the advice, the
// showdown and the scores. It draws only what the view holds (the server decides what a seat may see).
import { h, roleName, seatName } from "./dom.js";
import { cardBack, cardName, cardRow, cardSvg, cardText } from "./cards.js";
import { renderHand } from "./hand.js";
import { renderShowdown } from "./showdown.js";
import { actionName } from "./actions.js";

const PHASES = {
  upcard_offer: "the upcard is offered", draw: "draw", discard: "discard", wall: "the last discard (the wall)",
  knock: "the knocker spreads", layoff: "the defender lays off", score: "scoring", dead_hand: "dead hand",
  hand_over: "hand over", game_over: "game over",
};

/** Every seat's name, role, score, cards held, and who is to act. */
function seatsPanel(view, players) {
  const roleOf = {};
  for (const [role, seat] of Object.entries(view.roles)) roleOf[seat] = role;
  const held = {};
  for (const p of view.players) held[p.seat] = p.cards;
  return h("table", { class: "seats" },
    h("caption", {}, `Hand ${view.hand}: ${PHASES[view.phase] || view.phase}`),
    h("thead", {}, h("tr", {}, ["Seat", "Role", "Score", "Cards", "Turn"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, view.scores.map((score, seat) => h("tr", { class: seat === view.to_act ? "to-act" : null },
      h("th", { scope: "row" }, seatName(players, seat), seat === view.you ? " — you" : ""),
      h("td", {}, roleName(roleOf[seat] || "")),
      h("td", { class: "num" }, `${score} / ${view.target}`),
      h("td", { class: "num" }, held[seat] === null || held[seat] === undefined ? "—" : String(held[seat])),
      h("td", {}, seat === view.to_act ? "to act" : "")))));
}

/** A card as its corner shows it (``J♠``), named in words for a screen reader. */
function shortCard(card) {
  if (!card) return "none";
  return [h("span", { "aria-hidden": "true" }, cardText(card)), h("span", { class: "visually-hidden" }, cardName(card))];
}

/** The stock, the discard pile's top, the upcard and the knock limit. */
function centre(view) {
  const top = view.discard_top;
  return h("section", { class: "centre", "aria-label": "Stock and discard pile" },
    h("figure", { class: "pile stock" }, cardBack({ label: `the stock: ${view.stock} cards` }),
      h("figcaption", {}, `Stock ${view.stock}`)),
    h("figure", { class: "pile discard-top" },
      top ? cardSvg(top, { label: `${cardName(top)}, on top of the discard pile` }) : h("div", { class: "empty-pile" }, "empty"),
      h("figcaption", {}, `Discard pile (${view.discard_pile.length})`)),
    h("dl", { class: "facts" },
      h("dt", {}, "Knock limit"), h("dd", {}, String(view.knock_limit)),
      h("dt", {}, "Upcard"), h("dd", {}, shortCard(view.upcard)),
      view.taken ? [h("dt", {}, "Taken this turn"), h("dd", {}, shortCard(view.taken))] : null,
      view.must_knock ? [h("dt", {}, "Must knock"), h("dd", {}, "yes (the last discard was taken)")] : null,
      view.stock_only ? [h("dt", {}, "Upcard passed"), h("dd", {}, "draw from the stock")] : null,
      view.knocker !== null ? [h("dt", {}, "Knocker"), h("dd", {}, `p${view.knocker}`)] : null,
      view.knock_discard ? [h("dt", {}, "Face-down discard"), h("dd", {}, shortCard(view.knock_discard))] : null));
}

/** Another seat's hand as this view knows it: how many cards, and those known (taken from the pile). */
function otherHand(p, players, roleOf) {
  const known = p.known || [];
  const hidden = Math.max(0, (p.cards || 0) - known.length);
  const who = seatName(players, p.seat);
  return h("section", { class: "hand other", "aria-label": `${who}'s hand` },
    h("h3", {}, `${who}${roleOf[p.seat] ? `, ${roleName(roleOf[p.seat])}` : ""}: ${p.cards} cards`),
    h("div", { class: "backs", role: "img", "aria-label": `${hidden} face-down cards` },
      [...Array(Math.min(hidden, 11)).keys()].map(() => cardBack({ label: null, size: "small" }))),
    known.length ? cardRow(known, `known cards of ${who}: ${known.map(cardName).join(", ")}`, { size: "small" }) : null);
}

function adviceLine(view, players) {
  const a = view.advice;
  if (!a) return null;
  const text = a.action === null
    ? `${seatName(players, a.seat)} gave the captain advice (the box does not hear it).`
    : `${seatName(players, a.seat)} advises: ${actionName(a.action, view)}`;
  return h("p", { class: "advice" }, h("strong", {}, "Sitter's advice: "), text);
}

/** The whole table for one view. ``cardAction(card)``: what clicking a card of the seat's hand does, or null;
 *  ``me``: the reader's seat ("you" in the result's sentence; null for a spectator or a replay). */
export function renderBoard(view, { players = [], cardAction = null, title = null, drawn = null, arrange = null, me = null } = {}) {
  const roleOf = {};
  for (const [role, seat] of Object.entries(view.roles)) roleOf[seat] = role;
  const board = h("div", { class: "board" });
  board.append(seatsPanel(view, players));
  if (view.hands) { // the full view of a log: every dealt seat's cards, below the stock and the pile
    const hands = h("div", { class: "hands" });
    for (const hand of view.hands) {
      hands.append(renderHand({ title: `${seatName(players, hand.seat)}, ${roleName(roleOf[hand.seat] || "")}`,
        cards: hand.cards, melds: hand.melds, deadwoodCards: hand.deadwood_cards, deadwood: hand.deadwood,
        id: `hand-${hand.seat}` }));
    }
    if (view.stock_cards) {
      hands.append(h("details", { class: "stock-cards" }, h("summary", {}, `The stock, top first (${view.stock_cards.length})`),
        cardRow(view.stock_cards, "the stock, top first", { size: "tiny" })));
    }
    board.append(centre(view), hands);
  } else { // as the card apps lay a table out: the others' hands on top, the stock and the pile, then one's own
    const others = h("div", { class: "hands others" });
    for (const p of view.players) if (p.seat !== view.you || view.role === "sitter") {
      if (view.role === "sitter" && view.cards.length && p.known === null) continue;
      others.append(otherHand(p, players, roleOf));
    }
    const mine = h("div", { class: "hands mine" });
    if (view.role === "sitter") {
      const captain = view.roles.captain;
      mine.append(view.cards.length
        ? renderHand({ title: `The captain's hand (${seatName(players, captain)}), which you advise`, cards: view.cards,
          melds: view.melds, deadwoodCards: view.deadwood_cards, deadwood: view.deadwood, id: "your-hand" })
        : h("p", { class: "muted" }, "You sit out this hand and do not see the captain's cards."));
    } else if (view.you !== null) {
      mine.append(renderHand({ title: title || `Your hand (${seatName(players, view.you)}, ${roleName(view.role)})`,
        cards: view.cards, melds: view.melds, deadwoodCards: view.deadwood_cards, deadwood: view.deadwood,
        cardAction, id: "your-hand", drawn, arrange }));
    }
    board.append(others, centre(view));
    if (mine.childElementCount) board.append(mine);
  }
  const advice = adviceLine(view, players);
  if (advice) board.append(advice);
  if (view.spread || view.result) {
    board.append(renderShowdown({ spread: view.spread, defence: view.defence, result: view.result, hand: view.hand }, players,
      { me }));
  }
  if (view.over) board.append(h("p", { class: "winner" }, view.winner === null ? "Game over: no winner (aborted)."
    : `Game over: ${seatName(players, view.winner)} wins.`));
  return board;
}
