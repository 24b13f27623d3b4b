// The Play view: a new game, its board with the lit spots, the moves, the agents moving on by
// themselves, undo, download, and a game opened from its address or an invitation.
import { runAnalysis, setSource, sourceFromView } from "./analyse.js";
import { openTab, render } from "./board.js";
import { drawBoard, groupBySpot, lastSpot, markLastMove, positionLink, showPosition,
  spotKey } from "./drawing.js";
import { openReplay } from "./replay.js";
import { $, api, ApiError, button, download, el, guarded, heldSeats, keepKeys, keyed, keyFor,
  lastHuman, S, saveForm, showError, svgEl } from "./shared.js";
import { gameTitle, resultWords, seatName, words } from "./words.js";

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
  $("advance").addEventListener("click", () => advance(S.play.view));
  $("pause").addEventListener("click", () => { S.play.paused = !S.play.paused; render(); });
  $("speed").addEventListener("change", () => { saveForm(); render(); });
  $("download-game").addEventListener("click", downloadGame);
  $("analyse-here").addEventListener("click", guarded(async () => {
    await setSource(sourceFromView("play"));
    await runAnalysis();
  }));
}
