// The game review under the board, as lichess shows one: each player's expected result (its share
// of the win, 0-100%) at every decision as a line graph; the marked moves, labelled by how much
// the mover's expected result dropped (inaccuracy, mistake, blunder: `savanna review`'s labels);
// each player's summary; and the lesson of a picked decision on the board above the review: the
// position before the move, the move played and the search's best move ringed, the best line
// stepped through move by move. The figures come from POST /api/reviews
// (board/reviews.py), the same as `savanna review`'s CSV; the positions from
// GET /api/position (its then= plays the best line).
//
//   window.savannaReview(request)  (the page calls it there, where a test may stand in)
//       runs a review and draws it as it comes: request holds what to review ({file, game} or
//       {table, key}), the game's title (its options) and may hold agent, threshold, seed and
//       onPick(ply), called when a decision is picked; resolves to the last status (null on an
//       error, shown in the review)
//   drawReviewed()
//       called by render(): the picked decision's lesson on the board and beside it (#lesson),
//       while the view shows it
import { currentGameId, render } from "./core.js";
import { boardOnly, drawBoard, evalBar, layerAt, showInFrame, spotAt } from "./drawing.js";
import { $, api, el, guarded, S, svgEl } from "./shared.js";
import { drawRetry, retrying, startRetry } from "./retry.js";
import { expectedShare, moveWords, optionWords, percentOf, SEAT_COLOURS, seatName,
  withArticle, words } from "./words.js";

const COLOURS = SEAT_COLOURS;
const LABEL_COLOURS = { inaccuracy: "#d4a000", mistake: "#e06c00", blunder: "#c00" };
const H = 200;  // the width is the container's, so that the text keeps its size on a phone
const PAD = { left: 44, right: 10, top: 10, bottom: 24 };
const POLL_MS = 300;
const BUDGETS = [32, 100, 400, 1600];  // simulations a decision: quick to deep
const STYLE = ".review-graph { cursor: pointer; touch-action: pan-y; }"
  + " .review-graph:focus-visible { outline: 3px solid #f80; } .point { pointer-events: none; }";

const expected = expectedShare;
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };  // lichess's

const points = (x) => `${(100 * x).toFixed(1)} points`;  // of 100

function player(result, p) { return `${seatName(result.game, p)} (${result.agents[p]})`; }

// The drop in words: "lost 12.3 points" (of the mover's expected result, out of 100).
function dropWords(d) {
  if (d.drop === null) return "the search never tried it";
  return d.drop >= 0 ? `lost ${points(d.drop)}` : `gained ${points(-d.drop)} on the search's best`;
}

// "move 51: Green (greedy) played impala +2, best Z c2, blunder, lost 31.0 points"; the
// numbers are those of the move list (move 1 is the first decision, ply 0).
function describe(d, result) {
  const [move, best] = [moveWords(result.game, d.move), moveWords(result.game, d.best)];
  return `move ${d.ply + 1}: ${player(result, d.player)} played ${move}, best ${best}` +
    `${d.label ? `, ${d.label}` : ""}, ${dropWords(d)}`;
}

// The best line's moves up to its first chance outcome (written in parentheses).
function bestLine(d) {
  const line = d.line ? d.line.split("; ") : [];
  const chance = line.findIndex((m) => m.startsWith("("));
  return chance < 0 ? line : line.slice(0, chance);
}

