// The board: the server's SVG with one overlay layer on top, the spots of the moves, the
// last-move marker, the focus kept across a redraw, and the position under the board.
import { $, svgEl } from "./shared.js";
import { expectedShare, optionWords, seatName, SEAT_COLOURS } from "./words.js";

// On a phone (NARROW) the picture is laid out for the screen: its panels of text (hands, scores,
// legend: its groups of class "panel") are moved under the board, one under another, into a
// picture of their own as wide as the screen (#board-panel), so that the board takes the
// screen's width and drawing it wider for its targets never cuts them; a picture with a
// data-min-scale is drawn at least that large; and every text ends up 11 CSS px or more
// (readable(), once the view has drawn).
const NARROW = window.matchMedia("(max-width: 760px)");
const LEAST_PX = 11;
const ROOM = 24;  // picture units kept round the board, for the rings drawn over its spots
let moved = [];  // the panels under the board: {box: [x, y, w, h] in the picture, dx, dy}

// The picture, then one layer on top (class "overlay"); returns the overlay and the scale
// (screen pixels per picture unit) so that targets are at least 32 px wide on any screen.
export function drawBoard(svgText, label, state) {
  const board = $("board");
  const left = board.scrollLeft;  // where a board wider than its frame was scrolled to
  board.innerHTML = svgText || "";
  board.classList.remove("roomy");
  board.tabIndex = -1;
  board.dataset.state = state === undefined ? "" : String(state);
  const svg = board.querySelector("svg");
  $("board-help").hidden = Boolean(svg);
  panelsUnder(svg);
  if (!svg) return { overlay: null, scale: 1 };
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", label || "board");
  const overlay = svgEl("g", { class: "overlay" });
  svg.appendChild(overlay);
  const least = NARROW.matches ? Number(svg.dataset.minScale) || 0 : 0;
  const scale = widen(least, screenScale(svg));
  board.scrollLeft = left;
  return { overlay, scale };
}

function screenScale(svg) {
  const width = svg.viewBox.baseVal && svg.viewBox.baseVal.width;
  return (width ? svg.getBoundingClientRect().width / width : 1) || 1;
}

// On a phone, the picture's panels are moved into #board-panel's picture, one under another
// in their order, and the board's picture is cut to what remains: the board.
function panelsUnder(svg) {
  const holder = $("board-panel");
  holder.replaceChildren();
  holder.hidden = true;
  moved = [];
  const groups = svg && NARROW.matches ? [...svg.querySelectorAll(":scope > g.panel")] : [];
  if (!groups.length) return;
  const first = svg.firstElementChild;  // the picture's paper: a rect at 0, 0 drawn first
  const paper = first?.tagName === "rect" && !first.hasAttribute("x") ? first : null;
  const under = svgEl("svg", { "font-family": svg.getAttribute("font-family"), role: "group",
                               "aria-label": "scores and legend" });
  const ground = svgEl("rect", { fill: paper ? paper.getAttribute("fill") : "#fff" });
  under.append(ground);
  holder.append(under);
  holder.hidden = false;
  let y = 6, width = 0;  // a margin above the first
  for (const g of groups) {
    const [x0, y0, w, h] = g.dataset.box.split(" ").map(Number);
    g.removeAttribute("transform");
    under.append(g);
    const b = g.getBBox();  // where its shapes lie, in its own units
    const dx = -b.x, dy = y - b.y;
    g.setAttribute("transform", `translate(${dx} ${dy})`);
    moved.push({ box: [x0, y0, w, h], dx: dx - x0, dy: dy - y0 });
    y += b.height + 8;
    width = Math.max(width, b.width);
  }
  under.appendChild(svgEl("g", { class: "overlay" }));
  ground.setAttribute("width", width);
  ground.setAttribute("height", y);
  under.setAttribute("viewBox", `0 0 ${width} ${y}`);
  const rest = [...svg.children].filter((c) => c !== paper).map((c) => c.getBBox());
  if (!rest.length) return;
  const top = Math.max(0, Math.min(...rest.map((b) => b.y)) - ROOM);
  const right = Math.max(...rest.map((b) => b.x + b.width)) + ROOM;
  const bottom = Math.max(...rest.map((b) => b.y + b.height)) + ROOM;
  svg.setAttribute("viewBox", `0 ${top} ${right} ${bottom - top}`);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
}

