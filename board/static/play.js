// The Play view: a new game, its board with the lit spots, the moves, undo, download, the
// agents' pace, the invitations and who is connected, and a game opened from its address or an
// invitation. The server plays the agents and pushes every change (live.js): the page never
// asks for a move.
import { runAnalysis, setSource, sourceFromView } from "./analyse.js";
import { openTab, render } from "./core.js";
import { drawBoard, groupBySpot, lastSpot, layerAt, markLastMove, positionLink, showPosition,
  roomForTargets, spotAt, spotKey } from "./drawing.js";
import { follow } from "./live.js";
import { openReplay } from "./replay.js";
import { $, api, ApiError, button, download, el, guarded, heldSeats, invitationsOf,
  keepInvitations, keepKeys, keyFor, lastHuman, S, saveForm, showError,
  svgEl } from "./shared.js";
import { dieWords, gameTitle, moveWords, resultWords, seatName, words } from "./words.js";

const newGame = guarded(async (event) => {
  event.preventDefault();
  saveForm();
  const options = $("options").value.split(/\s+/).filter((x) => x);
  const seats = splitSeats($("seats").value);
  const seed = $("seed").value === "" ? null : Number($("seed").value);  // none: the OS's
  const delay = $("watch").checked ? Number($("speed").value) / 1000 : 0;
  const state = $("new-game-state");
  const started = Date.now();
  const game = words($("game").value).name;
  let readying = null;  // the server's compiles at start (/api/info), while they go on
  const ticking = setInterval(async () => {  // a table that takes a while says why, as it goes
    state.hidden = false;
    const seconds = `${Math.round((Date.now() - started) / 1000)} s`;
    const done = readying && !readying.finished && readying.done + readying.failed;
    state.textContent = readying && !readying.finished
      ? `Setting up the table... ${seconds}: getting ${game} ready: ${done} of ` +
        `${readying.total} compiles done (a fresh install compiles once)`
      : `Setting up the table... ${seconds} (the first game of a fresh install compiles its ` +
        "rules and its agents' search, once)";
    try {
      readying = (await api("GET", "/api/info", undefined, { quiet: true })).readying;
    } catch { /* the New game's own answer says what went wrong */ }
  }, 1000);
  let view;
  try {
    view = await api("POST", "/api/tables", { game: $("game").value, options, seats, seed, delay });
  } finally {
    clearInterval(ticking);
    state.hidden = true;
  }
  if (view.keys) keepKeys(view.id, { ...view.keys, control: view.control || null });
  if (view.invitations) keepInvitations(view.id, { ...view.invitations, spectate: view.spectate });
  S.play.spots = null;
  await showGame(view, true);
  window.scrollTo(0, 0);  // the new board from its top, wherever the form was scrolled to
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

// The view of table `id` as `seat` sees it (the seat's key; null, or a seat this screen holds
// no key for: a spectator's).
function fetchView(id, seat) {
  return api("GET", `/api/tables/${encodeURIComponent(id)}`, undefined,
             { key: keyFor(id, seat) });
}

async function showGame(view, open = false) {
  const newer = () => {
    const now = S.play.view;
    return now && now.id === view.id && now.revision > view.revision;
  };
  if (newer()) return;  // an older answer than the game shown
  // Several humans share the screen: the board turns to the human to move, unless that seat
  // is played on another page (an invitation taken).
  const held = heldSeats(view);
  if (!view.over && view.to_move !== view.seat && view.seats[view.to_move] === "human" &&
      held.includes(view.to_move) && !elsewhere(view.id, view.to_move)) {
    view = await fetchView(view.id, view.to_move);
    if (newer()) return;  // a push came meanwhile
  } else if (view.seat === null && held.length === 1) {  // answered for no seat (an address
    view = await fetchView(view.id, held[0]);            // without the seat): the sole human
    if (newer()) return;                                 // stays who it is
  }
  if (pressed && !open) {  // pressed while the seat's view was fetched: drawn on release
    pending = view;
    return;
  }
  S.play.view = view;
  watch(view);
  if (open) await openTab("play");
  else if (S.tab === "play") render();
  loadPlaySpots(view);
}

// Whether a page other than this one plays `seat` of table `id`.
function elsewhere(id, seat) {
  const { presence, live } = S.play;
  if (!presence || presence.id !== id) return false;
  return presence.seats[seat] > (live && live.id === id && live.seat === seat ? 1 : 0);
}

// The push connection of the game shown, as the seat it was opened at (the seats this screen
// turns to are shown from its views).
function watch(view) {
  const live = S.play.live;
  if (live && live.id === view.id) return;
  if (live) live.close();
  S.play.presence = null;
  const key = view.seat === null ? null : keyFor(view.id, view.seat);
  S.play.live = follow(view.id, key, {
    onView: guarded((pushed) => S.play.view && S.play.view.id === pushed.id && whenReleased(pushed)),
    onPresence: (presence) => {
      if (!S.play.view || S.play.view.id !== view.id) return;
      S.play.presence = { id: view.id, ...presence };
      if (S.tab === "play") renderPresence(S.play.view);
    },
    onRefused: (status, message) => showError(message),
    onStatus: (status) => S.play.live && S.play.live.id === view.id && showLive(status),
  });
  S.play.live.seat = view.seat;
}

// A push that comes while a button or spot of the game is pressed waits for its release (and
// the click that follows it): drawing the board again under a press would swallow the click.
let pressed = false;
let pending = null;
document.addEventListener("pointerdown", (e) => {
  pressed = Boolean(e.target.closest && e.target.closest("#board, #play-panel"));
}, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => {
    pressed = false;
    if (!pending) return;
    const view = pending;
    pending = null;
    setTimeout(guarded(() => S.play.view && S.play.view.id === view.id && showGame(view)));
  }, true);
}

function whenReleased(view) {
  if (pressed) pending = view;
  else return showGame(view);
}

// Whether the board is live: hidden while it is, else why not and when it tries again.
function showLive(status) {
  const line = $("live-state");
  line.hidden = status.live;
  if (status.live) return;
  line.textContent = "Not live: " + status.reason + (status.retryMs === null ? "."
    : `; trying again in ${(status.retryMs / 1000).toFixed(1)} s (attempt ${status.attempt}).`);
}

// A notice pushed with the game (an agent's search failed: the game waits) stays while the
// game says it, and goes with the push that no longer does.
function showNotice(notice) {
  if (notice) showError(notice);
  else if (S.play.notice && $("error").textContent === S.play.notice) showError("");
  S.play.notice = notice || null;
}

// Who is connected: a page per seat, and the spectators.
function renderPresence(view) {
  const presence = S.play.presence;
  if (!presence || presence.id !== view.id) {
    $("presence").textContent = "";
    return;
  }
  const seats = presence.seats.map((n, p) => (n ? seatName(view.game, p) +
    (p === view.seat ? " (you)" : "") : null)).filter((x) => x);
  const watching = presence.spectators;
  $("presence").textContent = "Connected: " + (seats.join(", ") || "no seat") +
    (watching ? `; ${watching} watching` : "") + ".";
}

// The creator's links for the others: one per human seat and one for spectators, each with a
// copy button.
function renderInvitations(view) {
  const links = invitationsOf(view.id);
  const box = $("invitations");
  box.replaceChildren();
  box.hidden = view.over || !Object.keys(links).length;
  const rows = Object.entries(links).filter(([k]) => k !== "spectate" && Number(k) !== view.seat)
    .map(([k, link]) => [`Invite ${seatName(view.game, Number(k))}`, link, `invite-${k}`]);
  if (links.spectate) rows.push(["Spectators", links.spectate, "invite-spectate"]);
  for (const [label, link, id] of rows) {
    const url = new URL(link, location.href).href;
    const field = el("input", undefined, { id, readonly: "", value: url,
                                           "aria-label": `${label}: link` });
    const row = el("div", undefined, { class: "invite" });
    row.append(el("span", label), field, button("Copy", () => copy(field), { "data-copy": id }));
    box.append(row);
  }
  // a link from the server's root: the server knows no address for others (it listens on
  // this machine only), so the link is this page's own address
  if (rows.some(([, link]) => link.startsWith("/")) && onlyHere(location.hostname)) {
    box.append(el("p", "These links work on this computer only: to invite someone on another " +
      "machine, start savanna serve with --host 0.0.0.0, or with --public-url and the address " +
      "others reach it at.", { id: "invite-local", class: "help" }));
  }
}

// Whether `host` names this computer only (a loopback address, localhost).
function onlyHere(host) {
  const name = host.replace(/^\[|\]$/g, "").toLowerCase();
  return name === "localhost" || name === "::1" || /^127\./.test(name);
}

async function copy(field) {
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    showError("");
  } catch {
    document.execCommand("copy");  // no clipboard API (a page not served over https)
  }
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
  if (S.tab !== "play") return;
  if (pressed) pending = pending || view;  // drawn on release, as a push is: the press keeps its spot
  else render();
}