function drawReview(container, result, onPick) {
  container.replaceChildren();
  const W = Math.max(container.clientWidth, 280);
  const rows = result.decisions;
  const players = result.agents.length;
  const span = Math.max(result.plies - 1, 1);
  const width = W - PAD.left - PAD.right, height = H - PAD.top - PAD.bottom;
  const x = (ply) => PAD.left + (ply / span) * width;
  const y = (v) => PAD.top + (1 - expected(v, players)) * height;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", class: "review-graph",
                             role: "slider", tabindex: 0, "aria-valuemin": 1,
                             "aria-valuemax": result.plies, "aria-valuenow": 1,
                             "aria-label": "each player's expected result at every decision: " +
                                           "arrow keys move through the moves" });
  svg.appendChild(svgEl("style", {}, STYLE));
  for (const share of [0, 0.5, 1]) {
    const at = PAD.top + (1 - share) * height;
    svg.appendChild(svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: at, y2: at,
                                    stroke: share === 0.5 ? "#888" : "#ddd" }));
    svg.appendChild(svgEl("text", { x: PAD.left - 4, y: at + 4, "text-anchor": "end",
                                    "font-size": 11 }, `${100 * share}%`));
  }
  svg.appendChild(svgEl("text", { x: PAD.left, y: H - 6, "font-size": 11 }, "move 1"));
  svg.appendChild(svgEl("text", { x: W - PAD.right, y: H - 6, "font-size": 11,
                                  "text-anchor": "end" }, `move ${result.plies}`));
  const cursor = svgEl("line", { class: "cursor", y1: PAD.top, y2: PAD.top + height,
                                 stroke: "#f80", "stroke-width": 2, visibility: "hidden" });
  svg.appendChild(cursor);
  for (let p = 0; p < players; p++) {
    svg.appendChild(svgEl("polyline", {
      class: "value-line", "data-player": p, fill: "none", stroke: COLOURS[p % COLOURS.length],
      "stroke-width": 1.5, points: rows.map((d) => `${x(d.ply)},${y(d[`value_${p}`])}`).join(" "),
    }));
  }
  const view = {
    mark(ply) {
      const box = svg.parentNode?.querySelector(".review-moves-box");
      for (const item of box?.querySelectorAll("li") ?? []) {
        const lit = Number(item.dataset.ply) === ply;
        item.classList.toggle("current", lit);
        if (lit) {
          item.setAttribute("aria-current", "true");
          box.scrollTop = item.offsetTop - box.clientHeight / 2;  // in the list, the page still
        } else item.removeAttribute("aria-current");
      }
      const shown = Number.isInteger(ply) && ply >= 0 && ply < result.plies;
      cursor.setAttribute("visibility", shown ? "visible" : "hidden");
      if (shown) {
        cursor.setAttribute("x1", x(ply));
        cursor.setAttribute("x2", x(ply));
        const d = rows.find((row) => row.ply === ply);
        svg.setAttribute("aria-valuenow", ply + 1);
        if (d) svg.setAttribute("aria-valuetext", describe(d, result));
      }
    },
  };
  const pick = (d) => { view.mark(d.ply); onPick(d); };
  for (const d of rows) {  // one point per decision, on the mover's line; the graph takes the clicks
    const point = svgEl("circle", {
      class: d.label ? `point marked ${d.label}` : "point", "data-ply": d.ply, cx: x(d.ply),
      cy: y(d[`value_${d.player}`]), r: d.label ? 5 : 2.5,
      fill: d.label ? "#fff" : COLOURS[d.player % COLOURS.length],
      stroke: d.label ? LABEL_COLOURS[d.label] : "none", "stroke-width": 2.5,
    });
    point.appendChild(svgEl("title", {}, describe(d, result)));
    svg.append(point);
  }
  scrubbed(svg, rows, x, pick, view);
  container.append(svg, legend(result), summaryTable(result), retryButtons(result),
                   nextMistakes(result, pick), markedList(result, pick), moveList(result, pick));
  return view;
}

