// The connection: the table's stream of changes (a whole state, then patches, and a beat every
// 2 s), a watchdog that notices a stream fallen silent, and the table read whole when the stream
// is refused, after a reconnect or a wake. Each word from the server sets the status to live
// and sends the taps waiting.
import { api } from "../shared.js";
import { accept, id, state, version } from "./model.js";
import { addLog, refreshLog } from "./log.js";
import { flush } from "./queue.js";
import { link, setStatus } from "./status.js";

// A stream the server refuses (it holds as many as it can) closes at once: the page then reads
// the table every few seconds, and asks for a stream again less and less often.
let source = null;
let polling = null;
let retry = 2000;
let heard = 0; // when the stream last said anything (the server sends a beat every 2 s)
let lastRead = -Infinity; // when the table was last read without a stream
const SILENCE = 4000; // ms without a word before the phone says it is offline

export function connect() {
  if (source) source.close();
  heard = performance.now();
  source = new EventSource(`/api/tables/${encodeURIComponent(id)}/stream`);
  source.addEventListener("open", () => { heard = performance.now(); });
  // Any word from the server (a beat every 2 s, at least) means the table is live again.
  for (const kind of ["state", "patch", "beat"]) {
    source.addEventListener(kind, () => {
      heard = performance.now();
      if (link === "live") return;
      setStatus("live");
      flush();
    });
  }
  source.addEventListener("state", (event) => {
    const message = JSON.parse(event.data);
    addLog(message.events);
    accept(message.version, message.state);
    setStatus("live");
  });
  // What changed since `base`: applied to the state this phone holds if that is `base`;
  // a phone elsewhere (its own tap answered meanwhile) reads the whole table instead.
  source.addEventListener("patch", (event) => {
    const message = JSON.parse(event.data);
    addLog(message.events);
    setStatus("live");
    if (message.version <= version) return;
    if (message.base !== version) { refresh(); return; }
    const next = { ...state, ...message.set };
    for (const key of message.unset) delete next[key];
    accept(message.version, next);
  });
  source.addEventListener("open", () => {
    retry = 2000;
    if (polling) { clearInterval(polling); polling = null; }
    refreshLog();
    flush();
  });
  source.addEventListener("error", () => {
    // A stream that ended is reopened by the browser itself (every 5 minutes, by design): the
    // watchdog below says offline if that takes too long. A refused one is closed for good.
    if (source.readyState !== EventSource.CLOSED) return;
    if (!polling || performance.now() - lastRead > 5000) setStatus("offline");
    if (!polling) polling = setInterval(refresh, 3000);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

export const streamClosed = () => !source || source.readyState === EventSource.CLOSED;

// A stream that falls silent (a dead Wi-Fi, a frozen server) sends no error: the phone notices
// the missing beats, says so, and tries a new stream every few seconds.
export function watch() {
  setInterval(() => {
    const quiet = performance.now() - heard;
    if (quiet < SILENCE || (source && source.readyState === EventSource.CLOSED)) return;
    setStatus("offline");
    if (quiet > 3 * SILENCE) connect();
  }, 500);
}

export async function refresh() {
  try {
    const data = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
    accept(data.version, data.state);
    refreshLog();
    if (polling) { // refused a stream, the page reads the table: that is live enough
      lastRead = performance.now();
      if (link !== "live") { setStatus("live"); flush(); }
    }
  } catch { setStatus("offline"); }
}
