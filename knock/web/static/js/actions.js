// The seat's legal actions (sent by the server, in the engine's notation) as controls with names in words.
import { h } from "./dom.js";
import { cardName, cardText, meldName } from "./cards.js";

const CARD = /^[A2-9TJQK][cdhs]$/;

function melds(text) {
  return text.split(" ").filter(Boolean).map((m) => m.split("-"));
}

/** An action's words, for its button's name: "discard king of hearts", "take the upcard (seven of clubs)". */
export function actionName(action, view) {
  const [verb, ...rest] = action.split(" ");
  const arg = rest.join(" ");
  switch (verb) {
    case "take": return `take the upcard${view && view.discard_top ? ` (${cardName(view.discard_top)})` : ""}`;
    case "pass": return "pass the upcard";
    case "draw": return "draw from the stock";
    case "pickup": return `take ${view && view.discard_top ? cardName(view.discard_top) : "the top card"} from the discard pile`;
    case "discard": return CARD.test(arg) ? `discard ${cardName(arg)}` : action;
    case "knock": return CARD.test(arg) ? `knock, discarding ${cardName(arg)} face down` : action;
    case "big-gin": return "declare big gin";
    case "decline": return "leave the last discard (the hand is dead)";
    case "spread": return `spread ${melds(arg).map(meldName).join("; ")}`;
    case "layoff": {
      const parts = arg.split(" ").filter(Boolean);
      const shown = parts.filter((p) => !p.includes(">")).map((m) => meldName(m.split("-")));
      const laid = parts.filter((p) => p.includes(">")).map((p) => {
        const [card, onto] = p.split(">");
        return `${cardName(card)} onto ${meldName(onto.split("-"))}`;
      });
      return `show ${shown.length ? shown.join("; ") : "no melds"}, lay off ${laid.length ? laid.join(", ") : "nothing"}`;
    }
    case "advise": {
      const [, ...advice] = rest; // "advise p1 discard Kh"
      return `advise the captain: ${actionName(advice.join(" "), view)}`;
    }
    default: return action;
  }
}

/** A meld short, with the suits' symbols: "5♣ 5♦ 5♥". */
function meldShort(text) {
  return text.split("-").map(cardText).join(" ");
}

/** Visible text for an action's button: its words; a spread or a defence short, with the suits' symbols
 *  ("Spread 5♣ 5♦ 5♥ | 7♠ 8♠ 9♠", "Show 5♣ 5♦ 5♥; lay off 4♠ on A♠ 2♠ 3♠"), never the engine's notation. */
export function actionText(action, view) {
  const [verb, ...rest] = action.split(" ").filter(Boolean);
  if (verb === "spread") return `Spread ${rest.map(meldShort).join(" | ")}`;
  if (verb === "layoff") {
    const shown = rest.filter((p) => !p.includes(">")).map(meldShort);
    const laid = rest.filter((p) => p.includes(">")).map((p) => {
      const [card, onto] = p.split(">");
      return `${cardText(card)} on ${meldShort(onto)}`;
    });
    return `Show ${shown.length ? shown.join(" | ") : "no melds"}; lay off ${laid.length ? laid.join(", ") : "nothing"}`;
  }
  if (verb === "advise") return `Advise: ${actionText(rest.slice(1).join(" "), view)}`;
  const top = view && view.discard_top ? cardText(view.discard_top) : null;
  if (verb === "take" && top) return `Take the upcard, ${top}`;
  if (verb === "pickup" && top) return `Take ${top} from the pile`;
  const words = actionName(action, view);
  return words[0].toUpperCase() + words.slice(1);
}

/** Whether an action is a defence (``layoff``, with the melds shown and the cards laid off, if any). */
export function isDefence(action) {
  return action === "layoff" || action.startsWith("layoff ");
}

/** The defender's answer: a choice of the offered defences as the server ranked them (the view's ``defences``,
 *  PROTO-32: the least deadwood left first), each with that deadwood, the best preselected, and one button. */
function defenceForm(ranked, view, { send, disabled }) {
  const form = h("form", { class: "defences", onsubmit: (event) => {
    event.preventDefault();
    const chosen = form.querySelector("input[type=radio]:checked");
    if (chosen) send(chosen.value);
  } }, h("fieldset", {}, h("legend", {}, "Your answer: the least deadwood first"),
    h("ol", { class: "defence-list" }, ranked.map(({ action, deadwood }, i) => {
      const id = `defence-${i}`;
      return h("li", {}, h("input", { type: "radio", name: "defence", id, value: action, checked: i === 0 || null,
        "data-deadwood": String(deadwood), disabled: disabled || null }),
      h("label", { for: id }, h("span", { class: "defence-text" }, actionText(action, view)),
        h("span", { class: "defence-left" }, `deadwood ${deadwood}`)));
    }))),
  h("button", { type: "submit", class: "primary", disabled: disabled || null }, "Answer with the chosen defence"));
  return form;
}

