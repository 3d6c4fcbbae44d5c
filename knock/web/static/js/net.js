// One seat's WebSocket to the table (spec/protocol.md): hello with the token, the views, acting at the view's
// record number, reconnecting with the token when the connection drops.

export const PROTOCOL = [1, 4];
const FINAL = new Set([1003, 1008, 1009, 4001]); // closed for a reason a retry would not change (PROTO-3, PROTO-11)

/** Every frame this page received, for the browser tests to check against the protocol's schema. */
export const frames = [];
window.knockFrames = frames;

export class Seat {
  /** ``hello``: {table, token} or {table, spectate: true}; ``on``: handlers by message type, and
   *  ``status(text)`` for the connection's state. */
  constructor(hello, on) {
    this.hello = hello;
    this.on = on;
    this.record = null; // the record number of the newest view (PROTO-7)
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.pending = null; // the action sent and not yet answered
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws`;
  }

  open() {
    this.closed = false;
    this.on.status?.(this.retry ? "reconnecting…" : "connecting…");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, ...this.hello }));
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.pending = null;
      if (this.closed || FINAL.has(event.code)) {
        this.on.status?.(`closed (${event.code}${event.reason ? `: ${event.reason}` : ""})`);
        this.on.closed?.(event.code);
        return;
      }
      this.retry += 1;
      const wait = Math.min(5000, 250 * 2 ** Math.min(this.retry, 5));
      this.on.status?.(`connection lost; reconnecting in ${(wait / 1000).toFixed(1)} s`);
      this.timer = setTimeout(() => this.open(), wait);
    });
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    frames.push(message);
    if (frames.length > 20000) frames.shift();
    if (message.type === "welcome") {
      this.retry = 0;
      this.on.status?.("connected");
    }
    if (message.type === "view") this.record = message.record;
    if (message.type === "ack" || message.type === "refusal") this.pending = null;
    if (message.type === "refusal" && message.rule === "PROTO-7") this.send({ type: "view" }); // act on the newest
    const handler = this.on[message.type];
    if (handler) handler(message);
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send an action at the newest view's record number (PROTO-7). */
  act(action) {
    if (this.record === null || this.pending) return false;
    this.pending = action;
    if (!this.send({ type: "act", action, record: this.record })) {
      this.pending = null;
      return false;
    }
    return true;
  }

  /** Claim the game against the seat ``against``, away by the server's record, at the newest view's record
   *  (PROTO-42: the server writes the time). */
  claim(against) {
    if (this.record === null || this.pending) return false;
    this.pending = `claim p${against}`;
    if (!this.send({ type: "claim", against, record: this.record })) {
      this.pending = null;
      return false;
    }
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
  }
}
