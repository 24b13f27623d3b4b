// What every view of the page shares: the state (S, one part per view), the JSON API and its
// errors, the seat keys kept per table, the form kept across reloads, and small DOM builders.

export const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
export const TABS = ["play", "replay", "analyse", "tables"];
export const S = {
  tab: "play",
  info: null,
  address: "",
  play: { view: null, spots: null, picked: null, live: null, presence: null },
  replay: { file: null, games: null, filter: null, game: null, frame: null, target: 0,
            loading: false, seat: null, spots: null },
  analyse: { source: null, picture: null, job: null, status: null, cancelled: false },
  tables: { file: null, data: null },
  // the review (review.js): the game it is of, its id on the server, its result, the decision
  // picked and its lesson; retry: its mistakes to retry (retry.js); kept: the name it is kept
  // under in the save folder
  review: { for: "", id: null, title: "", result: null, decision: null, step: 0, frame: null,
            view: null, onPick: () => {}, retry: null, kept: null },
};

// ----- the API -------------------------------------------------------------------------
// Every request goes through api(): the seat key header, one line shown for any error, and
// an ApiError thrown that the event handlers (guarded()) swallow, so nothing goes uncaught.
export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

export async function api(method, url, body, { key = null, quiet = false } = {}) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  if (key) options.headers["X-Seat-Key"] = key;
  Object.assign(options.headers, authHeaders());
  let response, data;
  try {
    response = await fetch(url, options);
    data = await response.json();
  } catch (err) {
    if (!quiet) showError("the server does not answer (is savanna serve still running?)");
    throw new ApiError(String(err), 0);
  }
  if (!response.ok) {
    let text = (data && data.error) || `${response.status}`;
    if (response.status === 401) text = `Not allowed in: open the URL savanna serve printed. ${text}`;
    if (!quiet) showError(text);
    throw new ApiError(text, response.status);
  }
  if (!quiet) showError("");
  return data;
}

// ----- the token: the cookie carries it, except in a frame of another site's page (a
// notebook), which gets no SameSite=Strict cookie: there the address's fragment brings it
// (#token=TOKEN&play/...), never sent to any server, kept for this tab only ------------------
let token = null;

export function takeToken() {
  const found = /^#token=([A-Za-z0-9._~-]*)&?(.*)$/.exec(location.hash);
  if (found) {
    token = found[1];
    try { sessionStorage.setItem("savanna-token", token); } catch { /* kept in memory */ }
    history.replaceState(null, "", `#${found[2]}`);
  } else {
    try { token = sessionStorage.getItem("savanna-token"); } catch { /* none kept */ }
  }
}

export function authHeaders() { return token ? { Authorization: `token ${token}` } : {}; }

export function guarded(fn) {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (err) {
      if (!(err instanceof ApiError)) {
        showError(`page error: ${err.message}`);
        console.warn(err);
      }
    }
  };
}

export function showError(text) { $("error").textContent = text; }

// ----- seat keys (PROTOCOL.md): per table in localStorage, so that a reload and several
// humans at one screen keep their seats: {"0": KEY, "2": KEY, control: KEY} ---------------------
const held = {};  // the same in memory: where storage is refused (a frame of another site)

function keysOf(id) {
  let stored = {};
  try { stored = JSON.parse(localStorage.getItem(`savanna-keys/${id}`)) || {}; } catch { /* */ }
  return { ...held[id], ...stored };
}

export function keepKeys(id, keys) {
  held[id] = { ...keysOf(id), ...keys };
  try {
    localStorage.setItem(`savanna-keys/${id}`, JSON.stringify(held[id]));
  } catch { /* storage refused: the keys live as long as the page */ }
}

// The invitation links of a table this screen made: {"1": "/?token=...#play/ID/KEY",
// spectate: ...}, kept as its keys are.
export function invitationsOf(id) {
  try { return JSON.parse(localStorage.getItem(`savanna-invites/${id}`)) || {}; } catch { return {}; }
}

export function keepInvitations(id, links) {
  try { localStorage.setItem(`savanna-invites/${id}`, JSON.stringify(links)); } catch { /* */ }
}

// The key that speaks for `seat` (none or null: the control key, which opens no seat).
export function keyFor(id, seat) {
  const keys = keysOf(id);
  return seat === null || seat === undefined ? keys.control || null : keys[seat] || null;
}

// The seats this screen holds: those it has keys for.
export function heldSeats(view) {
  return Object.keys(keysOf(view.id)).filter((k) => /^\d+$/.test(k)).map(Number);
}

// Undo speaks for the human who moved last (the move it takes back).
export function lastHuman(view) {
  const moves = view.log.filter((e) => e.who >= 0 && view.seats[e.who] === "human");
  return moves.length ? moves[moves.length - 1].who : view.seat;
}

// ----- small builders ---------------------------------------------------------------------
export function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

export function button(text, onClick, attrs = {}) {
  const b = el("button", text, { type: "button", ...attrs });
  b.addEventListener("click", guarded(onClick));
  return b;
}

export function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function header(names) {
  const row = el("tr");
  row.append(...names.map((n) => el("th", n, { scope: "col" })));
  return row;
}

export function download(name, text) {
  const link = el("a", "", { href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })),
                             download: name });
  document.body.append(link);
  link.click();
  link.remove();
}
// ----- the form, kept across reloads --------------------------------------------------------
const KEPT = ["game", "options", "seats", "seed", "watch", "speed", "agent"];

export function saveForm() {
  const form = Object.fromEntries(KEPT.map((id) => [id, $(id).type === "checkbox"
    ? $(id).checked : $(id).value]));
  try { localStorage.setItem("savanna.form", JSON.stringify(form)); } catch { /* private */ }
}

export function loadForm() {
  let form = {};
  try { form = JSON.parse(localStorage.getItem("savanna.form") || "{}"); } catch { /* none */ }
  for (const id of KEPT) {
    if (!(id in form)) continue;
    if ($(id).type === "checkbox") $(id).checked = Boolean(form[id]);
    else if ($(id).tagName !== "SELECT" || [...$(id).options].some((o) => o.value === form[id])) {
      $(id).value = form[id];
    }
  }
}
