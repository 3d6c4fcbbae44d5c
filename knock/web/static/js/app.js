// The web client's entry: the page the address's fragment names (lobby, a table, replay mode).
import { openLobby } from "./lobby.js";
import { openTable } from "./table.js";
import { openReplay } from "./replay.js";

let close = () => {};

function route() {
  close();
  const root = document.getElementById("main");
  const params = new URLSearchParams(location.hash.slice(1));
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
