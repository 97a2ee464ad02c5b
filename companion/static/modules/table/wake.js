// The screen kept awake: the Wake Lock API where the browser has it (https, or localhost); on a
// home network's plain http, a silent video drawn from a canvas plays instead, as browsers keep
// the screen on while a video plays (Firefox for a stream's video; Chromium for one that fills a
// fifth of the screen: it lies behind the page, see app.css). It starts on a tap; the Table
// sheet says which it is and turns it off.
import { $, store } from "../shared.js";

const awake = { want: true, lock: null, video: null };

function awakeVideo() {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 16;
  const paint = canvas.getContext("2d");
  let tick = 0;
  const draw = () => { paint.fillStyle = tick++ % 2 ? "#5b3cc4" : "#5b3cc5"; paint.fillRect(0, 0, 16, 16); };
  draw();
  const video = document.createElement("video");
  video.className = "awake-video";
  video.muted = true;
  video.playsInline = true;
  video.setAttribute("aria-hidden", "true");
  video.srcObject = canvas.captureStream(1);
  setInterval(() => { if (!video.paused) draw(); }, 5000); // a fresh frame now and then: it keeps playing
  video.addEventListener("pause", showAwake);
  video.addEventListener("playing", showAwake);
  document.body.append(video);
  return video;
}

export async function keepAwake(tapped = false) {
  if (!awake.want || document.visibilityState !== "visible") return showAwake();
  if (awake.lock || (awake.video && !awake.video.paused)) return showAwake();
  if ("wakeLock" in navigator) {
    try {
      awake.lock = await navigator.wakeLock.request("screen");
      awake.lock.addEventListener("release", () => { awake.lock = null; showAwake(); });
      return showAwake();
    } catch { /* refused (no focus, a power saver): the video may do it */ }
  }
  if (tapped || awake.video) { // once started by a tap, a muted video may start again by itself
    awake.video = awake.video || awakeVideo();
    try { await awake.video.play(); } catch { /* not allowed: said below */ }
  }
  showAwake();
}

function letSleep() {
  if (awake.lock) awake.lock.release();
  awake.lock = null;
  if (awake.video) awake.video.pause();
}

function showAwake() {
  const playing = Boolean(awake.video && !awake.video.paused);
  const on = Boolean(awake.lock) || playing;
  $("#awake").textContent = !awake.want ? "Screen: sleeps as usual." :
    awake.lock ? "Screen: kept awake while this table is open." :
      playing ? "Screen: kept awake while this table is open (by a silent video: this page is on plain http)." :
        "Screen: kept awake from your next tap on the table.";
  const toggle = $("#awake-toggle");
  toggle.setAttribute("aria-pressed", String(awake.want));
  $("span", toggle).textContent = awake.want ? "on" : "off";
  document.body.dataset.awake = on ? "on" : "off";
}

export function wireWake() {
  awake.want = store.get("spellpress.awake", true);
  $("#awake-toggle").addEventListener("click", () => {
    awake.want = !awake.want;
    store.set("spellpress.awake", awake.want);
    if (awake.want) keepAwake(true); else { letSleep(); showAwake(); }
  });
  // Browsers let a page keep the screen on only after a tap: the first one on the table starts it.
  for (const kind of ["pointerup", "keydown"]) {
    document.addEventListener(kind, () => {
      if (awake.want && !awake.lock && !(awake.video && !awake.video.paused)) keepAwake(true);
    }, { capture: true });
  }
}