export function renderPlay() {
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
  const spots = groupBySpot(view.moves);
  const drawn = roomForTargets([...spots.values()].map((moves) => spotAt(moves[0].spot)), scale);
  const radius = Math.max(13, 17 / drawn);
  for (const [, moves] of spots) {
    const [x, y] = spotAt(moves[0].spot);
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
    layerAt(overlay, moves[0].spot).appendChild(hot);
  }
  renderMoves(view);
  $("turn").textContent = gameTitle(g, view.title) + ". " +
    (you ? `You play ${you}. ` : "You are watching. ") +
    (view.over ? "The game is over."
      : view.to_move === view.seat && view.moves.length
        ? `Your move: ${groupBySpot(view.moves).size ? "click a lit spot on the board or " : ""}` +
          "choose a move below."
        : `${mover} (${view.seats[view.to_move]}) is to move` +
          (view.agent_to_move ? (view.paused ? "; paused." : "...") : ".")) +
    (view.preparing ? ` (${view.preparing}...)` : "");
  $("undo").disabled = !view.can_undo || view.seat === null ||  // a spectator has no move
    !heldSeats(view).includes(lastHuman(view));  // the last human move is another page's
  // a game with secrets (cards, a seed that deals) has no public record before its end
  $("download-game").disabled = view.position === null && !view.over;
  const agents = view.seats.some((s) => s !== "human");
  const watched = $("watch").checked || !view.seats.includes("human");
  const mine = view.seat !== null || keyFor(view.id, null) !== null;  // a key sets the pace
  $("agent-controls").hidden = !agents || !mine || !(watched || view.paused) || view.over;
  $("pause").textContent = view.paused ? "Resume" : "Pause";
  $("pause").setAttribute("aria-pressed", String(view.paused));
  $("advance").disabled = !view.agent_to_move;
  showNotice(view.notice);
  renderPresence(view);
  renderInvitations(view);
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
}