// The graph as one control: a finger or the mouse scrubs along it (the cursor follows, the move
// under it is picked when the finger lifts; off every move, a marked one within reach is
// preferred), the arrow
// keys step through the decisions (Home, End: the first and the last), one tab stop in all.
function scrubbed(svg, rows, x, pick, view) {
  const nearest = (clientX) => {
    const box = svg.getBoundingClientRect();
    const at = (clientX - box.left) * (svg.viewBox.baseVal.width / box.width);
    const by = (d) => Math.abs(x(d.ply) - at);
    const closest = (among) => among.reduce((a, b) => (by(b) < by(a) ? b : a));
    const hit = closest(rows);
    if (by(hit) <= 1.5) return hit;  // right on a move: that one
    const close = rows.filter((d) => d.label && by(d) <= 12);
    return close.length ? closest(close) : hit;
  };
  let held = null;
  svg.addEventListener("pointerdown", (event) => {
    if (!rows.length || event.button > 0) return;
    held = nearest(event.clientX);
    svg.setPointerCapture?.(event.pointerId);
    view.mark(held.ply);
  });
  svg.addEventListener("pointermove", (event) => {
    if (held === null) return;
    held = nearest(event.clientX);
    view.mark(held.ply);
  });
  svg.addEventListener("pointerup", () => {
    if (held !== null) pick(held);
    held = null;
  });
  svg.addEventListener("pointercancel", () => { held = null; });  // the page scrolled instead
  svg.addEventListener("keydown", (event) => {
    if (!rows.length) return;
    const now = rows.findIndex((d) => d.ply === (S.review.decision?.ply ?? -1));
    const to = { ArrowRight: now + 1, ArrowDown: now + 1, ArrowLeft: now - 1, ArrowUp: now - 1,
                 Home: 0, End: rows.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    event.stopPropagation();  // the replay's own keys stay still
    pick(rows[Math.max(0, Math.min(rows.length - 1, to))]);
  });
}

function legend(result) {
  const line = el("p", "Expected result (each player's share of the win, 0–100%) by " +
                       `${result.agent}: `, { class: "review-legend" });
  for (let p = 0; p < result.agents.length; p++) {
    line.append(el("span", "\u25A0 ", { style: `color: ${COLOURS[p % COLOURS.length]}` }),
                `${player(result, p)}; `);
  }
  const t = 100 * result.threshold;
  line.append(`ringed: the mover's expected result dropped by more than ${t.toFixed(0)} points ` +
              `(inaccuracy), ${(2 * t).toFixed(0)} (mistake) or ${(3 * t).toFixed(0)} (blunder).`);
  return line;
}

// Lichess's summary: per player its inaccuracies, mistakes, blunders, average loss, accuracy.
function summaryTable(result) {
  const table = el("table", undefined, { class: "review-summary" });
  const head = el("tr");
  head.append(...["player", "inaccuracies", "mistakes", "blunders", "average loss (points)",
                  "accuracy"].map((n) => el("th", n, { scope: "col" })));
  table.append(head);
  for (const s of result.summary || []) {
    const row = el("tr", undefined, { "data-player": s.player });
    row.append(el("th", player(result, s.player), { scope: "row" }),
               el("td", String(s.inaccuracies)), el("td", String(s.mistakes)),
               el("td", String(s.blunders)),
               el("td", s.average_drop === null ? "-" : s.average_drop.toFixed(1)),
               el("td", s.accuracy === null ? "-" : `${s.accuracy.toFixed(0)}%`));
    table.append(row);
  }
  // a narrow column scrolls it sideways: a region the keyboard can reach
  const box = el("div", null, { class: "scroll", tabindex: 0, role: "region",
                                "aria-label": "each player's summary" });
  box.append(table);
  return box;
}

// Lichess's "next mistake", per player: the next marked move of that player after the one shown.
function nextMistakes(result, pick) {
  const box = el("p", null, { class: "row review-next" });
  result.agents.forEach((_, p) => {
    const mine = result.decisions.filter((d) => d.label && d.player === p);
    if (!mine.length) return;
    const b = el("button", `Next mistake: ${seatName(result.game, p)}`,
                 { type: "button", "data-player": p, "data-focus": `next-mistake:${p}` });
    b.addEventListener("click", () => {
      const now = S.review.decision ? S.review.decision.ply : -1;
      pick(mine.find((d) => d.ply > now) || mine[0]);
    });
    box.append(b);
  });
  return box;
}

// The move list carrying the review: each move with its mark (?! ? ??) and the mover's expected
// result after it (through the move played, as the search valued it); the reviewed move lit.
function moveList(result, pick) {
  const list = el("ol", null, { class: "review-moves", "aria-label": "moves with the review" });
  for (const d of result.decisions) {
    const item = el("li", null, { "data-ply": d.ply });
    const b = el("button", `${d.ply + 1}. ${seatName(result.game, d.player)}: ` +
                           `${moveWords(result.game, d.move)}` +
                           (d.label ? ` ${MARKS[d.label]}` : ""),
                 { type: "button", class: `link ${d.label}`, "data-ply": d.ply,
                   "data-focus": `review-move:${d.ply}`, title: describe(d, result) });
    b.addEventListener("click", () => pick(d));
    item.append(b, el("span", percentOf(d.played_value, result.agents.length),
                      { class: "value", title: "the mover's expected result after the move" }));
    list.append(item);
  }
  const box = el("div", null, { class: "review-moves-box", tabindex: 0, role: "region",
                                "aria-label": "moves of the game, reviewed" });
  box.append(list);
  return box;
}

// Learn from your mistakes: one button per player with marked moves, once the review is done.
function retryButtons(result) {
  const box = el("p", null, { class: "row review-retry" });
  if (result.decisions.length < result.plies) return box;
  for (const s of result.summary || []) {
    const marked = s.inaccuracies + s.mistakes + s.blunders;
    if (!marked) continue;
    const b = el("button", `Learn from your mistakes: ${player(result, s.player)}, ` +
                           `${marked} position${marked > 1 ? "s" : ""}`,
                 { type: "button", "data-player": s.player });
    b.addEventListener("click", () => startRetry(s.player));
    box.append(b);
  }
  return box;
}

function markedList(result, pick) {
  const list = el("ul", null, { class: "review-marked", "aria-label": "marked moves" });
  for (const d of result.decisions.filter((d) => d.label)) {
    const b = el("button", describe(d, result), { type: "button", "data-ply": d.ply,
                                                  class: `link ${d.label}` });
    b.addEventListener("click", () => pick(d));
    list.appendChild(el("li")).appendChild(b);
  }
  return list;
}

// ----- the lesson on the board --------------------------------------------------------------
// The decision picked, on the board: S.review.decision, the step of its best line shown
// (0: the position before the move) and that position's frame from GET /api/position.
const showDecision = guarded(async (d, step = 0) => {
  const r = S.review;
  const line = bestLine(d);
  step = Math.max(0, Math.min(step, line.length));
  const query = new URLSearchParams({ game: r.result.game, position: d.position });
  for (const o of optionWords(r.title)) query.append("option", o);
  for (const m of line.slice(0, step)) query.append("then", m);
  const frame = await api("GET", `/api/position?${query}`);
  Object.assign(r, { decision: d, step, frame });
  r.onPick(d.ply);
  r.view?.mark(d.ply);
  render();
});

// A ring round a move's spot, named above it (below: `under`, for a second move on one spot).
function ring(overlay, spot, kind, text, under = false) {
  if (!spot) return;
  const [x, y] = spotAt(spot);
  const g = svgEl("g", { class: `review-mark ${kind}`, "aria-hidden": "true" });
  const label = svgEl("text", { x, y: y + (under ? 36 : -27), "text-anchor": "middle" }, text);
  g.append(svgEl("circle", { cx: x, cy: y, r: under ? 17 : 22 }), label);
  const layer = layerAt(overlay, spot);
  layer.appendChild(g);
  const width = layer.ownerSVGElement.viewBox.baseVal.width;  // the label kept on the picture
  const box = label.getBBox();
  const shift = Math.max(0, 2 - box.x) - Math.max(0, box.x + box.width - (width - 2));
  if (shift) label.setAttribute("x", x + shift);
}

// Two ring labels that would overlap (neighbouring cells) are moved apart: the best move's
// under its ring, else the played move's under and the best's above, else the best's higher.
function apart(overlay) {
  const texts = [...overlay.querySelectorAll(".review-mark text")];
  if (texts.length !== 2) return;
  const ys = texts.map((t) => Number(t.getAttribute("y")));
  const clash = () => {
    const [a, b] = texts.map((t) => t.getBBox());
    return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height &&
           b.y < a.y + a.height;
  };
  const at = (played, best) => {
    texts[0].setAttribute("y", ys[0] + played);
    texts[1].setAttribute("y", ys[1] + best);
  };
  for (const [played, best] of [[0, 0], [0, 63], [63, 0], [0, -20], [0, -40]]) {
    at(played, best);
    if (!clash()) return;
  }
}

// In Replay, while a lesson shows, the arrow keys step through the reviewed decisions: the
// lesson, the graph's cursor, the slider and the move list move together.
document.addEventListener("keydown", (event) => {
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  if (!step || !lessonShown() || S.tab !== "replay" || S.review.retry) return;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName)) return;
  const rows = S.review.result.decisions;
  const next = rows[rows.findIndex((d) => d.ply === S.review.decision.ply) + step];
  event.preventDefault();
  event.stopImmediatePropagation();
  if (next) showDecision(next, 0);
}, true);

