// A hand drawn grouped by its melds, then its deadwood with the deadwood's count (all from the view).
import { h } from "./dom.js";
import { cardButton, cardName, cardSvg, meldName } from "./cards.js";

/** ``cardAction(card)`` gives {name, run} for a card the player may click now, or null. */
export function renderHand({ title, cards, melds, deadwoodCards, deadwood, cardAction = null, id = null, drawn = null }) {
  const section = h("section", { class: "hand", "aria-labelledby": id ? `${id}-title` : null },
    h("h3", { id: id ? `${id}-title` : null }, title));
  if (!cards || cards.length === 0) {
    section.append(h("p", { class: "muted" }, "no cards"));
    return section;
  }
  const groups = h("div", { class: "hand-groups" });
  const placed = new Set();
  for (const meld of melds || []) {
    meld.forEach((c) => placed.add(c));
    groups.append(group(meld, `meld: ${meldName(meld)}`, "meld", cardAction, drawn));
  }
  const rest = (deadwoodCards || cards.filter((c) => !placed.has(c)));
  if (rest.length) {
    groups.append(group(rest, `deadwood: ${rest.map(cardName).join(", ")}`, "deadwood", cardAction, drawn));
  }
  section.append(groups);
  if (deadwood !== null && deadwood !== undefined) {
    section.append(h("p", { class: "deadwood-count" }, `Deadwood: ${deadwood}`,
      melds && melds.length ? ` (${melds.length} meld${melds.length > 1 ? "s" : ""})` : " (no melds)"));
  }
  return section;
}

/** A group's cards; the card just taken or drawn (``drawn``) is marked, in its name too. */
function group(cards, name, kind, cardAction, drawn) {
  const list = h("ul", { class: `card-row ${kind}`, "aria-label": name });
  for (const c of cards) {
    const action = cardAction ? cardAction(c) : null;
    const isNew = c === drawn;
    const item = h("li", { class: isNew ? "drawn" : null });
    const named = isNew && action ? { ...action, name: `${action.name} (the card just taken)` } : action;
    item.append(named ? cardButton(c, named.name, named.run, { action: named.action })
      : cardSvg(c, { label: isNew ? `${cardName(c)} (the card just taken)` : true }));
    if (isNew) item.append(h("span", { class: "drawn-mark", "aria-hidden": "true" }, "new"));
    list.append(item);
  }
  return h("div", { class: `group ${kind}` }, h("span", { class: "group-label", "aria-hidden": "true" },
    kind === "meld" ? "meld" : "deadwood"), list);
}
