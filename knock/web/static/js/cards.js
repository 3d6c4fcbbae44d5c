// Cards drawn as SVG: rank and suit symbol in the corners, a large symbol in the middle, red or black.

const RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const RANK_WORDS = { A: "ace", T: "ten", J: "jack", Q: "queen", K: "king",
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine" };
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUIT_WORDS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const NS = "http://www.w3.org/2000/svg";

/** "Kh" -> "king of hearts". */
export function cardName(card) {
  return `${RANK_WORDS[card[0]] || card[0]} of ${SUIT_WORDS[card[1]] || card[1]}`;
}

/** "Kh" -> "K♥" (short text with the suit's symbol). */
export function cardText(card) {
  return `${RANKS[card[0]] || card[0]}${SUITS[card[1]] || card[1]}`;
}

/** A meld in words: "four, five, six of clubs" for a run, "sevens: clubs, diamonds, hearts" for a set. */
export function meldName(cards) {
  if (cards.length && cards.every((c) => c[1] === cards[0][1])) {
    return `${cards.map((c) => RANK_WORDS[c[0]]).join(", ")} of ${SUIT_WORDS[cards[0][1]]}`;
  }
  return cards.map(cardName).join(", ");
}

export function isRed(card) {
  return card[1] === "h" || card[1] === "d";
}

function el(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A card face as an SVG element. ``label``: its accessible name when it stands alone (else it is hidden
 *  from assistive technology, for a button that names it). */
export function cardSvg(card, { label = true, size = "normal" } = {}) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: `card card-${size} ${isRed(card) ? "red" : "black"}` });
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", typeof label === "string" ? label : cardName(card));
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  svg.setAttribute("focusable", "false");
  const rank = RANKS[card[0]] || card[0];
  const suit = SUITS[card[1]] || "?";
  svg.append(
    el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-face" }),
    el("text", { x: 5, y: 20, class: "card-rank", "text-anchor": "start" }, rank),
    el("text", { x: 5, y: 35, class: "card-suit-small", "text-anchor": "start" }, suit),
    el("text", { x: 34, y: 66, class: "card-suit-big", "text-anchor": "middle" }, suit),
  );
  return svg;
}

/** The back of a card (the stock, an opponent's hidden cards). */
export function cardBack({ label = "a face-down card", size = "normal" } = {}) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: `card card-${size} back` });
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  svg.setAttribute("focusable", "false");
  svg.append(
    el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-back" }),
    el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 3, class: "card-back-inner" }),
  );
  return svg;
}

/** A card the player may click: a button named by what it does ("discard king of hearts"). */
export function cardButton(card, name, onClick, { size = "normal", action = null, pressed = null } = {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = pressed ? "card-button chosen" : "card-button";
  button.setAttribute("aria-label", name);
  if (pressed !== null) button.setAttribute("aria-pressed", pressed ? "true" : "false");
  button.dataset.card = card;
  if (action) button.dataset.action = action;
  button.append(cardSvg(card, { label: false, size }));
  button.addEventListener("click", onClick);
  return button;
}

/** A row of cards (a meld, the deadwood, a spread), as a list with a name. */
export function cardRow(cards, name, { size = "normal" } = {}) {
  const list = document.createElement("ul");
  list.className = "card-row";
  list.setAttribute("aria-label", name);
  for (const c of cards) {
    const item = document.createElement("li");
    item.append(cardSvg(c, { size }));
    list.append(item);
  }
  return list;
}
