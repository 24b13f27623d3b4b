// The board: the server's SVG with one overlay layer on top, the spots of the moves, the
// last-move marker, the focus kept across a redraw, and the position under the board.
import { $, svgEl } from "./shared.js";
import { expectedShare, optionWords, seatName, SEAT_COLOURS } from "./words.js";

// The picture, then one layer on top (class "overlay"); returns the overlay and the scale
// (screen pixels per picture unit) so that targets are at least 32 px wide on any screen.
export function drawBoard(svgText, label, state) {
  const board = $("board");
  board.innerHTML = svgText || "";
  board.classList.remove("roomy");
  board.dataset.state = state === undefined ? "" : String(state);
  const svg = board.querySelector("svg");
  $("board-help").hidden = Boolean(svg);
  if (!svg) return { overlay: null, scale: 1 };
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", label || "board");
  stackPanel(svg);
  const overlay = svgEl("g", { class: "overlay" });
  svg.appendChild(overlay);
  const width = svg.viewBox.baseVal && svg.viewBox.baseVal.width;
  const scale = width ? svg.getBoundingClientRect().width / width : 1;
  return { overlay, scale: scale || 1 };
}

// On a phone the picture's side panel of text (data-panel: the x where it starts) is laid under
// the board, as wide as the board, so that the board takes the screen's width and its targets
// room; spotAt() maps a spot of the picture to where it is drawn (a spot of the panel, such as
// Bonobo's pile, moves with it).
const NARROW = window.matchMedia("(max-width: 760px)");
let stacked = null;  // {panel, height, zoom} while the panel is under the board

function stackPanel(svg) {
  stacked = null;
  const panel = Number(svg.dataset.panel);
  if (!NARROW.matches || !panel) return;
  const { width, height } = svg.viewBox.baseVal;
  const zoom = panel / (width - panel);
  const under = svgEl("g", { class: "side-panel",
                             transform: `translate(0 ${height}) scale(${zoom}) translate(${-panel} 0)` });
  const background = svg.querySelector("rect");  // the picture's first shape: its paper
  under.appendChild(svgEl("rect", { x: panel, y: 0, width: width - panel, height,
                                    fill: background ? background.getAttribute("fill") : "#fff" }));
  for (const node of [...svg.children]) {
    const x = node.getAttribute("x") ?? node.getAttribute("cx") ??
              (node.getAttribute("points") || "").split(",")[0];
    if (x !== null && x !== "" && Number(x) >= panel) under.appendChild(node);
  }
  svg.appendChild(under);
  const box = under.getBBox();  // in the panel's own units: where its text ends
  svg.setAttribute("viewBox", `0 0 ${panel} ${height + zoom * (box.y + box.height + 8)}`);
  svg.removeAttribute("height");
  svg.removeAttribute("width");
  stacked = { panel, height, zoom };
}

// The board alone, its panel under it left out (a phone's lesson: the board must fit beside
// the lesson); spots of the panel are then nowhere.
export function boardOnly() {
  const svg = $("board").querySelector("svg");
  if (!stacked || !svg) return;
  svg.querySelector(".side-panel")?.setAttribute("display", "none");
  svg.setAttribute("viewBox", `0 0 ${stacked.panel} ${stacked.height}`);
}

export function spotAt(spot) {
  const [x, y] = spot;
  if (!stacked || x < stacked.panel) return [x, y];
  return [(x - stacked.panel) * stacked.zoom, stacked.height + y * stacked.zoom];
}

// Targets 32 px wide or more never overlap: a board whose closest spots lie nearer on the
// screen (Banjooli's long track on a phone) is drawn wider, scrolls sideways in its frame and
// shows the spots' middle; returns the scale it is drawn at.
export function roomForTargets(points, scale) {
  let near = Infinity;
  points.forEach(([x1, y1], i) => points.slice(i + 1).forEach(([x2, y2]) => {
    near = Math.min(near, Math.hypot(x1 - x2, y1 - y2));
  }));
  const need = 36 / near;
  if (!(scale < need)) return scale;
  const board = $("board");
  const svg = board.querySelector("svg");
  svg.style.width = `${svg.getBoundingClientRect().width * need / scale}px`;
  board.classList.add("roomy");
  const middle = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  board.scrollLeft = middle * need - board.clientWidth / 2;
  return need;
}

export function spotKey(spot) { return spot[0].toFixed(1) + "," + spot[1].toFixed(1); }

export function groupBySpot(moves) {
  const groups = new Map();
  for (const m of moves) {
    if (!m.spot) continue;
    const key = spotKey(m.spot);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  return groups;
}

export function markLastMove(overlay, spot) {
  if (!overlay || !spot) return;
  const [x, y] = spotAt(spot);
  overlay.appendChild(svgEl("circle", { cx: x, cy: y, r: 24, class: "last-move",
                                        "aria-hidden": "true" }));
}

// The focus survives a redraw: the element with the same data-focus (a move, a spot),
// else the first of its kind, else the board.
// The focus kept while the board has nothing to take it (an agent to move): the next
// position's first target takes it back.
let waiting = null;

export function focusKey() {
  const a = document.activeElement;
  const key = a && a.dataset ? a.dataset.focus || null : null;
  return key || (a === $("board") ? waiting : null);
}

export function restoreFocus(key) {
  if (!key) return;
  const shown = (selector) => [...document.querySelectorAll(selector)]  // not in a closed list
    .find((e) => e.checkVisibility());
  const kind = key.split(":")[0];
  const found = shown(`[data-focus="${CSS.escape(key)}"]`) || shown(`[data-focus^="${kind}:"]`) ||
                shown("[data-focus^='spot:'], [data-focus^='move:']");
  waiting = found ? null : key;
  (found || $("board")).focus();
}

export function positionLink(game, title, position) {
  const link = $("position-link");
  link.hidden = !position;
  if (!position) return;
  const options = optionWords(title);
  link.href = `#analyse/${encodeURIComponent(game)}/${encodeURIComponent(options.join(" "))}/` +
              encodeURIComponent(position);
}

export function showPosition(text) {
  $("position-box").hidden = !text;
  $("position-text").textContent = text || "";
}

// The spot of the last decision among the first `n` events of a record (none: a chance
// outcome or a move with no place).
export function lastSpot(marked, n) {
  if (!marked) return null;
  for (let k = Math.min(n, marked.record.moves.length) - 1; k >= 0; k--) {
    if ("action" in marked.record.moves[k]) return marked.spots[k];
  }
  return null;
}


// The evaluation bar beside the board: each player's expected result at `values` (mean returns),
// stacked from the bottom, the first seat first, on the review graph's scale (0-100%).
export function evalBar(game, values) {
  const bar = $("eval-bar");
  const shares = values.map((v) => expectedShare(v ?? 0, values.length));
  const total = shares.reduce((a, b) => a + b, 0) || 1;
  bar.replaceChildren(...shares.map((share, p) => {
    const part = document.createElement("span");
    part.style.flexBasis = `${(100 * share) / total}%`;
    part.style.background = SEAT_COLOURS[p % SEAT_COLOURS.length];
    part.dataset.player = p;
    if (share / total >= 0.15) part.textContent = `${(100 * share).toFixed(0)}`;
    return part;
  }));
  bar.setAttribute("aria-label", "expected results: " + shares.map((share, p) =>
    `${seatName(game, p)} ${(100 * share).toFixed(0)}%`).join(", "));
  bar.hidden = false;
  const svg = $("board").querySelector("svg");  // as tall as the picture drawn
  bar.style.height = svg ? `${svg.getBoundingClientRect().height}px` : "";
}
