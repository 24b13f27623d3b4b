// The page of `savanna serve`: play, replay, analyse and tables over the JSON API
// (experiments/board/server.py). The board is the server's SVG (the games' own drawing); the
// clickable moves and the heat map are drawn over it in the same coordinates, from the
// positions Game.move_spots gives.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const S = { view: null, seat: null, replay: null, source: null, job: null, filter: null };

// ----- the API -------------------------------------------------------------------------------
// The server's token travels in a cookie; a seat's key (given when the game was made, or by
// an invitation link #play/TABLE/KEY) in the X-Seat-Key header.
function send(method, url, body, key) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  if (key) options.headers["X-Seat-Key"] = key;
  return fetch(url, options);
}

async function api(method, url, body, key) {
  const response = await send(method, url, body, key);
  const data = await response.json();
  if (!response.ok) {
    showError(data.error || `${response.status}`);
    throw new Error(data.error);
  }
  showError("");
  return data;
}

function showError(text) { $("error").textContent = text; }

function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// ----- the board -----------------------------------------------------------------------------
// The picture, then one layer on top (class "overlay") for clickable spots or the heat map.
function drawBoard(svgText, state) {
  const board = $("board");
  board.innerHTML = svgText;
  board.dataset.state = state === undefined ? "" : String(state);
  const overlay = svgEl("g", { class: "overlay" });
  board.querySelector("svg").appendChild(overlay);
  return overlay;
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

// ----- seat keys: per table in localStorage, so that a reload and several humans at one
// screen keep their seats ----------------------------------------------------------------------
function keysOf(id) {
  try { return JSON.parse(localStorage.getItem(`savanna-keys/${id}`)) || {}; } catch { return {}; }
}

function keepKeys(id, keys) {
  localStorage.setItem(`savanna-keys/${id}`, JSON.stringify({ ...keysOf(id), ...keys }));
}

// The key that speaks for `seat` (none or null: the control key, which opens no seat).
function keyOf(id, seat) {
  const keys = keysOf(id);
  return seat === null || seat === undefined ? keys.control : keys[seat];
}

// Undo speaks for the human who moved last (the move it takes back).
function lastHuman(view) {
  const moves = view.log.filter((e) => e.who >= 0 && view.seats[e.who] === "human");
  return moves.length ? moves[moves.length - 1].who : view.seat;
}

// An invitation link #play/TABLE/KEY: the server says which seat the key opens.
async function acceptInvitation(id, key) {
  const view = await api("GET", `/api/tables/${encodeURIComponent(id)}`, undefined, key);
  if (view.seat !== null) keepKeys(id, { [view.seat]: key });
  S.seat = view.seat;
  showGame(view);
}

// ----- play ----------------------------------------------------------------------------------
async function newGame(event) {
  event.preventDefault();
  const options = $("options").value.split(/\s+/).filter((x) => x);
  const seats = splitSeats($("seats").value);
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  const view = await api("POST", "/api/tables",
                         { game: $("game").value, options, seats, seed });
  keepKeys(view.id, { ...view.keys, control: view.control });
  S.seat = view.seat;
  showGame(view);
}

// "human,mcts:sims=500,c=1.4,random": a piece that starts with key= continues the agent before.
function splitSeats(text) {
  const specs = [];
  for (const piece of text.split(",").map((x) => x.trim())) {
    if (specs.length && specs[specs.length - 1] !== "human" && /^[^:]*=/.test(piece)) {
      specs[specs.length - 1] += "," + piece;
    } else if (piece) {
      specs.push(piece);
    }
  }
  return specs;
}

async function loadGame(id, seat) {
  S.seat = seat === undefined ? null : seat;
  const key = S.seat === null ? undefined : keyOf(id, S.seat);
  showGame(await api("GET", `/api/tables/${encodeURIComponent(id)}`, undefined, key));
}

function showGame(view, refused = false) {
  S.view = view;
  // Several humans share the screen: the board turns to the human to move.
  if (!view.over && view.to_move >= 0 && keysOf(view.id)[view.to_move]
      && view.to_move !== view.seat) {
    return loadGame(view.id, view.to_move);
  }
  S.source = { table: view.id };
  history.replaceState(null, "", `#play/${view.id}/${view.seat === null ? "" : view.seat}`);
  $("play-panel").hidden = false;
  const overlay = drawBoard(view.svg, view.version);
  for (const [, moves] of groupBySpot(view.moves)) {
    const [x, y] = moves[0].spot;
    const hot = svgEl("circle", { cx: x, cy: y, r: 13, class: "hot",
                                  "data-actions": moves.map((m) => m.action).join(" ") });
    const title = svgEl("title", {});
    title.textContent = moves.map((m) => m.name).join(" | ");
    hot.appendChild(title);
    hot.addEventListener("click", () => clickSpot(moves));
    overlay.appendChild(hot);
  }
  const list = $("moves");
  list.replaceChildren();
  for (const m of view.moves) {
    const button = el("button", m.name, { type: "button", "data-action": m.action });
    button.addEventListener("click", () => play(m.action));
    list.appendChild(button);
  }
  const who = view.seat === null ? "spectator" : `seat ${view.seat}`;
  $("turn").textContent = view.over ? `${view.title}: game over`
    : `${view.title}, you are ${who}; ` + (view.to_move === view.seat
      ? "your move: click a lit spot on the board or a move below"
      : `seat ${view.to_move} (${view.seats[view.to_move]}) is to move`);
  $("undo").disabled = !view.can_undo;
  $("advance").hidden = !view.agent_to_move;
  const log = $("log");
  log.replaceChildren(...view.log.map((e) => el("li", e.text,
    { class: e.who < 0 ? "chance" : "move" })));
  log.scrollTop = log.scrollHeight;
  const result = $("result");
  result.replaceChildren();
  if (view.over) {
    result.dataset.returns = JSON.stringify(view.returns);
    result.append(el("span", "Game over. Returns: "),
                  el("span", view.returns.map(String).join(", "), { id: "returns" }));
    if (view.scores) result.append(el("span", `; points: ${view.scores.join(", ")}`));
    if (view.record) result.append(el("div", `saved to ${view.record}`, { id: "saved" }));
    if (view.record_file) {
      const replay = el("button", "Replay this game", { type: "button", id: "replay-game" });
      replay.addEventListener("click", async () => {
        switchTab("replay");
        await listGames(view.record_file);
        await openReplay(view.record_file, 0, 0);
      });
      result.append(replay);
    }
  }
  $("status").textContent = view.position ? view.position : "";
  // the agents' moves one by one, as they happen; after a refusal (or a move whose agents'
  // reply was stopped: its notice) only by a click (Advance)
  if (view.notice) showError(view.notice);
  if (view.agent_to_move && !view.over && !refused && !view.notice) {
    setTimeout(() => advance(view), $("watch").checked ? 300 : 50);
  }
}

function clickSpot(moves) {
  if (moves.length === 1) return play(moves[0].action);
  // several moves on one spot (Zèbres: which token to place): pick among the buttons
  for (const button of $("moves").children) {
    const here = moves.some((m) => String(m.action) === button.dataset.action);
    button.classList.toggle("picked", here);
    button.hidden = !here;
  }
}

// A change to the game; after a refusal (a stale click, a search past the time allowed) the
// board shows the game as the server has it, the message kept.
async function change(path, body, seat = S.view.seat) {
  const view = S.view;
  try {
    showGame(await api("POST", `/api/tables/${view.id}/${path}`, body, keyOf(view.id, seat)));
  } catch (err) {
    const response = await send("GET", `/api/tables/${view.id}`, undefined,
                                keyOf(view.id, view.seat));
    if (response.ok && S.view === view) setTimeout(async () => showGame(await response.json(), true), 1000);
  }
}

function play(action) {
  return change("move", { action, version: S.view.version, agents: !$("watch").checked });
}

function advance(view) {
  if (S.view !== view || $("tab-play").hidden) return;  // the page moved on
  return change("advance", {});
}

function undo() { return change("undo", {}, lastHuman(S.view)); }

// ----- replay --------------------------------------------------------------------------------
async function loadFiles() {
  const { files } = await api("GET", "/api/files");
  fill($("replay-file"), files.filter((f) => f.kind === "records"));
  fill($("table-file"), files.filter((f) => f.kind !== "records"));
}

function fill(select, files) {
  const current = select.value;
  select.replaceChildren(el("option", "(choose a file)", { value: "" }),
                         ...files.map((f) => el("option", f.file, { value: f.file })));
  if (files.some((f) => f.file === current)) select.value = current;
}

async function listGames(file, filter) {
  $("replay-file").value = file;
  const { games } = await api("GET", `/api/records?file=${encodeURIComponent(file)}`);
  const table = el("table", undefined, { id: "games" });
  table.append(header(["game", "agents", "returns", "moves"]));
  for (const g of games) {
    if (filter && !filter.every((a) => g.agents.includes(a))) continue;
    const row = el("tr", undefined, { class: "clickable", "data-index": g.index });
    row.append(el("td", String(g.index)), el("td", g.agents.join(" vs "), { class: "text" }),
               el("td", g.returns ? g.returns.map((x) => +x.toFixed(3)).join(", ") : "unfinished"),
               el("td", String(g.plies)));
    row.addEventListener("click", () => openReplay(file, g.index, 0));
    table.append(row);
  }
  $("replay-games").replaceChildren(
    el("p", filter ? `Games of ${filter.join(" and ")}:` : `${games.length} games:`), table);
}

function header(names) {
  const row = el("tr");
  row.append(...names.map((n) => el("th", n)));
  return row;
}

async function openReplay(file, game, ply) {
  const seat = S.replay && S.replay.file === file && S.replay.game === game ? S.replay.seat : null;
  S.replay = { file, game, ply: 0, plies: 0, seat };
  await goTo(ply);
}

async function goTo(ply) {
  const r = S.replay;
  if (!r || ply < 0 || (r.plies && ply > r.plies)) return;
  const seat = r.seat === null ? "" : `&seat=${r.seat}`;
  const frame = await api("GET", `/api/replay?file=${encodeURIComponent(r.file)}` +
                                 `&game=${r.game}&ply=${ply}${seat}`);
  Object.assign(r, { ply: frame.ply, plies: frame.plies });
  history.replaceState(null, "", `#replay/${encodeURIComponent(r.file)}/${r.game}/${frame.ply}`);
  S.source = { file: r.file, game: r.game, ply: frame.ply };
  $("replay-panel").hidden = false;
  drawBoard(frame.svg, frame.state);
  $("status").textContent = frame.position || "";
  $("replay-title").textContent = `${frame.title}: game ${r.game} of ${r.file}, ` +
    frame.agents.map((a, p) => `seat ${p} ${a}`).join(", ") +
    (frame.returns ? `; returns ${frame.returns.map((x) => +x.toFixed(3)).join(", ")}` : "");
  const slider = $("slider");
  slider.max = frame.plies;
  slider.value = frame.ply;
  $("ply-label").textContent = `move ${frame.ply} / ${frame.plies}`;
  const reveal = $("reveal");
  $("reveal-label").hidden = !frame.hidden;
  if (frame.hidden && reveal.options.length !== frame.agents.length + 1) {
    reveal.replaceChildren(el("option", "everything (cards revealed)", { value: "" }),
      ...frame.agents.map((a, p) => el("option", `seat ${p} only (${a})`, { value: p })));
  }
  reveal.value = r.seat === null ? "" : String(r.seat);
  const events = $("events");
  events.replaceChildren();
  let number = 0;
  for (const e of frame.events) {
    const text = e.chance !== undefined ? `   chance: ${e.chance}`
      : `${number++}. seat ${e.player}: ${e.move}`;
    const item = el("li", text, { class: e.chance !== undefined ? "chance" : "move" });
    if (e.state === frame.state) item.classList.add("current");
    if (e.chance === undefined) {
      const target = number - 1;
      item.addEventListener("click", () => goTo(target));
    }
    events.append(item);
  }
  const current = events.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function replayKeys(event) {
  if ($("tab-replay").hidden || !S.replay) return;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName) &&
      event.target.id !== "slider") return;
  const moves = { ArrowLeft: S.replay.ply - 1, ArrowRight: S.replay.ply + 1,
                  Home: 0, End: S.replay.plies };
  if (event.key in moves) {
    event.preventDefault();
    goTo(moves[event.key]);
  }
}

