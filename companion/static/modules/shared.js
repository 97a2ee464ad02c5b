// What every page's code shares: finding elements, this phone's storage and seats, the server's
// API, the toast, request ids and join codes.
// Names and log lines are only ever set with textContent, never as HTML.

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

export const store = {
  get(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: memory only */ }
  },
};

// This phone's seats: table id -> {token, player, title, names, at}.
export const seats = {
  all: () => store.get("spellpress.seats", {}),
  get: (id) => seats.all()[id],
  put(id, seat) { store.set("spellpress.seats", { ...seats.all(), [id]: { ...seat, at: Date.now() } }); },
};

// A request the server has not answered within this many ms fails as if offline: on a dead
// connection (a phone out of the Wi-Fi, a server that froze) fetch itself would wait minutes.
const SEND_LIMIT = 4000;

// A form the page's script sends comes with its submit button disabled (in its template): before
// the script is there a tap would send it as a plain page load, losing what was typed. Once its
// handler is attached, this lets it be sent.
export function ready(form) {
  $$("button[type=submit][data-script]", form).forEach((button) => { button.disabled = false; });
}

export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  const response = await fetch(path, {
    method, headers, cache: "no-store", signal: AbortSignal.timeout(SEND_LIMIT),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

let toastTimer = null;
export function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
}

export function requestId() {
  return (crypto.randomUUID && crypto.randomUUID()) ||
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function normalCode(raw) {
  return (raw || "").toUpperCase().replace(/[\s-]/g, "");
}
