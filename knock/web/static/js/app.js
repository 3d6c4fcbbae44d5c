// The web client's entry: the page the address's fragment names (lobby, a table, replay mode).
import { openLobby } from "./lobby.js";
import { openTable } from "./table.js";
import { openReplay } from "./replay.js";

let close = () => {};

/** A seat's token (its capability, PROTO-3) leaves the address bar once the page has it: kept in this browser's
 *  storage per table and seat, the address replaced by one without it (no history entry holds it); a later load of
 *  that address takes it from storage. Where storage is refused, the address keeps it. */
function keepToken(params) {
  const table = params.get("table");
  const seat = params.get("seat");
  if (!table || seat === null || params.has("spectate")) return params;
  const key = `knock-token:${table}:${seat}`;
  try {
    if (params.has("token")) {
      localStorage.setItem(key, params.get("token"));
      history.replaceState(null, "", `${location.pathname}${location.search}#table=${encodeURIComponent(table)}&seat=${encodeURIComponent(seat)}`);
    } else {
      const kept = localStorage.getItem(key);
      if (kept) params.set("token", kept);
    }
  } catch {
    // storage refused (a private window's policy): the token stays where it was
  }
  return params;
}

function route() {
  close();
  const root = document.getElementById("main");
  const params = keepToken(new URLSearchParams(location.hash.slice(1)));
  if (params.has("table")) {
    close = openTable(root, params);
    document.title = `Knock — table ${params.get("table")}`;
  } else if (params.has("replay")) {
    close = openReplay(root, { table: params.get("replay") || null });
    document.title = "Knock — replay";
  } else {
    close = () => {};
    openLobby(root).then((stop) => { close = stop; });
    document.title = "Knock — lobby";
  }
}

window.addEventListener("hashchange", route);
route();
