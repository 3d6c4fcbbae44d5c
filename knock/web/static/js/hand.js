// A hand drawn grouped by its melds, then its deadwood with the deadwood's count (all from the view).
import { h } from "./dom.js";
import { cardButton, cardName, cardSvg, meldName } from "./cards.js";

/** ``cardAction(card)`` gives {name, run} for a card the player may click now, or null. ``arrange``, for the
 *  seat's own hand: {order, move(card, index), reset()}: the player's own order of his cards (null: grouped by
 *  the view's melds), changed by dragging a card onto another or by Alt+arrow keys on a card. */
export function renderHand({ title, cards, melds, deadwoodCards, deadwood, cardAction = null, id = null, drawn = null,
  arrange = null }) {
  const section = h("section", { class: "hand", "aria-labelledby": id ? `${id}-title` : null },
    h("h3", { id: id ? `${id}-title` : null }, title));
  if (!cards || cards.length === 0) {
    section.append(h("p", { class: "muted" }, "no cards"));
    return section;
  }
  const groups = h("div", { class: "hand-groups" });
  if (arrange && arrange.order) {
    groups.append(group(arrange.order, "your hand in your order", "arranged", cardAction, drawn, arrange));
    section.append(groups, h("p", { class: "arrange-help" },
      h("button", { type: "button", class: "regroup", onclick: () => arrange.reset() }, "Group by melds again"),
      h("span", { class: "deadwood-count" }, ` Deadwood: ${deadwood}`)));
    return section;
  }
  const placed = new Set();
  for (const meld of melds || []) {
    meld.forEach((c) => placed.add(c));
    groups.append(group(meld, `meld: ${meldName(meld)}`, "meld", cardAction, drawn, arrange));
  }
  const rest = (deadwoodCards || cards.filter((c) => !placed.has(c)));
  if (rest.length) {
    groups.append(group(rest, `deadwood: ${rest.map(cardName).join(", ")}`, "deadwood", cardAction, drawn, arrange));
  }
  section.append(groups);
  const count = deadwood !== null && deadwood !== undefined ? h("p", { class: "deadwood-count" }, `Deadwood: ${deadwood}`,
    melds && melds.length ? ` (${melds.length} meld${melds.length > 1 ? "s" : ""})` : " (no melds)") : null;
  const hint = arrange ? h("p", { class: "hint arrange-hint" }, "Drag a card onto another to arrange your hand",
    h("span", { class: "keys-hint" }, " (or Alt+arrow keys on a card)"), ".") : null;
  if (count || hint) section.append(h("div", { class: "hand-foot" }, count, hint));
  return section;
}

/** A group's cards; the card just taken or drawn (``drawn``) is marked, in its name too. */
function group(cards, name, kind, cardAction, drawn, arrange) {
  const list = h("ul", { class: `card-row ${kind}`, "aria-label": name });
  for (const [at, c] of cards.entries()) {
    const action = cardAction ? cardAction(c) : null;
    const isNew = c === drawn;
    const item = h("li", { class: isNew ? "drawn" : null });
    const named = isNew && action ? { ...action, name: `${action.name} (the card just taken)` } : action;
    item.append(named ? cardButton(c, named.name, named.run, { action: named.action, pressed: named.pressed ?? null })
      : cardSvg(c, { label: isNew ? `${cardName(c)} (the card just taken)` : true }));
    if (isNew) item.append(h("span", { class: "drawn-mark", "aria-hidden": "true" }, "new"));
    if (arrange) arrangeable(item, c, kind === "arranged" ? at : null, arrange);
    list.append(item);
  }
  return h("div", { class: `group ${kind}` }, h("span", { class: "group-label", "aria-hidden": "true" },
    kind === "meld" ? "meld" : "deadwood"), list);
}

/** A card the player may move: dragged (pointer events) onto another card, or by Alt+Left / Alt+Right on it
 *  (a card that is no button is focusable for that). */
function arrangeable(item, card, at, arrange) {
  item.dataset.card = card;
  item.classList.add("arrangeable");
  let target = item.querySelector("button");
  if (!target) { // the card's picture takes the focus, named for what the keys do
    target = item.querySelector("svg");
    target.setAttribute("tabindex", "0");
    target.setAttribute("focusable", "true");
    target.setAttribute("role", "img");
    target.setAttribute("aria-label", `${target.getAttribute("aria-label") || cardName(card)}: Alt and an arrow key move it`);
  }
  target.addEventListener("keydown", (event) => {
    if (!event.altKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    event.preventDefault();
    arrange.move(card, event.key === "ArrowLeft" ? -1 : 1, true);
  });
  item.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    item.classList.add("dragging");
    const up = (e) => {
      document.removeEventListener("pointerup", up);
      item.classList.remove("dragging");
      const over = document.elementFromPoint(e.clientX, e.clientY)?.closest("li.arrangeable");
      if (over && over !== item) arrange.moveOnto(card, over.dataset.card);
    };
    document.addEventListener("pointerup", up);
  });
}