// Called by render() once the open view has drawn its board: while the view shows the picked
// decision (Replay: its position; Play: the finished game reviewed), the board shows the lesson.
export function drawReviewed() {
  const r = S.review;
  if (retrying()) return drawRetry();
  renderLesson();
  if (!lessonShown()) return;
  const d = r.decision;
  const name = words(r.result.game).name;
  const { overlay } = drawBoard(r.frame.svg, `${name} board before move ${d.ply + 1}` +
                                (r.step ? `, after ${r.step} moves of the best line` : ""));
  if (S.tab === "replay") {  // the replay's list and label name the move reviewed, not only the last
    $(`events`).querySelector(`[data-focus="event:${d.ply + 1}"]`)?.parentNode
      .classList.add("reviewed");
    $("ply-label").textContent += `; the lesson: move ${d.ply + 1}, played from here`;
  }
  if (!overlay) return;
  boardOnly();
  evalBar(r.result.game, r.result.agents.map((_, p) => d[`value_${p}`]));
  if (r.step === 0) {
    const spot = (action) => r.frame.moves.find((m) => m.action === action)?.spot;
    if (d.action === d.best_action) ring(overlay, spot(d.action), "best", `played, best: ${d.move}`);
    else {
      const [played, best] = [spot(d.action), spot(d.best_action)];
      const shared = played && best && played[0] === best[0] && played[1] === best[1];
      ring(overlay, played, "played", `played: ${d.move}`);
      ring(overlay, best, "best", `best: ${d.best}`, shared);
      apart(overlay);
    }
  } else {
    r.frame.played.forEach((m, k) => ring(overlay, m.spot, k === r.step - 1 ? "line now" : "line",
                                          String(k + 1)));
  }
  showInFrame([...overlay.querySelectorAll(".review-mark circle")]  // a long track: the rings
    .map((c) => [Number(c.getAttribute("cx")), 0]));
}

