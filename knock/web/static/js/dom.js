// Small DOM helpers: element building, clearing, and the page's live region.

/** An element: h("button", {class: "x", onclick: f}, "text", child). Attributes set as given; on* are listeners. */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const el = svg
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Remove every child of an element and put new ones in. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Say something to assistive technology through the page's polite live region. */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region || !text) return;
  const line = h("p", {}, text);
  region.append(line);
  while (region.childElementCount > 5) region.firstElementChild.remove();
}

/** A seat's name as the table's words say it: the player's name where it names that seat alone, else ``p0``, or
 *  ``ann (p0)`` for a name two seats share. The rule of ``replay.narration.display_names``, which words the
 *  server's narration (a name that reads as a seat's number or as "you" is not used: it would pass for another). */
export function seatName(players, seat) {
  if (seat === null || seat === undefined) return "nobody";
  const id = `p${seat}`;
  const name = ((players && players[seat]) || "").trim();
  if (!name || /^p\d+$/i.test(name) || ["you", "your", "nobody"].includes(name.toLowerCase())) return id;
  const same = players.filter((n) => (n || "").trim().toLowerCase() === name.toLowerCase()).length;
  return same > 1 ? `${name} (${id})` : name;
}

/** A seat in a sentence to the reader ``me`` (a seat, or null): "you" for the reader's own. */
export function who(players, seat, me = null) {
  return seat !== null && seat !== undefined && seat === me ? "you" : seatName(players, seat);
}

/** A role's words. */
export function roleName(role) {
  return { non_dealer: "non-dealer", game_over: "game over" }[role] || String(role).replaceAll("_", " ");
}
