// The turn cue: when it becomes the seat's move, the tab's title says so (a person in another tab sees it there)
// and, if the player turned it on, a short tone (made with Web Audio: no sound file) and a buzz on a phone.
const SOUND_KEY = "knock.turnSound";

/** Whether the player turned the tone on (this browser's storage; off until asked for). */
export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "1"; } catch { return false; }
}

/** Keep the player's choice of the tone. */
export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "1" : "0"); } catch { /* kept for this page only */ }
}

let audio = null;

/** Two short notes, and a buzz where the device has one. */
export function playCue() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (Context) {
    audio = audio || new Context();
    const now = audio.currentTime;
    for (const [at, hz] of [[0, 660], [0.12, 880]]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.1);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + at);
      tone.stop(now + at + 0.11);
    }
  }
  if (navigator.vibrate) navigator.vibrate(80);
}

/** The tab's title for the table ``table``: marked while it is the seat's move. */
export function turnTitle(table, mine) {
  document.title = mine ? `● Your move — Knock table ${table}` : `Knock — table ${table}`;
}
