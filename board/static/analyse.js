// The Analyse view: a search agent's weights of every move of a position (from Play, Replay or
// pasted), as a heat map and the best line on the board, and as a table.
import { openTab, render } from "./core.js";
import { drawBoard, evalBar, groupBySpot, layerAt, positionLink, showPosition, spotAt,
  spotKey } from "./drawing.js";
import { $, api, el, guarded, header, keyFor, S, saveForm, showError,
  svgEl } from "./shared.js";
import { moveWords, optionWords, percentOf, seatName, words } from "./words.js";

// The source of an analysis: a table position, a replay position, or a pasted position.
const PV_SHOWN = 5;  // the best line's moves drawn on the board

export function sourceFromView(tab) {
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
    return { table: source.table };
  }
  if (source.file !== undefined) return { file: source.file, game: source.game_index, ply: source.ply };
  return { game: source.game, options: source.options, position: source.position };
}

export async function setSource(source) {
  await dropJob();
  Object.assign(S.analyse, { source, status: null, job: null, cancelled: false });
  await openTab("analyse");
}

export const showPasted = guarded(async (game, options, position) => {
  const query = new URLSearchParams({ game, position });
  for (const o of options) query.append("option", o);
  const answer = await api("GET", `/api/position?${query}`);
  await setSource({ game, options, position, title: answer.title, svg: answer.svg,
                    label: `a pasted position of ${words(game).name}`,
                    moves: answer.moves });
});

export const runAnalysis = guarded(async (event) => {
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

export function renderAnalyse() {
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
  // values as expected results, 0-100%: the review's unit (the heat map's colours keep the values)
  const fmt = (x) => percentOf(x, a.values.length);
  evalBar(game, a.values);
  for (const [, moves] of groupBySpot(a.moves)) {
    const share = moves.reduce((s, m) => s + m.share, 0);
    const prior = moves.reduce((s, m) => s + m.prior, 0);
    const best = moves.reduce((b, m) => (m.visits > b.visits ? m : b), moves[0]);
    const [x, y] = spotAt(best.spot);
    const layer = layerAt(overlay, best.spot);
    layer.appendChild(svgEl("circle", { cx: x, cy: y, r: 5 + 26 * Math.sqrt(prior),
      fill: "none", stroke: "#333", "stroke-dasharray": "3 2", class: "heat prior" }));
    layer.appendChild(svgEl("circle", { cx: x, cy: y, r: 4 + 26 * Math.sqrt(share),
      fill: scale.colour(best[mover]), "fill-opacity": 0.9, class: "heat",
      "data-share": share.toFixed(4) }));
    if (share >= 0.01) {
      layer.appendChild(svgEl("text", { x, y: y + 4, "text-anchor": "middle",
                                        class: "heat-label" }, `${Math.round(100 * share)}%`));
    }
  }
  // the best line's first moves, numbered on the board (a spot played twice: side by side),
  // then "…"; the whole line is listed beside the board
  const visits = new Map();
  const line = (a.pv_spots || []).slice(0, PV_SHOWN);
  line.forEach((spot, k) => {
    if (!spot) return;
    const [x, y] = spotAt(spot);
    const before = visits.get(spotKey(spot)) || 0;
    visits.set(spotKey(spot), before + 1);
    const cx = x + 14 + 20 * before, cy = y - 14;
    const g = svgEl("g", { class: "pv" });
    g.append(svgEl("circle", { cx, cy, r: 9 }),
             svgEl("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, String(k + 1)));
    if (k === line.length - 1 && a.pv.length > PV_SHOWN) {
      g.append(svgEl("text", { x: cx + 12, y: cy + 4, class: "pv-more" }, "…"));
    }
    layerAt(overlay, spot).appendChild(g);
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
                  ` ${moveWords(game, m.move)}: ${(100 * m.share).toFixed(1)}% of visits, ` +
                  `value ${fmt(m[mover])}`);
      return item;
    }));
  const table = el("table", undefined, { id: "analysis-table" });
  table.append(header(["move", "visits", "share", "prior",
                       ...a.values.map((_, p) => `${seatName(game, p)}'s expected result`)]));
  for (const m of a.moves.slice(0, 15)) {
    const row = el("tr");
    row.append(el("td", moveWords(game, m.move)), el("td", String(m.visits)),
               el("td", `${(100 * m.share).toFixed(1)}%`), el("td", m.prior.toFixed(3)),
               ...a.values.map((_, p) => el("td", fmt(m[`value_${p}`]))));
    table.append(row);
  }
  $("analysis").replaceChildren(
    el("p", `${a.agent}: ${a.simulations} simulations; ${seatName(game, a.player)} to move; ` +
            "expected results " + a.values.map((v, p) => `${seatName(game, p)} ${fmt(v)}`)
              .join(", ")),
    table, el("p", `Best line: ${a.pv.map((m, k) => `${k + 1}. ${moveWords(game, m)}`)
      .join(", ") || "none"}`));
}

// The Analyse view's controls: the agent, a pasted position, run and cancel.
export function setupAnalyse() {
  $("analyse-form").addEventListener("submit", runAnalysis);
  $("cancel-analysis").addEventListener("click", cancelAnalysis);
  $("show-position").addEventListener("click", () => {
    if (!$("position").value.trim()) return showError("paste a position in the game's notation first");
    return showPasted($("paste-game").value, pastedOptions(), $("position").value.trim());
  });
}