// The lesson beside the board (#lesson): what was played and lost, the steps of the best line.
// While it shows, the page holds the board in view (html.lesson, board.css).
function lessonShown() {
  const r = S.review;
  if (!r.decision || !r.frame || r.for !== currentGameId()) return false;
  if (S.tab !== "replay") return true;
  const { frame, target } = S.replay;  // the replay stands at the decision (not moved on, arrived)
  return target === r.decision.ply && frame !== null && frame.ply === r.decision.ply;
}

function renderLesson() {
  const r = S.review;
  const box = $("lesson");
  const d = r.decision;
  const shown = lessonShown();
  box.hidden = !shown;
  document.documentElement.classList.toggle("lesson", shown);
  if (!shown) return box.replaceChildren();
  const line = bestLine(d);
  const text = el("p", `Move ${d.ply + 1} of ${r.result.plies}: ${player(r.result, d.player)} ` +
                       `played ${moveWords(r.result.game, d.move)}; the search's best: ` +
                       `${moveWords(r.result.game, d.best)}. ` +
                       (d.label ? `${cap(withArticle(d.label))}: ` : "") +
                       `${dropWords(d)} of its expected result.`,
                  { class: "review-lesson-text" });
  const steps = el("p", "Best line: ", { class: "review-line" });
  line.forEach((m, k) => {
    const b = el("button", `${k + 1}. ${moveWords(r.result.game, m)}`, { type: "button", class: "link",
                                                "data-focus": `lesson:line:${k}`,
                                                "aria-pressed": String(r.step === k + 1) });
    b.addEventListener("click", () => showDecision(d, k + 1));
    steps.append(b, " ");
  });
  if (line.length < (d.line ? d.line.split("; ").length : 0)) steps.append("… (chance next)");
  const nav = el("div", null, { class: "steps" });
  const go = (text, step, disabled) => {
    const b = el("button", text, { type: "button", "data-focus": `lesson:${text}` });
    b.disabled = disabled;
    b.addEventListener("click", () => showDecision(d, step));
    return b;
  };
  nav.append(go("Before the move", 0, r.step === 0),
             go("Best line: back", r.step - 1, r.step === 0),
             go("Best line: next move", r.step + 1, r.step >= line.length));
  const leave = el("button", "Back to the game", { type: "button", "data-focus": "lesson:leave" });
  leave.addEventListener("click", () => {
    Object.assign(r, { decision: null, frame: null, step: 0 });
    r.view?.mark(null);
    render();
  });
  nav.append(leave);
  box.replaceChildren(text, nav, steps);
}

const cap = (text) => text[0].toUpperCase() + text.slice(1);

// A whole review is kept with its game (the server's save folder): its key joins the page's
// address, which opens it again; a link says so.
function keep(key, text) {
  S.review.kept = key;
  render();
  text.append(" ", el("a", "Link to this review", { href: location.hash, class: "review-link" }));
}

// Scrolled to where it shows, if it is out of sight (a review opened from below or above).
function inView(node) {
  const box = node.getBoundingClientRect();
  if (box.top < 0 || box.top > innerHeight - 80) node.scrollIntoView({ block: "start" });
}

// ----- running a review on the server ---------------------------------------------------
let current = null;  // the review being drawn; a new one cancels it

function progressWords(status) {
  const done = `${status.reviewed} of ${status.of ?? "?"} decisions reviewed`;
  if (status.error) return `review failed: ${status.error}`;
  if (status.cancelled) return `cancelled: ${done}`;
  if (!status.done) return `${done}…`;
  const marked = status.result ? status.result.decisions.filter((d) => d.label).length : 0;
  return `${done} by ${status.result?.agent ?? "the agent"}; ${marked} marked`;
}