/** The actions the hand's cards stand for: a card's discard or knock; the rest become buttons. */
export function splitActions(legal) {
  const byCard = { discard: new Map(), knock: new Map() };
  const other = [];
  for (const a of legal) {
    const [verb, arg] = a.split(" ");
    if ((verb === "discard" || verb === "knock") && CARD.test(arg || "")) byCard[verb].set(arg, a);
    else other.push(a);
  }
  return { byCard, other };
}

/** The controls: a button for each action that is not a card's (and a knock toggle when knocking is legal). */
export function renderActions(legal, view, ctx) {
  const { send, knockMode, setKnockMode, disabled, defences = [] } = ctx;
  const { byCard, other } = splitActions(legal);
  const advice = other.filter((a) => a.startsWith("advise "));
  const plain = other.filter((a) => !a.startsWith("advise "));
  const over = !legal.length && view && view.over;
  const section = h("section", { class: "actions", "aria-labelledby": "actions-title" },
    h("h3", { id: "actions-title" }, legal.length ? "Your move" : over ? "Game over" : "Waiting"));
  if (over) {
    section.append(h("p", {}, h("a", { href: "#" }, "Make another table in the lobby")));
    return section;
  }
  if (!legal.length) {
    section.append(h("p", { class: "muted" }, view && view.to_act !== null ? `p${view.to_act} is to act.` : "Nobody is to act."));
    return section;
  }
  const byCards = byCard.discard.size || byCard.knock.size;
  if (byCards) {
    const then = ctx.confirm ? ", then confirm" : "";
    section.append(h("p", { class: "hint" }, knockMode
      ? `Choose the card to discard face down as you knock${then}.`
      : `Choose a card to discard${then}.`));
  }
  if (byCard.knock.size) {
    section.append(h("button", { type: "button", class: "toggle", "aria-pressed": knockMode ? "true" : "false",
      disabled: disabled || null, onclick: () => setKnockMode(!knockMode) }, "Knock"));
  }
  if (byCards && ctx.setConfirm) section.append(...confirmPanel(view, ctx).filter(Boolean));
  if (defences.length) section.append(defenceForm(defences, view, { send, disabled }));
  const list = h("ul", { class: "action-list" });
  for (const a of plain.filter((x) => !(defences.length && isDefence(x)))) { // unranked: buttons (a 1.1 server)
    list.append(h("li", {}, h("button", { type: "button", class: "action", "aria-label": actionName(a, view),
      "data-action": a, disabled: disabled || null, onclick: () => send(a) }, actionText(a, view))));
  }
  if (list.childElementCount) section.append(list);
  if (advice.length) {
    section.append(h("h4", {}, "Advise the captain"));
    section.append(h("ul", { class: "action-list advice-list" }, advice.map((a) => h("li", {},
      h("button", { type: "button", class: "action", "aria-label": actionName(a, view), "data-action": a,
        disabled: disabled || null, onclick: () => send(a) }, actionText(a.split(" ").slice(2).join(" "), view))))));
  }
  return section;
}

/** What clicking a card of the hand does now: {name, action, run, pressed} or null. With ``confirm`` (the
 *  player's option, on by default on a touch screen: a tap cannot misfire), a first tap only chooses the card
 *  (``choose(action)``; ``chosen``: the action chosen) and a second tap on it, or the confirmation's button,
 *  makes the move. */
export function cardActionFor(legal, { send, knockMode, disabled, confirm = false, chosen = null, choose = null }) {
  const { byCard } = splitActions(legal);
  return (card) => {
    if (disabled) return null;
    const action = knockMode ? byCard.knock.get(card) : byCard.discard.get(card);
    if (!action) return null;
    const name = knockMode ? `knock with ${cardName(card)}` : `discard ${cardName(card)}`;
    if (!confirm || !choose) return { name, action, run: () => send(action) };
    return { name, action, pressed: chosen === action, run: () => (chosen === action ? send(action) : choose(action)) };
  };
}

/** The chosen card's move, to confirm (or the choice to cancel), and the player's option of confirming. */
function confirmPanel(view, { send, disabled, confirm, chosen, choose, setConfirm }) {
  const bar = chosen ? h("p", { class: "confirm-bar" },
    h("button", { type: "button", class: "primary confirm", "data-confirm": chosen, disabled: disabled || null,
      onclick: () => send(chosen) }, actionText(chosen, view)),
    h("button", { type: "button", class: "cancel", onclick: () => choose(null) }, "Cancel")) : null;
  const box = h("input", { type: "checkbox", id: "confirm-discards", checked: confirm || null,
    onchange: () => setConfirm(box.checked) });
  return [bar, h("p", { class: "confirm-option" }, box, h("label", { for: "confirm-discards" }, "Confirm each discard"))];
}