// The panel a spot of the picture lies in, once moved under the board (Bonobo's pile), or null.
function movedPanel([x, y]) {
  return moved.find(({ box: [x0, y0, w, h] }) => x >= x0 && x <= x0 + w && y >= y0 &&
                    y <= y0 + h) || null;
}

export function spotAt(spot) {
  const panel = movedPanel(spot);
  return panel ? [spot[0] + panel.dx, spot[1] + panel.dy] : spot;
}

// Where to draw a mark at `spot`: the board's overlay, or the overlay of the panels under the
// board when the spot lies in one of them.
export function layerAt(overlay, spot) {
  return spot && movedPanel(spot) ? $("board-panel").querySelector(".overlay") : overlay;
}

// The board alone, its panels under it left out (a phone's lesson: the board must fit beside
// the lesson); spots of the panels are then nowhere.
export function boardOnly() {
  if (moved.length) $("board-panel").hidden = true;
}

// Targets 32 px wide or more never overlap: a board whose closest spots lie nearer on the
// screen (Banjooli's long track on a phone) is drawn wider, scrolls sideways in its frame and
// shows the spots' middle; returns the scale it is drawn at.
export function roomForTargets(points, scale) {
  let near = Infinity;
  points.forEach(([x1, y1], i) => points.slice(i + 1).forEach(([x2, y2]) => {
    near = Math.min(near, Math.hypot(x1 - x2, y1 - y2));
  }));
  const middle = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  return widen(36 / near, scale, middle);
}

// The board drawn at `need` screen pixels per unit if it is drawn smaller (`scale`): wider
// than its frame, which scrolls sideways (to show x = `middle`, if given); returns the scale
// drawn at.
function widen(need, scale, middle) {
  if (!(scale < need)) return scale;
  const board = $("board");
  const svg = board.querySelector("svg");
  svg.style.width = `${svg.getBoundingClientRect().width * need / scale}px`;
  board.classList.add("roomy");
  board.tabIndex = 0;  // a frame that scrolls: reached by Tab, scrolled by the arrow keys
  if (middle !== undefined) board.scrollLeft = middle * need - board.clientWidth / 2;
  return need;
}

// A board wider than its frame scrolled to show the spots `points` (the review's rings), if
// they are not all in view.
export function showInFrame(points) {
  const board = $("board");
  const svg = board.querySelector("svg");
  if (!svg || !board.classList.contains("roomy") || !points.length) return;
  const scale = screenScale(svg);
  const xs = points.map(([x]) => x * scale);
  const [low, high] = [Math.min(...xs), Math.max(...xs)];
  if (low >= board.scrollLeft && high <= board.scrollLeft + board.clientWidth) return;
  board.scrollLeft = (low + high) / 2 - board.clientWidth / 2;
}

// On a phone, once the view has drawn: every text of the picture and of its marks 11 CSS px or
// more on the screen; a label (a cell's name) that would be smaller is left out, with its ground.
export function readable() {
  if (!NARROW.matches) return;
  for (const text of document.querySelectorAll("#board svg text, #board-panel svg text")) {
    const ctm = text.getScreenCTM();
    if (!ctm || !ctm.a) continue;
    const px = parseFloat(getComputedStyle(text).fontSize) * ctm.a;
    if (px >= LEAST_PX) continue;
    if (text.classList.contains("label")) {
      text.setAttribute("display", "none");
      const ground = text.previousElementSibling;
      if (ground?.classList.contains("label")) ground.setAttribute("display", "none");
    } else {
      text.style.fontSize = `${(LEAST_PX + 0.1) / ctm.a}px`;
    }
  }
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
  layerAt(overlay, spot).appendChild(svgEl("circle", { cx: x, cy: y, r: 24, class: "last-move",
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
