// The page of `savanna serve`: play, replay, analyse and tables over the JSON API
// (experiments/board/server.py). The board is the server's SVG (the games' own drawing); the
// clickable moves, the last-move marker, the heat map and the best line are drawn over it in
// the same coordinates, from the positions Game.move_spots gives.
//
// One source of truth: each view keeps its own state (S.play, S.replay, S.analyse, S.tables);
// render() draws the board and the panels of the open view from it, after every switch and
// every answer, so nothing of one view or position survives into another.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const TABS = ["play", "replay", "analyse", "tables"];
const S = {
  tab: "play",
  info: null,
  address: "",
  play: { view: null, timer: null, paused: false, spots: null, picked: null },
  replay: { file: null, games: null, filter: null, game: null, frame: null, target: 0,
            loading: false, seat: null, spots: null },
  analyse: { source: null, picture: null, job: null, status: null, cancelled: false },
  tables: { file: null, data: null },
};

// ----- words for the games (a game not listed here gets plain ones) ---------------------
const GAME_WORDS = {
  zebres: { name: "Zèbres", seats: ["Red", "Green"], chance: "chance",
            howto: "Move the Impala round the track, then place an animal in the row or " +
                   "column it faces; full sectors score for their strongest animals. Most " +
                   "points wins." },
  bonobo: { name: "Bonobo Beach", seat: "Player", chance: "tile drawn",
            howto: "Place a pawn on a beach spot, or draw a tile and lay it on two " +
                   "triangles; tiles score for the pawns around them. Most points wins." },
  banjooli: { name: "Banjooli", seat: "Seat", chance: "die rolled",
              howto: "Roll the dice (tick some to reroll), then move the ostriches of the " +
                     "colours rolled; your secret card scores the ostriches' finishing order." },
};
const AGENT_DEFAULTS = { mcts: "mcts:sims=200", az: "az:baseline", "ppo-mcts": "ppo-mcts:sims=100" };

function words(game) { return GAME_WORDS[game] || { name: game, seat: "Player", chance: "chance" }; }

function seatName(game, p) {
  const w = words(game);
  return w.seats ? w.seats[p] || `Player ${p}` : `${w.seat} ${p}`;
}