// ----- analysis ------------------------------------------------------------------------------
async function runAnalysis(event) {
  if (event) event.preventDefault();
  if (S.job) await cancelAnalysis();
  let source = S.source;
  if (!source && $("position").value.trim()) source = pastedSource();
  if (!source) return showError("nothing to analyse: play a game, open a replay or paste a position");
  const key = source.table && S.view ? keyOf(source.table, S.view.seat) : undefined;
  const job = await api("POST", "/api/analyses", { agent: $("agent").value, ...source }, key);
  S.job = job.id;
  drawBoard(job.svg);
  $("cancel-analysis").disabled = false;
  $("progress").value = 0;
  $("analysis").replaceChildren(el("p", `searching ${job.sims} simulations...`));
  $("analysis").dataset.done = "";
  poll(job.id);
}

function pastedSource() {
  return { game: $("paste-game").value, position: $("position").value.trim(),
           options: $("paste-options").value.split(/\s+/).filter((x) => x) };
}

async function poll(id) {
  if (S.job !== id) return;
  const status = await api("GET", `/api/analyses/${id}`);
  $("progress").value = status.rounds;
  if (status.result) showAnalysis(status);
  if (status.error) showError(status.error);
  if (status.done) {
    $("cancel-analysis").disabled = true;
    $("analysis").dataset.done = "true";
    S.job = null;
  } else {
    setTimeout(() => poll(id), 250);
  }
}