// The agent and its simulations a decision, chosen on the page: "az:baseline" and 400 make
// "az:baseline,sims=400", "mcts" and 100 "mcts:sims=100".
function withBudget(agent, sims) {
  const spec = agent.trim().replace(/(^|[:,])sims=\d+/, "").replace(/[:,]$/, "");
  return spec.includes(":") ? `${spec},sims=${sims}` : `${spec}:sims=${sims}`;
}

// The review's settings; with no agent asked for, the server picks the game's reviewer and
// the form shows it once the first result names it (form.show).
function settings(request, rerun) {
  const form = el("form", null, { class: "review-settings row" });
  const agent = el("input", null, { list: "agent-list", "aria-label": "review agent" });
  const sims = el("select", null, { "aria-label": "simulations a decision" });
  sims.append(...BUDGETS.map((n) => el("option", `${n} simulations`, { value: n })));
  form.show = (spec) => {
    agent.value = spec.replace(/sims=\d+,?/, "").replace(/[:,]$/, "");  // "mcts:c=1.4", "az:baseline"
    const asked = /sims=(\d+)/.exec(spec);
    sims.value = asked && BUDGETS.includes(Number(asked[1])) ? asked[1] : String(BUDGETS[0]);
  };
  form.show(request.agent || "az:baseline");
  const agentLabel = el("label", "Agent ");
  agentLabel.append(agent);
  const simsLabel = el("label", "Budget ");
  simsLabel.append(sims);
  form.append(agentLabel, simsLabel, el("button", "Review again", { type: "submit" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    rerun(withBudget(agent.value, sims.value));
  });
  return form;
}

const FIELDS = ["file", "game", "table", "agent", "threshold", "seed", "kept"];  // of POST /api/reviews

export async function savannaReview(request) {
  const container = $("review");
  if (current) current.stop();
  const run = {
    stopped: false, id: null,
    stop() {
      this.stopped = true;
      if (this.id) api("DELETE", `/api/reviews/${this.id}`, undefined, { quiet: true }).catch(() => {});
    },
  };
  current = run;
  Object.assign(S.review, { for: container.dataset.for || currentGameId(), id: null,
                            title: request.title || "", result: null, decision: null,
                            frame: null, step: 0, view: null, retry: null, kept: null,
                            onPick: request.onPick || (() => {}) });
  container.dataset.for = S.review.for;  // the page keeps it while it shows that game
  container.hidden = false;
  const text = el("p", "starting the review…", { class: "review-status", role: "status" });
  const bar = el("progress", null, { max: 1, value: 0, "aria-label": "review progress" });
  const cancel = el("button", "Cancel review", { type: "button" });
  const graph = el("div", null, { class: "review-graph-box" });
  const again = settings(request, (agent) => window.savannaReview({ ...request, agent }));
  container.replaceChildren(again, text, bar, cancel, graph);
  render();  // no lesson yet
  inView(container);
  cancel.addEventListener("click", () => api("DELETE", `/api/reviews/${run.id}`, undefined,
                                             { quiet: true }).catch(() => {}));
  const body = Object.fromEntries(FIELDS.filter((k) => request[k] !== undefined)
    .map((k) => [k, request[k]]));
  let status;
  try {
    status = await api("POST", "/api/reviews", body, { key: request.key, quiet: true });
    run.id = status.id;
    S.review.id = status.id;
    let drawn = -1;
    for (;;) {
      if (run.stopped) return status;
      if (status.result && status.reviewed !== drawn) {
        if (drawn < 0 && !request.agent) again.show(status.result.agent);
        S.review.result = status.result;
        S.review.view = drawReview(graph, status.result, (d) => showDecision(d, 0));
        S.review.view.mark(S.review.decision?.ply ?? null);
        drawn = status.reviewed;
      }
      text.textContent = progressWords(status);
      bar.max = status.of || 1;
      bar.value = status.reviewed;
      if (status.done) {
        if (status.kept && current === run) keep(status.kept, text);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      status = await api("GET", `/api/reviews/${run.id}`, undefined, { quiet: true });
    }
  } catch (err) {
    if (current === run) text.textContent = `review failed: ${err.message}`;
    return null;
  } finally {
    bar.hidden = cancel.hidden = true;
  }
  return status;
}

window.savannaReview = savannaReview;
