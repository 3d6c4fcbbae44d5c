// The discards seen so far at a table: every card put face up on the pile this hand, oldest first.
import { h, seatName } from "./dom.js";
import { cardName, cardRow, cardSvg } from "./cards.js";

/** The hand's discards, oldest first (the upcard first), those picked up since marked with who took them
 *  (``list``: the view's ``discards``, PROTO-34: public; the server writes the list). From a server of protocol
 *  1.1 (``list`` null), the pile as it stands. */
export function renderDiscards(list, view, players) {
  if (!list) {
    const pile = view.discard_pile || [];
    return h("section", { class: "discards", "aria-labelledby": "discards-title" },
      h("h3", { id: "discards-title" }, `Discard pile, oldest first (${pile.length})`),
      pile.length ? cardRow(pile, "the discard pile, oldest first", { size: "tiny" }) : h("p", { class: "muted" }, "empty"));
  }
  const taken = list.filter((d) => d.taken !== null).length;
  const who = (d) => (d.seat === null ? "the upcard" : `by ${seatName(players, d.seat)}`);
  return h("section", { class: "discards", "aria-labelledby": "discards-title" },
    h("h3", { id: "discards-title" }, `Discards this hand, oldest first (${list.length}; ${taken} picked up)`),
    list.length
      ? h("ol", { class: "card-row discard-list", "aria-label": "every card discarded this hand, oldest first" },
        list.map((d) => {
          const name = `${cardName(d.card)}, ${who(d)}${d.taken === null ? "" : `, picked up by ${seatName(players, d.taken)}`}`;
          return h("li", { class: d.taken === null ? "in-pile" : "taken", "data-card": d.card,
            "data-taken": d.taken === null ? "" : String(d.taken) },
            cardSvg(d.card, { label: name, size: "tiny" }),
            d.taken === null ? null : h("span", { class: "taken-mark", "aria-hidden": "true" }, `→ p${d.taken}`));
        }))
      : h("p", { class: "muted" }, "none"));
}