// "ZebresGame(board='standard', first_placer=1)" -> {board: "standard", first_placer: "1"}
function parseTitle(title) {
  const out = {};
  for (const m of (title || "").matchAll(/(\w+)=('[^']*'|[^,()]+)/g)) {
    out[m[1]] = m[2].replace(/^'|'$/g, "");
  }
  return out;
}

// The game's name and its options in words: "Zèbres, standard board, Green places first".
function gameTitle(game, title) {
  const parts = [words(game).name];
  for (const [k, v] of Object.entries(parseTitle(title))) {
    if (v === "None") continue;
    if (k === "num_players") parts.push(`${v} players`);
    else if (k === "first_placer") parts.push(`${seatName(game, Number(v))} places first`);
    else if (k === "board") parts.push(`${v} board`);
    else if (v === "True") parts.push(`with ${k.replace(/_/g, " ")}`);
    else if (v === "False") parts.push(`no ${k.replace(/_/g, " ")}`);
    else parts.push(`${k.replace(/_/g, " ")} ${v}`);
  }
  return parts.join(", ");
}

// Who won, in words: "Red wins 58–25", "Player 1 and Player 2 share the win", "Draw".
function resultWords(game, returns, scores) {
  if (!returns) return "unfinished";
  const best = Math.max(...returns);
  const winners = returns.map((r, p) => (r === best ? p : -1)).filter((p) => p >= 0);
  const points = scores ? " " + scores.join("–") : "";
  if (winners.length === returns.length) return "Draw" + points;
  const names = winners.map((p) => seatName(game, p));
  return (names.length === 1 ? `${names[0]} wins` : `${names.join(" and ")} share the win`) +
    points;
}

// ----- the API -------------------------------------------------------------------------
// Every request goes through api(): the seat key header, one line shown for any error, and
// an ApiError thrown that the event handlers (guarded()) swallow, so nothing goes uncaught.
class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function api(method, url, body, { key = null, quiet = false } = {}) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  if (key) options.headers["X-Seat-Key"] = key;
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

function guarded(fn) {
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

function showError(text) { $("error").textContent = text; }

// ----- seat keys (PROTOCOL.md): per table in localStorage, so that a reload and several
// humans at one screen keep their seats: {"0": KEY, "2": KEY, control: KEY} ---------------------
function keysOf(id) {
  try { return JSON.parse(localStorage.getItem(`savanna-keys/${id}`)) || {}; } catch { return {}; }
}

function keepKeys(id, keys) {
  try {
    localStorage.setItem(`savanna-keys/${id}`, JSON.stringify({ ...keysOf(id), ...keys }));
  } catch { /* storage refused: the keys live as long as the page */ }
}

// A table of a server that gives keys (else one that takes the seat in the request).
function keyed(id) { return Object.keys(keysOf(id)).length > 0; }

// The key that speaks for `seat` (none or null: the control key, which opens no seat).
function keyFor(id, seat) {
  const keys = keysOf(id);
  return seat === null || seat === undefined ? keys.control || null : keys[seat] || null;
}

// The seats this screen holds: those it has keys for (a server without keys: every human).
function heldSeats(view) {
  if (keyed(view.id)) {
    return Object.keys(keysOf(view.id)).filter((k) => /^\d+$/.test(k)).map(Number);
  }
  return view.seats.map((s, p) => (s === "human" ? p : -1)).filter((p) => p >= 0);
}

// Undo speaks for the human who moved last (the move it takes back).
function lastHuman(view) {
  const moves = view.log.filter((e) => e.who >= 0 && view.seats[e.who] === "human");
  return moves.length ? moves[moves.length - 1].who : view.seat;
}

// ----- small builders ---------------------------------------------------------------------
function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function button(text, onClick, attrs = {}) {
  const b = el("button", text, { type: "button", ...attrs });
  b.addEventListener("click", guarded(onClick));
  return b;
}

function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function header(names) {
  const row = el("tr");
  row.append(...names.map((n) => el("th", n, { scope: "col" })));
  return row;
}

function download(name, text) {
  const link = el("a", "", { href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })),
                             download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

// ----- the board ---------------------------------------------------------------------------
// The picture, then one layer on top (class "overlay"); returns the overlay and the scale
// (screen pixels per picture unit) so that targets are at least 32 px wide on any screen.
function drawBoard(svgText, label, state) {
  const board = $("board");
  board.innerHTML = svgText || "";
  board.dataset.state = state === undefined ? "" : String(state);
  const svg = board.querySelector("svg");
  $("board-help").hidden = Boolean(svg);
  if (!svg) return { overlay: null, scale: 1 };
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", label || "board");
  const overlay = svgEl("g", { class: "overlay" });
  svg.appendChild(overlay);
  const width = svg.viewBox.baseVal && svg.viewBox.baseVal.width;
  const scale = width ? svg.getBoundingClientRect().width / width : 1;
  return { overlay, scale: scale || 1 };
}

function spotKey(spot) { return spot[0].toFixed(1) + "," + spot[1].toFixed(1); }

function groupBySpot(moves) {
  const groups = new Map();
  for (const m of moves) {
    if (!m.spot) continue;
    const key = spotKey(m.spot);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  return groups;
}

function markLastMove(overlay, spot) {
  if (!overlay || !spot) return;
  overlay.appendChild(svgEl("circle", { cx: spot[0], cy: spot[1], r: 24, class: "last-move",
                                        "aria-hidden": "true" }));
}

// The focus survives a redraw: the element with the same data-focus (a move, a spot),
// else the first of its kind, else the board.
function focusKey() {
  const a = document.activeElement;
  return a && a.dataset ? a.dataset.focus || null : null;
}

function restoreFocus(key) {
  if (!key) return;
  const same = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (same) return same.focus();
  const kind = key.split(":")[0];
  const first = document.querySelector(`[data-focus^="${kind}:"]`) ||
                document.querySelector("[data-focus^='spot:'], [data-focus^='move:']");
  (first || $("board")).focus();
}

// A game's options as -o takes them ("board=standard first_placer=1"), from its title.
function optionWords(title) {
  return Object.entries(parseTitle(title)).filter(([, v]) => v !== "None")
    .map(([k, v]) => `${k}=${v === "True" ? "true" : v === "False" ? "false" : v}`);
}

function positionLink(game, title, position) {
  const link = $("position-link");
  link.hidden = !position;
  if (!position) return;
  const options = optionWords(title);
  link.href = `#analyse/${encodeURIComponent(game)}/${encodeURIComponent(options.join(" "))}/` +
              encodeURIComponent(position);
}

// The parts under the board, cleared on every render and filled by the open view.
function clearBoardParts() {
  $("heat-legend").hidden = true;
  $("offboard").hidden = true;
  $("offboard").replaceChildren();
  $("last-move").textContent = "";
  $("position-link").hidden = true;
  $("position-box").hidden = true;
  $("position-text").textContent = "";
  const review = $("review");
  if (review.dataset.for !== currentGameId()) {
    review.hidden = true;
    review.replaceChildren();
  }
}

function showPosition(text) {
  $("position-box").hidden = !text;
  $("position-text").textContent = text || "";
}

// ----- rendering: the one entry point ----------------------------------------------------
function render() {
  const key = focusKey();
  for (const tab of TABS) {
    $(`tab-${tab}`).hidden = tab !== S.tab;
    const link = document.querySelector(`nav a[data-tab=${tab}]`);
    link.classList.toggle("active", tab === S.tab);
    if (tab === S.tab) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.classList.toggle("wide", S.tab === "tables");  // tables need no board
  clearTimeout(S.play.timer);
  S.play.timer = null;
  clearBoardParts();
  ({ play: renderPlay, replay: renderReplay, analyse: renderAnalyse, tables: renderTables })[S.tab]();
  setAddress(address());
  restoreFocus(key);
}

function address() {
  if (S.tab === "play" && S.play.view) {
    const v = S.play.view;
    return `#play/${v.id}/${v.seat === null ? "" : v.seat}`;
  }
  if (S.tab === "replay" && S.replay.frame) {
    const f = S.replay.frame;
    return `#replay/${encodeURIComponent(f.file)}/${f.index}/${f.ply}`;
  }
  if (S.tab === "replay" && S.replay.file) return `#replay/${encodeURIComponent(S.replay.file)}`;
  if (S.tab === "analyse" && S.analyse.source && S.analyse.source.position !== undefined) {
    const s = S.analyse.source;
    return `#analyse/${encodeURIComponent(s.game)}/${encodeURIComponent(s.options.join(" "))}/` +
           encodeURIComponent(s.position);
  }
  if (S.tab === "tables" && S.tables.file) return `#tables/${encodeURIComponent(S.tables.file)}`;
  return `#${S.tab}`;
}

function setAddress(hash) {
  S.address = hash;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function currentGameId() {
  if (S.tab === "play" && S.play.view) return `table:${S.play.view.id}`;
  if (S.tab === "replay" && S.replay.frame) return `file:${S.replay.frame.file}:${S.replay.frame.index}`;
  return "";
}

// ----- play ----------------------------------------------------------------------------------
const newGame = guarded(async (event) => {
  event.preventDefault();
  saveForm();
  const options = $("options").value.split(/\s+/).filter((x) => x);
  const seats = splitSeats($("seats").value);
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  const view = await api("POST", "/api/tables", { game: $("game").value, options, seats, seed });
  if (view.keys) keepKeys(view.id, { ...view.keys, control: view.control || null });
  S.play.paused = Boolean(view.notice);  // an agent's search was stopped: not re-asked
  S.play.spots = null;
  await showGame(view, true);
  if (view.notice) showError(view.notice);
});

// "human,mcts:sims=500,c=1.4,random": a piece that starts with key= continues the agent before.
function splitSeats(text) {
  const specs = [];
  for (let piece of text.split(",").map((x) => x.trim())) {
    if (piece.toLowerCase() === "human") piece = "human";
    if (specs.length && specs[specs.length - 1] !== "human" && /^[^:]*=/.test(piece)) {
      specs[specs.length - 1] += "," + piece;
    } else if (piece) {
      specs.push(piece);
    }
  }
  return specs;
}

// The view of table `id` for `seat` (with keys: the seat our key names; null: any we hold).
async function fetchView(id, seat) {
  if (keyed(id)) return api("GET", `/api/tables/${encodeURIComponent(id)}`, undefined,
                            { key: keyFor(id, seat) });
  const query = seat === null || seat === undefined ? "" : `?seat=${seat}`;
  return api("GET", `/api/tables/${encodeURIComponent(id)}${query}`);
}

async function showGame(view, open = false) {
  // Several humans share the screen: the board turns to the human to move.
  if (!view.over && view.to_move !== view.seat && view.seats[view.to_move] === "human" &&
      heldSeats(view).includes(view.to_move)) {
    view = await fetchView(view.id, view.to_move);
  }
  S.play.view = view;
  if (open) await openTab("play");
  else if (S.tab === "play") render();
  loadPlaySpots(view);
}

// The record of a public game gives where each move was played (the last-move marker).
async function loadPlaySpots(view) {
  if (S.play.spots && S.play.spots.version === view.version && S.play.spots.id === view.id) return;
  if (view.position === null && !view.over) return;  // secrets: the moves are public at the end
  let marked = null;
  try {
    marked = await api("GET", `/api/tables/${encodeURIComponent(view.id)}/record`,
                       undefined, { key: keyFor(view.id, view.seat), quiet: true });
  } catch { /* a game with secrets: its moves are public once it ends */ }
  if (S.play.view !== view) return;
  S.play.spots = { id: view.id, version: view.version, marked };
  if (S.tab === "play") render();
}

// The spot of the last decision among the first `n` events of a record (none: a chance
// outcome or a move with no place).
function lastSpot(marked, n) {
  if (!marked) return null;
  for (let k = Math.min(n, marked.record.moves.length) - 1; k >= 0; k--) {
    if ("action" in marked.record.moves[k]) return marked.spots[k];
  }
  return null;
}

function renderPlay() {
  const view = S.play.view;
  $("play-panel").hidden = !view;
  $("review-game").hidden = true;
  if (!view) {
    drawBoard("");
    return;
  }
  $("play-panel").dataset.table = view.id;
  const g = view.game;
  const you = view.seat === null ? null : seatName(g, view.seat);
  const mover = view.to_move >= 0 ? seatName(g, view.to_move) : null;
  const { overlay, scale } = drawBoard(view.svg, `${words(g).name} board`, view.version);
  const known = S.play.spots;
  if (known && known.id === view.id && known.version === view.version && known.marked) {
    markLastMove(overlay, lastSpot(known.marked, Infinity));
  }
  const radius = Math.max(13, 17 / scale);
  for (const [, moves] of groupBySpot(view.moves)) {
    const [x, y] = moves[0].spot;
    const names = moves.map((m) => m.name).join(" or ");
    const hot = svgEl("circle", { cx: x, cy: y, r: radius, class: "hot", tabindex: 0,
                                  role: "button", "aria-label": names,
                                  "data-focus": `spot:${spotKey(moves[0].spot)}`,
                                  "data-actions": moves.map((m) => m.action).join(" ") });
    hot.appendChild(svgEl("title", {}, names));
    const pick = guarded(() => clickSpot(moves));
    hot.addEventListener("click", pick);
    hot.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); }
    });
    overlay.appendChild(hot);
  }
  renderMoves(view);
  $("turn").textContent = gameTitle(g, view.title) + ". " +
    (you ? `You play ${you}. ` : "You are watching. ") +
    (view.over ? "The game is over."
      : view.to_move === view.seat && view.moves.length
        ? `Your move: ${groupBySpot(view.moves).size ? "click a lit spot on the board or " : ""}` +
          "choose a move below."
        : `${mover} (${view.seats[view.to_move]}) is to move` +
          (view.agent_to_move ? (S.play.paused ? "; paused." : "...") : "."));
  $("undo").disabled = !view.can_undo;
  const agents = view.seats.some((s) => s !== "human");
  const watched = $("watch").checked || !view.seats.includes("human");
  $("agent-controls").hidden = !agents || !(watched || S.play.paused) || view.over;
  $("pause").textContent = S.play.paused ? "Resume" : "Pause";
  $("pause").setAttribute("aria-pressed", String(S.play.paused));
  $("advance").disabled = !view.agent_to_move;
  $("analyse-here").disabled = view.over;
  const log = $("log");
  log.replaceChildren(...view.log.map((e) => el("li", logText(g, e),
    { class: e.who < 0 ? "chance" : "move" })));
  const lastMove = [...view.log].reverse().find((e) => e.who >= 0);
  $("last-move").textContent = lastMove ? `Last move: ${logText(g, lastMove)}` : "";
  log.scrollTop = log.scrollHeight;
  renderResult(view);
  showPosition(view.position);
  positionLink(g, view.title, view.position);
  $("review-game").hidden = !(view.over && window.savannaReview);
  // the agents move on by themselves until paused (by a click, or a search that was refused
  // or stopped: the page never re-asks one by itself)
  if (view.agent_to_move && !view.over && !S.play.paused) {
    const delay = $("watch").checked ? Number($("speed").value) : 50;
    S.play.timer = setTimeout(() => advance(view), delay);
  }
}

// "seat 1 (random): L d1" -> "Green (random): L d1"; "chance: B" -> "die rolled: B"
function logText(game, entry) {
  if (entry.who < 0) return entry.text.replace(/^chance:/, `${words(game).chance}:`);
  return entry.text.replace(/^seat (\d+)/, (_, p) => seatName(game, Number(p)));
}

function renderMoves(view) {
  const list = $("moves");
  list.replaceChildren();
  if (!view.moves.length) return;
  const rerolls = view.moves.filter((m) => /^reroll [\d,]+$/.test(m.name));
  const offboard = view.moves.filter((m) => !m.spot && !rerolls.includes(m));
  if (rerolls.length) list.append(rerollGroup(view, rerolls));
  if (offboard.length) {
    list.append(el("p", groupBySpot(view.moves).size
      ? "Moves with no place on the board:" : "Your moves:", { class: "help" }));
    const group = el("div", undefined, { class: "buttons" });
    for (const m of offboard) group.append(moveButton(m));
    list.append(group);
  }
  const onboard = view.moves.filter((m) => m.spot);
  const picked = S.play.picked && S.play.picked.version === view.version ? S.play.picked.actions : null;
  if (picked) {
    list.append(el("p", "Choose what to play on that spot:", { class: "help" }));
    const group = el("div", undefined, { class: "buttons" });
    for (const m of onboard.filter((m) => picked.includes(m.action))) {
      const b = moveButton(m);
      b.classList.add("picked");
      group.append(b);
    }
    list.append(group);
  } else if (onboard.length) {
    const details = el("details", undefined, { id: "board-moves" });
    details.append(el("summary", `The ${onboard.length} moves on the board, as a list`));
    const group = el("div", undefined, { class: "buttons" });
    for (const m of onboard) group.append(moveButton(m));
    details.append(group);
    list.append(details);
  }
}

function moveButton(m) {
  return button(m.name, () => play(m.action),
                { "data-action": m.action, "data-focus": `move:${m.action}` });
}

// Banjooli's 63 rerolls as one group: tick the dice, then "reroll" (or "keep" them all).
function rerollGroup(view, rerolls) {
  const byDice = new Map(rerolls.map((m) => [m.name.slice(7), m]));
  const dice = [...new Set(rerolls.flatMap((m) => m.name.slice(7).split(",")))].sort();
  const box = el("fieldset", undefined, { class: "reroll" });
  box.append(el("legend", "Reroll: tick the dice to roll again (0-4 the movement dice, 5 the " +
                          "sorcery die), then press reroll"));
  for (const d of dice) {
    const label = el("label", undefined, { class: "check" });
    label.append(el("input", undefined, { type: "checkbox", value: d, "data-focus": `die:${d}` }),
                 ` die ${d}`);
    box.append(label);
  }
  box.append(button("reroll", () => {
    const ticked = [...box.querySelectorAll("input:checked")].map((i) => i.value).sort();
    const m = byDice.get(ticked.join(","));
    if (!m) return showError(ticked.length ? `these dice cannot be rerolled together: ${ticked}`
      : "tick at least one die, or keep the roll");
    return play(m.action);
  }, { id: "reroll", "data-focus": "move:reroll" }));
  return box;
}

function renderResult(view) {
  const result = $("result");
  result.replaceChildren();
  delete result.dataset.returns;
  if (!view.over) return;
  result.dataset.returns = JSON.stringify(view.returns);
  result.append(el("span", `Game over: ${resultWords(view.game, view.returns, view.scores)}.`,
                   { id: "winner" }));
  if (view.record) result.append(el("div", `saved to ${view.record}`, { id: "saved" }));
  if (view.record_file) {
    result.append(button("Replay this game", async () => {
      await openReplay(view.record_file, 0, 0);
    }, { id: "replay-game" }));
  }
}

// Several moves on one spot (Zèbres: which token to place): the list shows only them.
function clickSpot(moves) {
  if (moves.length === 1) return play(moves[0].action);
  S.play.picked = { version: S.play.view.version, actions: moves.map((m) => m.action) };
  render();
  const first = $("moves").querySelector("button.picked");
  if (first) first.focus();
}

// A change to the game; after a refusal (a stale click, a search past the time allowed) the
// board shows the game as the server has it, the message kept.
async function change(path, body, seat) {
  const view = S.play.view;
  const key = keyFor(view.id, seat) || keyFor(view.id, null);
  if (!keyed(view.id)) body = { ...body, seat };
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(view.id)}/${path}`,
                             body, { key });
    if (answer.notice) S.play.paused = true;  // an agent's search was stopped: not re-asked
    if (S.play.view && S.play.view.id === view.id) await showGame(answer);
    if (answer.notice) showError(answer.notice);  // an agent's search ran out of time
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 0 || err.status === 401) return;
    if (path === "advance") S.play.paused = true;  // a refused search waits for a click
    const message = $("error").textContent;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (!S.play.view || S.play.view.id !== view.id) return;
    try {
      const fresh = await fetchView(view.id, view.seat);
      await showGame(fresh);
      showError(message);
    } catch { /* shown */ }
  }
}

const play = guarded((action) => change("move", { action, version: S.play.view.version,
                                                  agents: !$("watch").checked }, S.play.view.seat));

const advance = guarded(async (view) => {
  if (S.play.view !== view || S.tab !== "play") return;  // the page moved on: render() restarts
  return change("advance", {}, keyed(view.id) ? null : view.seat);
});

const undo = guarded(() => change("undo", {}, lastHuman(S.play.view)));

const downloadGame = guarded(async () => {
  const v = S.play.view;
  const data = await api("GET", `/api/tables/${encodeURIComponent(v.id)}/record`, undefined,
                         { key: keyFor(v.id, v.seat) });
  download(`${v.game}-${v.id}.jsonl`, JSON.stringify(data.record) + "\n");
});

// A game from the address: #play/TABLE/SEAT, or an invitation #play/TABLE/KEY (the server
// says which seat the key opens).
const loadGame = guarded(async (id, seatOrKey) => {
  S.play.spots = null;
  if (seatOrKey && !/^\d{1,2}$/.test(seatOrKey)) {
    const view = await api("GET", `/api/tables/${encodeURIComponent(id)}`, undefined,
                           { key: seatOrKey });
    if (view.seat !== null) keepKeys(id, { [view.seat]: seatOrKey });
    return showGame(view, true);
  }
  await showGame(await fetchView(id, seatOrKey ? Number(seatOrKey) : null), true);
});

// ----- replay --------------------------------------------------------------------------------
async function loadFiles() {
  const { files } = await api("GET", "/api/files");
  fill($("replay-file"), files.filter((f) => f.kind === "records"), S.replay.file);
  fill($("table-file"), files.filter((f) => f.kind !== "records"), S.tables.file);
}

function fill(select, files, current) {
  select.replaceChildren(el("option", "(choose a file)", { value: "" }),
                         ...files.map((f) => el("option", f.file, { value: f.file })));
  if (current && !files.some((f) => f.file === current)) {
    select.append(el("option", current, { value: current }));
  }
  select.value = current || "";
}

async function listGames(file, filter = null) {
  const games = [];  // the server answers a page at a time
  for (let offset = 0; offset !== null;) {
    const page = await api("GET", `/api/records?file=${encodeURIComponent(file)}&offset=${offset}`);
    games.push(...page.games);
    offset = page.next;
  }
  Object.assign(S.replay, { file, games, filter });
}

async function openReplay(file, game, ply) {
  if (S.replay.file !== file || !S.replay.games) await listGames(file);
  const same = S.replay.frame && S.replay.frame.file === file && S.replay.frame.index === game;
  Object.assign(S.replay, { file, game, target: ply, seat: same ? S.replay.seat : null });
  if (!same) { S.replay.frame = null; S.replay.spots = null; }
  await openTab("replay");
  await step();
  if (!same) loadReplaySpots(file, game);
}

async function loadReplaySpots(file, game) {
  try {
    const data = await api("GET", `/api/record?file=${encodeURIComponent(file)}&game=${game}`,
                           undefined, { quiet: true });
    if (S.replay.file === file && S.replay.game === game) {
      S.replay.spots = data;
      if (S.tab === "replay") render();
    }
  } catch { /* the replay goes on without the marker */ }
}

// The replay runs to S.replay.target one answer at a time: keys pressed faster than the
// server answers move the target on, and the last answer shows it.
async function step() {
  const r = S.replay;
  if (r.loading || r.file === null || r.game === null) return;
  r.loading = true;
  try {
    while (r.frame === null || r.frame.ply !== r.target || r.frame.index !== r.game ||
           r.frame.file !== r.file || r.frame.seat !== r.seat) {
      const want = { file: r.file, game: r.game, ply: r.target, seat: r.seat };
      const seat = want.seat === null ? "" : `&seat=${want.seat}`;
      const frame = await api("GET", `/api/replay?file=${encodeURIComponent(want.file)}` +
                                     `&game=${want.game}&ply=${want.ply}${seat}`);
      frame.seat = want.seat;
      if (r.file !== want.file || r.game !== want.game) continue;
      r.frame = frame;
      if (r.target > frame.plies) r.target = frame.plies;
      if (S.tab === "replay") render();
    }
  } catch (err) {
    if (r.frame) r.target = r.frame.ply;
    throw err;
  } finally {
    r.loading = false;
  }
}

function moveReplay(ply) {
  const r = S.replay;
  if (r.game === null) return;
  const plies = r.frame ? r.frame.plies : Infinity;
  r.target = Math.max(0, Math.min(plies, ply));
  return guarded(step)();
}

function renderReplay() {
  const r = S.replay;
  $("replay-file").value = r.file || "";
  renderGameList();
  const f = r.frame;
  $("replay-panel").hidden = !f;
  $("review-replay").hidden = !(f && window.savannaReview);
  if (!f) {
    drawBoard("");
    return;
  }
  const g = f.game;
  const { overlay } = drawBoard(f.svg, `${words(g).name} board, move ${f.ply}`, f.state);
  const current = f.events.findIndex((e) => e.state >= f.state);
  const before = current < 0 ? f.events.length : current;
  markLastMove(overlay, lastSpot(r.spots, before));
  const last = f.events.slice(0, before).reverse().find((e) => e.chance === undefined);
  $("last-move").textContent = last ? `Last move: ${seatName(g, last.player)}: ${last.move}` : "";
  showPosition(f.position);
  positionLink(g, f.title, f.position);
  $("replay-title").textContent = `${gameTitle(g, f.title)}. Game ${f.index} of ${f.file}: ` +
    f.agents.map((a, p) => `${seatName(g, p)} ${a}`).join(", ") +
    (f.returns ? `. ${resultWords(g, f.returns, null)}.` : ". Unfinished.");
  const slider = $("slider");
  slider.max = f.plies;
  slider.value = r.target;
  $("ply-label").textContent = `move ${f.ply} / ${f.plies}`;
  const reveal = $("reveal");
  $("reveal-label").hidden = !f.hidden;
  if (f.hidden && reveal.options.length !== f.agents.length + 1) {
    reveal.replaceChildren(el("option", "everything (cards revealed)", { value: "" }),
      ...f.agents.map((a, p) => el("option", `${seatName(g, p)} only (${a})`, { value: p })));
  }
  reveal.value = r.seat === null ? "" : String(r.seat);
  // the moves numbered from 1; the one that led here is marked (and on the board)
  const events = $("events");
  events.replaceChildren();
  let number = 0;
  f.events.forEach((e) => {
    const item = el("li", undefined, { class: e.chance !== undefined ? "chance" : "move" });
    if (e.chance !== undefined) {
      item.textContent = `${words(g).chance}: ${e.chance}`;
    } else {
      const after = ++number;
      item.append(button(`${after}. ${seatName(g, e.player)}: ${e.move}`,
                         () => moveReplay(after), { "data-focus": `event:${after}`,
                                                    class: "link",
                                                    title: `the position after move ${after}` }));
    }
    if (e === last) item.classList.add("current");
    events.append(item);
  });
  const currentItem = events.querySelector(".current");  // scrolled into the list's view,
  if (currentItem) {                                       // the page left where it is
    events.scrollTop = currentItem.offsetTop - events.clientHeight / 2;
  }
}

function renderGameList() {
  const r = S.replay;
  const box = $("replay-games");
  if (!r.games) return box.replaceChildren();
  const table = el("table", undefined, { id: "games" });
  table.append(header(["game", "players", "result", "moves"]));
  const shown = r.games.filter((g) => !r.filter || r.filter.every((a) => g.agents.includes(a)));
  for (const g of shown) {
    const row = el("tr", undefined, { class: "clickable", "data-index": g.index });
    if (r.frame && r.frame.index === g.index) row.classList.add("current");
    const open = button(`Game ${g.index}`, () => openReplay(r.file, g.index, 0),
                        { "data-focus": `game:${g.index}`, class: "link" });
    const cell = el("td");
    cell.append(open);
    row.append(cell,
               el("td", g.agents.map((a, p) => `${seatName(g.game, p)}: ${a}`).join(", "),
                  { class: "text" }),
               el("td", resultWords(g.game, g.returns, null), { class: "text" }),
               el("td", String(g.plies)));
    row.addEventListener("click", (e) => { if (e.target === row || e.target.tagName === "TD") open.click(); });
    table.append(row);
  }
  box.replaceChildren(el("p", r.filter ? `Games of ${r.filter.join(" and ")}:`
    : `${r.games.length} games in ${r.file}:`), table);
}

function replayKeys(event) {
  if (S.tab !== "replay" || S.replay.game === null) return;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName) &&
      event.target.id !== "slider") return;
  const r = S.replay;
  const plies = r.frame ? r.frame.plies : 0;
  const moves = { ArrowLeft: r.target - 1, ArrowRight: r.target + 1, Home: 0, End: plies };
  if (event.key in moves) {
    event.preventDefault();
    moveReplay(moves[event.key]);
  }
}

const downloadReplay = guarded(async () => {
  const f = S.replay.frame;
  const data = S.replay.spots ||
    await api("GET", `/api/record?file=${encodeURIComponent(f.file)}&game=${f.index}`);
  const base = f.file.replace(/.*\//, "").replace(/\.jsonl$/, "");
  download(`${base}-game${f.index}.jsonl`, JSON.stringify(data.record) + "\n");
});

// ----- analysis ------------------------------------------------------------------------------
// The source of an analysis: a table position, a replay position, or a pasted position.
function sourceFromView(tab) {
  if (tab === "play" && S.play.view && !S.play.view.over) {
    const v = S.play.view;
    return { id: `${v.id}@${v.version}`, table: v.id, seat: v.seat, game: v.game,
             title: v.title, svg: v.svg, text: v.position,
             label: `the position of your game of ${words(v.game).name} (Play, after ` +
                    `${v.log.filter((e) => e.who >= 0).length} moves)` };
  }
  if (tab === "replay" && S.replay.frame) {
    const f = S.replay.frame;
    return { id: `${f.file}:${f.index}:${f.ply}`, file: f.file, game_index: f.index,
             ply: f.ply, game: f.game, title: f.title, text: f.position,
             svg: f.svg, label: `game ${f.index} of ${f.file}, after move ${f.ply} (Replay)` };
  }
  return null;
}

function requestOf(source) {
  if (source.table !== undefined) {
    return keyed(source.table) ? { table: source.table } : { table: source.table, seat: source.seat };
  }
  if (source.file !== undefined) return { file: source.file, game: source.game_index, ply: source.ply };
  return { game: source.game, options: source.options, position: source.position };
}

async function setSource(source) {
  await dropJob();
  Object.assign(S.analyse, { source, status: null, job: null, cancelled: false });
  await openTab("analyse");
}

const showPasted = guarded(async (game, options, position) => {
  const query = new URLSearchParams({ game, position });
  for (const o of options) query.append("option", o);
  const answer = await api("GET", `/api/position?${query}`);
  await setSource({ game, options, position, title: answer.title, svg: answer.svg,
                    label: `a pasted position of ${words(game).name}`,
                    moves: answer.moves });
});

const runAnalysis = guarded(async (event) => {
  if (event) event.preventDefault();
  const a = S.analyse;
  const text = $("position").value.trim();
  const shown = a.source ? a.source.position ?? a.source.text ?? "" : "";
  if (text && (!a.source || text !== shown || $("paste-game").value !== a.source.game)) {
    await showPasted($("paste-game").value, pastedOptions(), text);  // a pasted or edited one
    if (!a.source || a.source.position !== text) return;  // refused: the message is shown
  }
  if (!a.source) {
    return showError("nothing to analyse: play a game, open a replay or paste a position");
  }
  await dropJob();
  saveForm();
  const source = a.source;
  const key = source.table !== undefined ? keyFor(source.table, source.seat) : null;
  const job = await api("POST", "/api/analyses", { agent: $("agent").value, ...requestOf(source) },
                        { key });
  if (a.source !== source) return;
  Object.assign(a, { job: job.id, status: job, cancelled: false });
  source.svg = job.svg;
  render();
  poll(job.id);
});

function pastedOptions() { return $("paste-options").value.split(/\s+/).filter((x) => x); }

const poll = guarded(async (id) => {
  const a = S.analyse;
  if (a.job !== id) return;
  const status = await api("GET", `/api/analyses/${id}`);
  if (a.job !== id) return;  // cancelled or replaced meanwhile
  a.status = status;
  if (status.error) showError(status.error);
  if (status.done) a.job = null;
  if (S.tab === "analyse") render();
  if (!status.done) setTimeout(() => poll(id), 250);
});

// Stop the running analysis (a new source, a new run, Cancel).
async function dropJob() {
  const a = S.analyse;
  const id = a.job;
  a.job = null;
  if (!id) return;
  try {
    const status = await api("DELETE", `/api/analyses/${id}`);
    a.status = { ...status, cancelled: true };
  } catch { /* shown */ }
}

const cancelAnalysis = guarded(async () => {
  await dropJob();
  S.analyse.cancelled = true;
  render();
});

// A diverging scale centred on the position's value, spread to the largest difference
// among the moves (at least 0.02), so that small differences still show.
function valueScale(moves, centre, mover) {
  const span = Math.max(0.02, ...moves.map((m) => Math.abs((m[mover] ?? centre) - centre)));
  const colour = (q) => {
    if (q === null || q === undefined) return "rgb(170,170,170)";
    const t = Math.max(-1, Math.min(1, (q - centre) / span));
    const white = [247, 247, 247], low = [202, 0, 32], high = [5, 113, 176];
    const end = t < 0 ? low : high;
    const c = white.map((w, i) => Math.round(w + (end[i] - w) * Math.abs(t)));
    return `rgb(${c.join(",")})`;
  };
  return { span, colour };
}

function renderAnalyse() {
  const a = S.analyse;
  const source = a.source;
  $("analyse-source").textContent = source ? `Position: ${source.label}.`
    : "Position: none yet. Play a game, open a replay, or paste a position below.";
  if (source) {  // the fields show the position analysed (its text only when public)
    $("paste-game").value = source.game;
    $("paste-options").value = optionWords(source.title).join(" ");
    $("position").value = source.position ?? source.text ?? "";
  }
  $("cancel-analysis").disabled = !a.job;
  const { overlay } = drawBoard(source ? source.svg : "",
                                source ? `${words(source.game).name} board` : "board");
  const status = a.status;
  const progress = $("progress");
  progress.hidden = !status || !a.job;
  progress.value = status ? status.rounds : 0;
  const state = $("analysis-state");
  if (!status) state.textContent = source ? "Press Analyse to search this position." : "";
  else if (a.cancelled || status.cancelled) {
    state.textContent = `Analysis cancelled after ${status.rounds} of ${status.of} rounds.`;
  } else if (status.error) state.textContent = `Analysis failed: ${status.error}`;
  else if (status.done) state.textContent = `Analysis done: ${status.rounds} rounds.`;
  else state.textContent = `Searching: round ${status.rounds + 1} of ${status.of}...`;
  state.dataset.state = !status ? "" : a.cancelled || status.cancelled ? "cancelled"
    : status.done ? "done" : "running";
  $("analysis").dataset.done = status && status.done ? "true" : "";
  if (source && source.position) {
    showPosition(source.position);
    positionLink(source.game, source.title, source.position);
  }
  if (!status || !status.result) return $("analysis").replaceChildren();
  showAnalysis(status.result, overlay, source.game);
}

function showAnalysis(a, overlay, game) {
  const mover = `value_${a.player}`;
  const scale = valueScale(a.moves, a.values[a.player] ?? 0, mover);
  const fmt = (x) => (x === null || x === undefined ? "-" : (x >= 0 ? "+" : "") + x.toFixed(3));
  for (const [, moves] of groupBySpot(a.moves)) {
    const share = moves.reduce((s, m) => s + m.share, 0);
    const prior = moves.reduce((s, m) => s + m.prior, 0);
    const best = moves.reduce((b, m) => (m.visits > b.visits ? m : b), moves[0]);
    const [x, y] = best.spot;
    overlay.appendChild(svgEl("circle", { cx: x, cy: y, r: 5 + 26 * Math.sqrt(prior),
      fill: "none", stroke: "#333", "stroke-dasharray": "3 2", class: "heat prior" }));
    overlay.appendChild(svgEl("circle", { cx: x, cy: y, r: 4 + 26 * Math.sqrt(share),
      fill: scale.colour(best[mover]), "fill-opacity": 0.9, class: "heat",
      "data-share": share.toFixed(4) }));
    if (share >= 0.01) {
      overlay.appendChild(svgEl("text", { x, y: y + 4, "text-anchor": "middle",
                                          class: "heat-label" }, `${Math.round(100 * share)}%`));
    }
  }
  (a.pv_spots || []).forEach((spot, k) => {  // the best line, numbered on the board
    if (!spot) return;
    const g = svgEl("g", { class: "pv" });
    g.append(svgEl("circle", { cx: spot[0] + 14, cy: spot[1] - 14, r: 9 }),
             svgEl("text", { x: spot[0] + 14, y: spot[1] - 10, "text-anchor": "middle" },
                   String(k + 1)));
    overlay.appendChild(g);
  });
  $("heat-legend").hidden = false;
  const centre = a.values[a.player] ?? 0;
  $("legend-low").textContent = fmt(centre - scale.span);
  $("legend-high").textContent = `${fmt(centre + scale.span)} (white: the position, ${fmt(centre)})`;
  const off = a.moves.filter((m) => !m.spot && m.visits > 0);
  const list = $("offboard");
  list.hidden = !off.length;
  list.replaceChildren(el("li", "Moves with no place on the board:", { class: "help" }),
    ...off.slice(0, 12).map((m) => {
      const item = el("li");
      item.append(el("span", "", { class: "swatch", style: `background:${scale.colour(m[mover])}`,
                                   "aria-hidden": "true" }),
                  ` ${m.move}: ${(100 * m.share).toFixed(1)}% of visits, value ${fmt(m[mover])}`);
      return item;
    }));
  const table = el("table", undefined, { id: "analysis-table" });
  table.append(header(["move", "visits", "share", "prior",
                       ...a.values.map((_, p) => `value ${seatName(game, p)}`)]));
  for (const m of a.moves.slice(0, 15)) {
    const row = el("tr");
    row.append(el("td", m.move), el("td", String(m.visits)),
               el("td", `${(100 * m.share).toFixed(1)}%`), el("td", m.prior.toFixed(3)),
               ...a.values.map((_, p) => el("td", fmt(m[`value_${p}`]))));
    table.append(row);
  }
  $("analysis").replaceChildren(
    el("p", `${a.agent}: ${a.simulations} simulations; ${seatName(game, a.player)} to move; ` +
            "values " + a.values.map((v, p) => `${seatName(game, p)} ${fmt(v)}`).join(", ")),
    table, el("p", `Best line: ${a.pv.map((m, k) => `${k + 1}. ${m}`).join(", ") || "none"}`));
}

// ----- tables --------------------------------------------------------------------------------
const showRatings = guarded(async (file) => {
  S.tables.file = file;
  const data = await api("GET", `/api/ratings?file=${encodeURIComponent(file)}`);
  if (S.tables.file !== file) return;
  S.tables.data = data;
  if (S.tab === "tables") render();
});

function renderTables() {
  drawBoard("");
  const t = S.tables.data;
  $("table-file").value = S.tables.file || "";
  if (!t) return $("ratings").replaceChildren();
  const fmt = (x) => (x === null ? "-" : (x >= 0 ? "+" : "") + Math.round(x));
  const ratings = el("table", undefined, { id: "ratings-table" });
  ratings.append(header(["rank", "agent", "Elo", "95% interval", "games", "score"]));
  for (const r of t.ratings) {
    const low = r.low !== undefined ? r.low : r.elo - r.elo_ci95;
    const high = r.high !== undefined ? r.high : r.elo + r.elo_ci95;
    const row = el("tr");
    row.append(el("td", String(r.rank)), el("td", r.agent, { class: "text" }),
               el("td", fmt(r.elo)),
               el("td", `[${fmt(low)}, ${fmt(high)}]`), el("td", String(r.games)),
               el("td", r.score === null ? "-" : `${(100 * r.score).toFixed(1)}%`));
    ratings.append(row);
  }
  const parts = [el("h3", t.title), ratings];
  if (t.crosstable) {
    const cross = el("table", undefined, { id: "crosstable" });
    cross.append(header(["score of row vs column", ...t.agents.map((_, j) => String(j))]));
    t.agents.forEach((a, i) => {
      const row = el("tr");
      row.append(el("td", `${i} ${a}`));
      t.agents.forEach((b, j) => {
        const x = t.crosstable[i][j];
        const cell = el("td", x === null || !t.records ? (x === null ? "" : `${Math.round(100 * x)}%`) : undefined);
        if (x !== null && t.records) {
          cell.classList.add("clickable");
          cell.append(button(`${Math.round(100 * x)}%`, async () => {
            await listGames(t.records, [a, b]);
            S.replay.frame = null;
            S.replay.game = null;
            await openTab("replay");
          }, { class: "link", "aria-label": `${Math.round(100 * x)}%: replay the games of ${a} against ${b}` }));
        }
        row.append(cell);
      });
      cross.append(row);
    });
    parts.push(el("p", "Score of each row agent against each column agent; click a cell " +
                        "to replay their games."), cross);
  } else {
    parts.push(el("p", "A ladder keeps its results, not its games: replay a match's records."));
  }
  $("ratings").replaceChildren(...parts);
}

// ----- the address: every view opens from a link, in a new tab or an open one -----------
const route = guarded(async (hash) => {
  if (hash === S.address) return;
  S.address = hash;
  const [tab, ...rest] = hash.replace(/^#/, "").split("/");
  const name = TABS.includes(tab) ? tab : "play";
  if (name === "play" && rest[0]) return loadGame(rest[0], rest[1] || null);
  if (name === "replay" && rest[0]) {
    return openReplay(decodeURIComponent(rest[0]), Number(rest[1] || 0), Number(rest[2] || 0));
  }
  if (name === "analyse" && rest.length >= 3) {
    const [game, options, ...position] = rest;
    return showPasted(decodeURIComponent(game),
                      decodeURIComponent(options).split(/\s+/).filter((x) => x),
                      decodeURIComponent(position.join("/")));
  }
  if (name === "tables" && rest[0]) {
    await openTab("tables");
    return showRatings(decodeURIComponent(rest[0]));
  }
  return switchTab(name);
});

const switchTab = guarded(async (name) => {
  if (name === "analyse" && S.tab !== "analyse") {
    const source = sourceFromView(S.tab);
    const now = S.analyse.source;
    if (source && !S.analyse.job && !(now && now.id === source.id)) await setSource(source);
  }
  await openTab(name);
});

// Show view `name`; the file lists are read afresh for the views that list files.
async function openTab(name) {
  S.tab = name;
  render();
  if (name === "replay" || name === "tables") {
    await loadFiles();
    if (S.tab === name) render();
  }
}

// ----- the form, kept across reloads --------------------------------------------------------
const KEPT = ["game", "options", "seats", "seed", "watch", "speed", "agent"];

function saveForm() {
  const form = Object.fromEntries(KEPT.map((id) => [id, $(id).type === "checkbox"
    ? $(id).checked : $(id).value]));
  try { localStorage.setItem("savanna.form", JSON.stringify(form)); } catch { /* private */ }
}

function loadForm() {
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

function describeForm() {
  const game = $("game").value;
  const info = S.info.games[game] || { options: [] };
  $("howto").textContent = words(game).howto ? `How to play: ${words(game).howto}` : "";
  $("options-help").textContent = info.options.length
    ? `Options of ${words(game).name}: ${info.options.join(", ")} (e.g. ${info.options[0]}=...); ` +
      "leave empty for the defaults." : `${words(game).name} has no options.`;
  const seats = splitSeats($("seats").value);
  $("seats-words").textContent = seats.map((s, p) => `${seatName(game, p)}: ${s}`).join(", ");
}

// ----- start ---------------------------------------------------------------------------------
async function start() {
  S.info = await api("GET", "/api/info");
  for (const select of [$("game"), $("paste-game")]) {
    select.replaceChildren(...S.info.played.map((g) => el("option", words(g).name, { value: g })));
  }
  const specs = ["human", ...S.info.agents.map((a) => AGENT_DEFAULTS[a] || a)];
  $("seat-pick").replaceChildren(...specs.map((s) => el("option", s, { value: s })));
  $("agent-list").replaceChildren(...specs.slice(1).map((s) => el("option", undefined, { value: s })));
  loadForm();
  describeForm();
  for (const id of ["game", "seats", "options"]) $(id).addEventListener("input", describeForm);
  $("game").addEventListener("change", () => { describeForm(); saveForm(); });
  $("seat-add").addEventListener("click", () => {
    const now = $("seats").value.trim();
    $("seats").value = (now ? now + "," : "") + $("seat-pick").value;
    describeForm();
  });
  $("seat-clear").addEventListener("click", () => { $("seats").value = ""; describeForm(); });
  $("new-game").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("advance").addEventListener("click", () => advance(S.play.view));
  $("pause").addEventListener("click", () => { S.play.paused = !S.play.paused; render(); });
  $("speed").addEventListener("change", () => { saveForm(); render(); });
  $("download-game").addEventListener("click", downloadGame);
  $("download-replay").addEventListener("click", downloadReplay);
  $("analyse-here").addEventListener("click", guarded(async () => {
    await setSource(sourceFromView("play"));
    await runAnalysis();
  }));
  $("analyse-replay").addEventListener("click", guarded(async () => {
    await setSource(sourceFromView("replay"));
    await runAnalysis();
  }));
  $("analyse-form").addEventListener("submit", runAnalysis);
  $("cancel-analysis").addEventListener("click", cancelAnalysis);
  $("show-position").addEventListener("click", () => {
    if (!$("position").value.trim()) return showError("paste a position in the game's notation first");
    return showPasted($("paste-game").value, pastedOptions(), $("position").value.trim());
  });
  $("replay-file").addEventListener("change", guarded(async (e) => {
    if (!e.target.value) return;
    await listGames(e.target.value);
    Object.assign(S.replay, { frame: null, game: null });
    render();
  }));
  $("table-file").addEventListener("change", (e) => e.target.value && showRatings(e.target.value));
  $("slider").addEventListener("input", (e) => moveReplay(Number(e.target.value)));
  for (const [id, to] of [["first", () => 0], ["prev", () => S.replay.target - 1],
                          ["next", () => S.replay.target + 1], ["last", () => Infinity]]) {
    $(id).addEventListener("click", () => moveReplay(to()));
  }
  $("reveal").addEventListener("change", (e) => {
    S.replay.seat = e.target.value === "" ? null : Number(e.target.value);
    guarded(step)();
  });
  for (const [id, source] of [["review-game", () => ({ table: S.play.view.id,
                                                        key: keyFor(S.play.view.id, S.play.view.seat) })],
                              ["review-replay", () => ({ file: S.replay.frame.file,
                                                         game: S.replay.frame.index })]]) {
    $(id).addEventListener("click", () => {
      const review = $("review");
      review.dataset.for = currentGameId();
      window.savannaReview?.({ ...source(), container: review,
                               onPick: (ply) => S.replay.frame && moveReplay(ply) });
    });
  }
  document.addEventListener("keydown", replayKeys);
  for (const link of document.querySelectorAll("nav a")) {
    link.addEventListener("click", (e) => { e.preventDefault(); switchTab(link.dataset.tab); });
  }
  // The address holds the view: a reload, a pasted link or the back button opens it.
  window.addEventListener("hashchange", () => route(location.hash));
  window.addEventListener("popstate", () => route(location.hash));
  const first = location.hash || "#play";
  render();
  S.address = "";
  await route(first);
  document.body.dataset.ready = "true";
}

guarded(start)();
