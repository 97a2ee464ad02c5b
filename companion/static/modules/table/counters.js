// The counters: each one's number, its taps not yet sent and its buttons' names, drawn from what
// this phone holds; a tap, a long press (five steps, repeated while held) and a typed amount,
// each queued to be sent.
import { $, $$, requestId, toast } from "../shared.js";
import { clamp, key, maxDelta, pending, pendingDelta, redraw, savePending, seat, serverValue, shown, spec } from "./model.js";
import { flush } from "./queue.js";
import { link } from "./status.js";

export function showCounters(board) {
  for (const el of $$(".counter", board)) {
    const player = el.dataset.player === "" ? null : Number(el.dataset.player);
    const counter = el.dataset.counter;
    const num = $(".num", el);
    const text = String(shown(player, counter));
    num.style.setProperty("--digits", String(Math.max(2, text.length))); // app.css sizes the number to its room
    if (num.textContent !== text) {
      num.textContent = text;
      el.classList.remove("bump");
      void el.offsetWidth; // restart the animation
      el.classList.add("bump");
    }
    const waiting = pendingDelta(player, counter);
    el.classList.toggle("pending", waiting !== 0);
    const wait = $(".wait", el);
    wait.textContent = waiting ? `${waiting > 0 ? "+" : "\u2212"}${Math.abs(waiting)} not sent yet` : "";
    wait.hidden = !waiting;
    name(el, text, waiting);
  }
}

// A counter's buttons are named with whose number it is and its value, as shown.
function name(el, value, waiting) {
  const what = `${el.dataset.who}${el.dataset.what} ${value}` +
    (waiting ? ` (${waiting > 0 ? "+" : "minus "}${Math.abs(waiting)} not sent yet)` : "");
  const step = Number(el.dataset.step);
  $(".step.down", el).setAttribute("aria-label", `${what}, decrease by ${step}, hold for ${5 * step}`);
  $(".value", el).setAttribute("aria-label", `${what}, type an amount`);
  $(".step.up", el).setAttribute("aria-label", `${what}, increase by ${step}, hold for ${5 * step}`);
}

function tap(el, steps) {
  if (!seat) { toast("Join this table to keep score."); return; }
  const player = el.dataset.player === "" ? null : Number(el.dataset.player);
  const counter = el.dataset.counter;
  const s = spec(counter);
  const base = serverValue(player, counter);
  const before = pendingDelta(player, counter);
  // Taps past a bound change nothing: they are not sent, so an undo takes back a real change.
  const after = clamp(base + before + steps * s.step, s) - base;
  if (after === before) {
    el.classList.remove("at-bound");
    void el.offsetWidth;
    el.classList.add("at-bound");
    return;
  }
  const delta = after - before;
  const last = pending[pending.length - 1];
  if (last && !last.sent && key(last.action.player, last.action.counter) === key(player, counter)) {
    last.action.delta += delta;
    if (last.action.delta === 0) pending.pop();
  } else {
    pending.push({ rid: requestId(), action: { type: "adjust", player, counter, delta } });
  }
  savePending();
  redraw();
  // At once; taps made while one is on its way, or while offline, go together as the next change.
  if (link !== "offline" && navigator.onLine !== false) flush();
}

export function wireCounters() {
  // Taps and long presses (five steps, repeated while held); keyboard clicks count as taps.
  let held = null;
  function release() {
    if (!held) return;
    clearTimeout(held.timer);
    clearInterval(held.repeat);
    held.button.classList.remove("held");
    held = null;
  }
  document.addEventListener("pointerdown", (event) => {
    const button = event.target.closest(".counter .step");
    if (!button || event.button > 0) return;
    release();
    const counter = button.closest(".counter");
    const sign = Number(button.dataset.sign);
    held = { button, long: false };
    button.classList.add("held");
    held.timer = setTimeout(() => {
      held.long = true;
      tap(counter, 5 * sign);
      if (navigator.vibrate) navigator.vibrate(20);
      held.repeat = setInterval(() => tap(counter, 5 * sign), 600);
    }, 450);
  });
  document.addEventListener("pointerup", (event) => {
    if (!held) return;
    const { button, long } = held;
    release();
    if (!long && event.target.closest(".counter .step") === button) {
      tap(button.closest(".counter"), Number(button.dataset.sign));
    }
  });
  document.addEventListener("pointercancel", release);
  document.addEventListener("contextmenu", (event) => {
    if (event.target.closest(".counter")) event.preventDefault();
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".counter .step");
    if (button && event.detail === 0) tap(button.closest(".counter"), Number(button.dataset.sign));
  });

  // A typed amount
  let amountFor = null;
  document.addEventListener("click", (event) => {
    const value = event.target.closest(".counter .value");
    if (!value) return;
    if (!seat) { toast("Join this table to keep score."); return; }
    amountFor = value.closest(".counter");
    $("#amount-h").textContent = amountFor.dataset.label;
    $("#amount").value = "";
    $("#amount-sheet").returnValue = ""; // closed with Escape, it changes nothing
    $("#amount-sheet").showModal();
    $("#amount").focus();
  });
  $("#amount-sheet").addEventListener("close", () => {
    const sign = Number($("#amount-sheet").returnValue);
    const amount = Math.abs(Math.trunc(Number($("#amount").value)));
    if (!sign || !amount || !amountFor) return;
    const step = Number(amountFor.dataset.step);
    if (amount > maxDelta || amount % step) {
      toast(amount % step ? `Use steps of ${step}.` : `At most ${maxDelta} at once.`);
      return;
    }
    tap(amountFor, (sign * amount) / step);
  });
}