async function cancelAnalysis() {
  const id = S.job;
  S.job = null;
  $("cancel-analysis").disabled = true;
  if (id) await api("DELETE", `/api/analyses/${id}`);
}

function valueColour(q) {
  if (q === null || q === undefined) return "rgb(170,170,170)";
  const t = Math.max(-1, Math.min(1, q));
  return t >= 0 ? `rgb(${Math.round(230 - 190 * t)},${Math.round(200 - 20 * t)},70)`
                : `rgb(220,${Math.round(200 + 150 * t)},${Math.round(70 + 20 * t)})`;
}

function showAnalysis(status) {
  const a = status.result;
  const overlay = document.querySelector("#board svg .overlay");
  if (overlay) overlay.replaceChildren();
  const mover = `value_${a.player}`;
  for (const [, moves] of groupBySpot(a.moves)) {
    const share = moves.reduce((s, m) => s + m.share, 0);
    const prior = moves.reduce((s, m) => s + m.prior, 0);
    const best = moves.reduce((b, m) => (m.visits > b.visits ? m : b), moves[0]);
    const [x, y] = best.spot;
    overlay.appendChild(svgEl("circle", { cx: x, cy: y, r: 5 + 26 * Math.sqrt(prior),
      fill: "none", stroke: "#333", "stroke-dasharray": "3 2", class: "heat prior" }));
    overlay.appendChild(svgEl("circle", { cx: x, cy: y, r: 4 + 26 * Math.sqrt(share),
      fill: valueColour(best[mover]), "fill-opacity": 0.85, class: "heat",
      "data-share": share.toFixed(4) }));
    if (share >= 0.01) {
      const label = svgEl("text", { x, y: y + 4, "text-anchor": "middle", class: "heat-label" });
      label.textContent = `${Math.round(100 * share)}%`;
      overlay.appendChild(label);
    }
  }
  $("heat-legend").hidden = false;
  const fmt = (x) => (x === null ? "-" : (x >= 0 ? "+" : "") + x.toFixed(3));
  const table = el("table", undefined, { id: "analysis-table" });
  table.append(header(["move", "visits", "share", "prior",
                       ...a.values.map((_, p) => `Q seat ${p}`)]));
  for (const m of a.moves.slice(0, 15)) {
    const row = el("tr");
    row.append(el("td", m.move), el("td", String(m.visits)),
               el("td", `${(100 * m.share).toFixed(1)}%`), el("td", m.prior.toFixed(3)),
               ...a.values.map((_, p) => el("td", fmt(m[`value_${p}`]))));
    table.append(row);
  }
  $("analysis").replaceChildren(
    el("p", `${a.agent}: ${a.simulations} simulations (round ${status.rounds} of ${status.of}` +
            `${status.cancelled ? ", cancelled" : ""}); seat ${a.player} to move; values ` +
            a.values.map((v, p) => `seat ${p} ${fmt(v)}`).join(", ")),
    table, el("p", `principal variation: ${a.pv.join(", ") || "none"}`));
}

