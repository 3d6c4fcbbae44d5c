// The entry of ``knock view``'s file: the transcript embedded in the page, replayed with no server and no network.
import { fill, h } from "./dom.js";
import { showTranscript } from "./replay.js";

const root = document.getElementById("main");
const data = document.getElementById("knock-transcript");
try {
  const t = JSON.parse(data.textContent);
  showTranscript(root, t, { title: `Replay${t.name ? `: ${t.name}` : ""}` });
} catch (err) {
  fill(root, h("p", { role: "alert" }, `This file's transcript cannot be read: ${err.message}`));
}