// "seat 1 (random): L d1" -> "Green (random): L d1"; "chance: B" -> "die rolled: B"
function logText(game, entry) {
  if (entry.who < 0) return entry.text.replace(/^chance:/, `${words(game).chance}:`);
  return entry.text.replace(/^seat (\d+)/, (_, p) => seatName(game, Number(p)))
    .replace(/reroll [^ ].*$/, (name) => moveWords(game, name));
}

function renderMoves(view) {
  const list = $("moves");
  list.replaceChildren();
  if (!view.moves.length) return;
  const rerolls = view.moves.filter((m) => m.name.startsWith("reroll "));
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

// Banjooli's 63 rerolls as one group: tick the dice, then "reroll" (or "keep" them all). A
// reroll is named by its dice's faces in order ("reroll R1,B,sorcery W"); the single dice,
// in the order of their action ids, are the boxes, named by their colours (dieWords).
function rerollGroup(view, rerolls) {
  const byDice = new Map(rerolls.map((m) => [m.name.slice(7), m]));
  const dice = rerolls.filter((m) => !m.name.includes(",")).sort((a, b) => a.action - b.action)
    .map((m) => m.name.slice(7));
  const box = el("fieldset", undefined, { class: "reroll" });
  box.append(el("legend", "Reroll: tick the dice to roll again (the five movement dice, then " +
                          "the sorcery die), then press reroll"));
  dice.forEach((d, k) => {
    const label = el("label", undefined, { class: "check" });
    label.append(el("input", undefined, { type: "checkbox", value: d, "data-focus": `die:${k}` }),
                 ` ${dieWords(view.game, d)}`);
    box.append(label);
  });
  box.append(button("reroll", () => {
    const ticked = [...box.querySelectorAll("input:checked")].map((i) => i.value);
    const m = byDice.get(ticked.join(","));
    if (!m) {
      return showError(ticked.length ? "these dice cannot be rerolled together: " +
        ticked.map((d) => dieWords(view.game, d)).join(", ") : "tick at least one die, or keep the roll");
    }
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
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(view.id)}/${path}`,
                             body, { key });
    if (S.play.view && S.play.view.id === view.id) await showGame(answer);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 0 || err.status === 401) return;
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

// a move is answered at once; the agents' replies come pushed, one by one
const play = guarded((action) => change("move", { action, version: S.play.view.version,
                                                  agents: false }, S.play.view.seat));

// pause, resume, speed and step of the agents: settings of the table, for every page
const advance = guarded(() => change("advance", {}, paceSeat()));
const pause = guarded(() => change("pace", { paused: !S.play.view.paused }, paceSeat()));
const setSpeed = guarded(() => {
  saveForm();
  if (S.play.view && !S.play.view.over) {
    return change("pace", { delay: Number($("speed").value) / 1000 }, paceSeat());
  }
});

function paceSeat() {
  const view = S.play.view;
  return keyFor(view.id, null) ? null : view.seat;  // the control key, else the seat's
}

const undo = guarded(() => change("undo", {}, lastHuman(S.play.view)));

// A record's file name in words: its game, its players, when it was saved
// ("zebres-human-vs-mcts-sims=200-2026-12-07-0415.jsonl"), never the table's id.
export function recordName(game, agents, now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  const when = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-` +
               `${pad(now.getHours())}${pad(now.getMinutes())}`;
  const players = agents.join("-vs-").replace(/[^A-Za-z0-9=.]+/g, "-");
  return `${game}-${players}-${when}.jsonl`;
}

const downloadGame = guarded(async () => {
  const v = S.play.view;
  const data = await api("GET", `/api/tables/${encodeURIComponent(v.id)}/record`, undefined,
                         { key: keyFor(v.id, v.seat) });
  download(recordName(v.game, data.record.agents), JSON.stringify(data.record) + "\n");
});

// A game from the address: #play/TABLE/SEAT, or an invitation #play/TABLE/KEY (the server
// says which seat the key opens).
export const loadGame = guarded(async (id, seatOrKey) => {
  S.play.spots = null;
  if (seatOrKey && !/^\d{1,2}$/.test(seatOrKey)) {
    const view = await api("GET", `/api/tables/${encodeURIComponent(id)}`, undefined,
                           { key: seatOrKey });
    if (view.seat !== null) keepKeys(id, { [view.seat]: seatOrKey });
    return showGame(view, true);
  }
  await showGame(await fetchView(id, seatOrKey ? Number(seatOrKey) : null), true);
});

function describeForm() {
  const game = $("game").value;
  const info = S.info.games[game] || { options: [] };
  $("howto").textContent = words(game).howto ? `How to play: ${words(game).howto}` : "";
  $("options-help").textContent = info.options.length
    ? `Options of ${words(game).name}: ${info.options.join(", ")} (e.g. ${info.options[0]}=...); ` +
      "leave empty for the defaults." : `${words(game).name} has no options.`;
  const seats = splitSeats($("seats").value);
  $("seats-words").textContent = seats.map((s, p) => `${seatName(game, p)}: ${s}`).join(", ");
  readyAhead(game, seats);
}

// While the server still compiles its games (a fresh install), the game and agents the form
// names are compiled next: by the time the person presses New game, they may be ready.
let named = "";
let naming = null;
function readyAhead(game, seats) {
  const now = JSON.stringify({ game, seats });
  if (!S.info.readying || S.info.readying.finished || now === named) return;
  named = now;
  clearTimeout(naming);
  naming = setTimeout(async () => {
    try {
      S.info.readying = (await api("POST", "/api/readying", { game, seats }, { quiet: true }))
        .readying;
    } catch { /* a hint only: the New game says what went wrong */ }
  }, 300);
}

// The Play view's controls: the new-game form and the game's buttons.
export function setupPlay() {
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
  $("advance").addEventListener("click", advance);
  $("pause").addEventListener("click", pause);
  $("speed").addEventListener("change", setSpeed);
  $("download-game").addEventListener("click", downloadGame);
  $("analyse-here").addEventListener("click", guarded(async () => {
    await setSource(sourceFromView("play"));
    await runAnalysis();
  }));
}