// ----- tables --------------------------------------------------------------------------------
async function showRatings(file) {
  $("table-file").value = file;
  const t = await api("GET", `/api/ratings?file=${encodeURIComponent(file)}`);
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
        const cell = el("td", x === null ? "" : `${Math.round(100 * x)}%`);
        if (x !== null && t.records) {
          cell.classList.add("clickable");
          cell.title = "open these games in the replay view";
          cell.addEventListener("click", () => {
            switchTab("replay");
            listGames(t.records, [a, b]);
          });
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
  history.replaceState(null, "", `#tables/${encodeURIComponent(file)}`);
}

// ----- tabs, start ---------------------------------------------------------------------------
function switchTab(name) {
  for (const tab of ["play", "replay", "analyse", "tables"]) {
    $(`tab-${tab}`).hidden = tab !== name;
    document.querySelector(`nav a[data-tab=${tab}]`).classList.toggle("active", tab === name);
  }
  document.body.classList.toggle("wide", name === "tables");  // tables need no board
  if (name === "replay" || name === "tables") loadFiles();
}

async function start() {
  const info = await api("GET", "/api/info");
  for (const select of [$("game"), $("paste-game")]) {
    select.replaceChildren(...info.played.map((g) => el("option", g, { value: g })));
  }
  $("new-game").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("advance").addEventListener("click", () => advance(S.view));
  $("analyse-here").addEventListener("click", () => { switchTab("analyse"); runAnalysis(); });
  $("analyse-replay").addEventListener("click", () => { switchTab("analyse"); runAnalysis(); });
  $("analyse-form").addEventListener("submit", runAnalysis);
  $("cancel-analysis").addEventListener("click", cancelAnalysis);
  $("show-position").addEventListener("click", () => { S.source = pastedSource(); runAnalysis(); });
  $("replay-file").addEventListener("change", (e) => e.target.value && listGames(e.target.value));
  $("table-file").addEventListener("change", (e) => e.target.value && showRatings(e.target.value));
  $("slider").addEventListener("input", (e) => goTo(Number(e.target.value)));
  for (const [id, step] of [["first", () => 0], ["prev", () => S.replay.ply - 1],
                            ["next", () => S.replay.ply + 1], ["last", () => S.replay.plies]]) {
    $(id).addEventListener("click", () => S.replay && goTo(step()));
  }
  $("reveal").addEventListener("change", (e) => {
    S.replay.seat = e.target.value === "" ? null : Number(e.target.value);
    goTo(S.replay.ply);
  });
  document.addEventListener("keydown", replayKeys);
  for (const link of document.querySelectorAll("nav a")) {
    link.addEventListener("click", (e) => { e.preventDefault(); switchTab(link.dataset.tab); });
  }
  // The address holds the view: a reload returns to the same game, replay or table.
  const [tab, ...rest] = location.hash.slice(1).split("/");
  switchTab(["play", "replay", "analyse", "tables"].includes(tab) ? tab : "play");
  if (tab === "play" && rest[0] && /^\d*$/.test(rest[1] || "")) {
    loadGame(rest[0], rest[1] ? Number(rest[1]) : null);
  } else if (tab === "play" && rest[0]) {
    acceptInvitation(rest[0], rest[1]);
  }
  if (tab === "replay" && rest[0]) {
    const file = decodeURIComponent(rest[0]);
    await listGames(file);
    await openReplay(file, Number(rest[1] || 0), Number(rest[2] || 0));
  }
  if (tab === "tables" && rest[0]) showRatings(decodeURIComponent(rest[0]));
  document.body.dataset.ready = "true";
}

start();
