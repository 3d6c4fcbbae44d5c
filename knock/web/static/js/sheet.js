// The score sheet: every hand's result, each column's points and boxes, the totals.
import { h, seatName, who } from "./dom.js";
import { resultText } from "./showdown.js";

export function renderSheet(sheet, players, seats, me = null) {
  const section = h("section", { class: "sheet", "aria-labelledby": "sheet-title" }, h("h3", { id: "sheet-title" }, "Score sheet"));
  if (!sheet) return section;
  const n = seats || (sheet.totals ? sheet.totals.length : 2);
  const columnSeats = [...Array(n).keys()];
  const results = h("table", { class: "sheet-results" },
    h("caption", {}, "Hands"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "Result"),
      columnSeats.map((s) => h("th", { scope: "col" }, seatName(players, s))))),
    h("tbody", {}, sheet.results.length === 0
      ? h("tr", {}, h("td", { colspan: 2 + n }, "no hand finished yet"))
      : sheet.results.map(({ hand, result }) => h("tr", {},
        h("th", { scope: "row" }, String(hand)), h("td", {}, resultText(result, players, me)),
        columnSeats.map((s) => h("td", { class: "num" }, result.winner === s ? String(result.points) : ""))))));
  section.append(results);
  const columns = sheet.columns || [];
  const totals = h("table", { class: "sheet-totals" },
    h("caption", {}, columns.length > 1 ? "Columns (Hollywood) and totals" : "Totals"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), columnSeats.map((s) => h("th", { scope: "col" }, seatName(players, s))))),
    h("tbody", {},
      columns.map((c, i) => [
        h("tr", {}, h("th", { scope: "row" }, columns.length > 1 ? `Column ${i + 1} points` : "Points"),
          columnSeats.map((s) => h("td", { class: "num" }, String(c.points[s])))),
        h("tr", {}, h("th", { scope: "row" }, columns.length > 1 ? `Column ${i + 1} boxes (hands won)` : "Boxes (hands won)"),
          columnSeats.map((s) => h("td", { class: "num" }, String(c.boxes[s])))),
      ]),
      h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"),
        columnSeats.map((s) => h("td", { class: "num" }, String(sheet.totals[s]))))));
  section.append(totals);
  if (sheet.winner !== null && sheet.winner !== undefined) {
    const you = sheet.winner === me;
    section.append(h("p", { class: "winner" }, `${you ? "You" : who(players, sheet.winner)} ${you ? "win" : "wins"} the game.`));
  }
  return section;
}
