// A game review on the page: each player's value at every decision as a line graph, the mover's
// mistakes marked, a click (or Enter) on a decision jumps there. The figures come from
// POST /api/reviews (experiments/board/reviews.py), the same as `savanna review`'s CSV.
//
//   drawReview(container, review, onPick, names)
//       draws one review result (GET /api/reviews/{id}'s "result"); onPick(ply) on a click;
//       names: the seats as the board names them (default "seat 0", ...); returns
//       { mark(ply) }, which shows the ply on view
//   window.savannaReview(request)  (the page calls it there, where a test may stand in)
//       runs a review and draws it as it comes: request holds what to review ({file, game} or
//       {table, key}) and may hold agent, threshold, seed, container (default #review), onPick
//       and names; resolves to the last status (null on an error, shown in the container)
//   window.savannaReview.mark(ply)
//       shows the ply on view in the latest graph
import { api, el, svgEl } from "./shared.js";

const COLOURS = ["#c0392b", "#2e7d32", "#1f5fa8", "#a0700b", "#7b3fa0"];
const H = 200;  // the width is the container's, so that the text keeps its size on a phone
const PAD = { left: 38, right: 10, top: 10, bottom: 24 };
const POLL_MS = 300;
const STYLE = ".point:focus-visible, .hit:focus-visible { outline: 3px solid #f80; }"
  + " .hit { fill: transparent; cursor: pointer; } .hit:hover { fill: rgba(255, 204, 102, 0.35); }";

function seatName(review, names, p) {
  return `${names?.[p] ?? `seat ${p}`} (${review.agents[p]})`;
}

function describe(d, review, names) {
  const seat = seatName(review, names, d.player);
  const lost = d.loss === null ? "the search never tried it" : `lost ${d.loss.toFixed(3)}`;
  return `ply ${d.ply}: ${seat} played ${d.move}, best ${d.best}, ${lost}`;
}

function drawReview(container, review, onPick, names) {
  container.replaceChildren();
  const W = Math.max(container.clientWidth, 300);
  const rows = review.decisions;
  const players = review.agents.length;
  const values = rows.flatMap((d) => Array.from({ length: players }, (_, p) => d[`value_${p}`]));
  const lo = Math.min(-1, ...values), hi = Math.max(1, ...values);
  const span = Math.max(review.plies - 1, 1);
  const width = W - PAD.left - PAD.right, height = H - PAD.top - PAD.bottom;
  const x = (ply) => PAD.left + (ply / span) * width;
  const y = (v) => PAD.top + ((hi - v) / (hi - lo)) * height;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", class: "review-graph",
                             role: "group",
                             "aria-label": "each player's value at every decision" });
  svg.appendChild(svgEl("style", {}, STYLE));
  for (const v of [lo, 0, hi]) {
    svg.appendChild(svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v),
                                    stroke: v === 0 ? "#888" : "#ddd" }));
    svg.appendChild(svgEl("text", { x: PAD.left - 4, y: y(v) + 4, "text-anchor": "end",
                                    "font-size": 11 }, v === 0 ? "0" : v.toFixed(1)));
  }
  svg.appendChild(svgEl("text", { x: PAD.left, y: H - 6, "font-size": 11 }, "ply 0"));
  svg.appendChild(svgEl("text", { x: W - PAD.right, y: H - 6, "font-size": 11,
                                  "text-anchor": "end" }, `ply ${review.plies - 1}`));
  const cursor = svgEl("line", { class: "cursor", y1: PAD.top, y2: PAD.top + height,
                                 stroke: "#f80", "stroke-width": 2, visibility: "hidden" });
  svg.appendChild(cursor);
  for (let p = 0; p < players; p++) {
    svg.appendChild(svgEl("polyline", {
      class: "value-line", "data-player": p, fill: "none", stroke: COLOURS[p % COLOURS.length],
      "stroke-width": 1.5, points: rows.map((d) => `${x(d.ply)},${y(d[`value_${p}`])}`).join(" "),
    }));
  }
  const column = width / span;
  const view = {
    mark(ply) {
      const shown = Number.isInteger(ply) && ply >= 0 && ply < review.plies;
      cursor.setAttribute("visibility", shown ? "visible" : "hidden");
      if (shown) {
        cursor.setAttribute("x1", x(ply));
        cursor.setAttribute("x2", x(ply));
      }
    },
  };
  for (const d of rows) {  // one point per decision, on the mover's line
    const label = describe(d, review, names);
    const hit = svgEl("rect", { class: "hit", x: x(d.ply) - column / 2, y: PAD.top,
                                width: column, height, "data-ply": d.ply });
    hit.appendChild(svgEl("title", {}, label));
    const point = svgEl("circle", {
      class: d.mistake ? "point mistake" : "point", "data-ply": d.ply, cx: x(d.ply),
      cy: y(d[`value_${d.player}`]), r: d.mistake ? 5 : 2.5, tabindex: 0, role: "button",
      "aria-label": label, fill: d.mistake ? "#fff" : COLOURS[d.player % COLOURS.length],
      stroke: d.mistake ? "#d00" : "none", "stroke-width": 2.5,
    });
    point.appendChild(svgEl("title", {}, label));
    const pick = () => {
      view.mark(d.ply);
      onPick(d.ply);
    };
    for (const node of [hit, point]) node.addEventListener("click", pick);
    point.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pick();
      }
    });
    svg.append(hit, point);
  }
  container.append(svg, legend(review, players, names),
                   mistakeList(review, (ply) => { view.mark(ply); onPick(ply); }, names));
  return view;
}

function legend(review, players, names) {
  const line = el("p", `Value by ${review.agent}: `, { class: "review-legend" });
  for (let p = 0; p < players; p++) {
    const swatch = el("span", "\u25A0 ", { style: `color: ${COLOURS[p % COLOURS.length]}` });
    line.append(swatch, `${seatName(review, names, p)}; `);
  }
  line.append(`ringed: the mover lost more than ${review.threshold}.`);
  return line;
}

function mistakeList(review, onPick, names) {
  const mistakes = review.decisions.filter((d) => d.mistake);
  const list = el("ul", null, { class: "review-mistakes", "aria-label": "mistakes",
                                style: "list-style: none; padding: 0; margin: 0" });
  for (const d of mistakes) {
    const button = el("button", describe(d, review, names), { type: "button", "data-ply": d.ply,
                                                              style: "margin: 2px 0; text-align: left" });
    button.addEventListener("click", () => onPick(d.ply));
    list.appendChild(el("li")).appendChild(button);
  }
  return list;
}

// ----- running a review on the server ---------------------------------------------------
let current = null;  // the review being drawn; a new one cancels it

function summary(status) {
  const done = `${status.reviewed} of ${status.of ?? "?"} decisions reviewed`;
  if (status.error) return `review failed: ${status.error}`;
  if (status.cancelled) return `cancelled: ${done}`;
  if (!status.done) return `${done}…`;
  const mistakes = status.result ? status.result.decisions.filter((d) => d.mistake).length : 0;
  return `${done} by ${status.result?.agent ?? "the agent"}; ${mistakes} mistake${mistakes === 1 ? "" : "s"}`;
}

const FIELDS = ["file", "game", "table", "agent", "threshold", "seed"];  // of POST /api/reviews

export async function savannaReview(request) {
  const container = request.container || document.getElementById("review");
  const onPick = request.onPick || (() => {});
  if (current) current.stop();
  const run = {
    stopped: false, id: null,
    stop() {
      this.stopped = true;
      if (this.id) api("DELETE", `/api/reviews/${this.id}`, undefined, { quiet: true }).catch(() => {});
    },
  };
  current = run;
  container.hidden = false;
  const text = el("p", "starting the review…", { class: "review-status", role: "status" });
  const bar = el("progress", null, { max: 1, value: 0, "aria-label": "review progress" });
  const cancel = el("button", "Cancel review", { type: "button" });
  const graph = el("div", null, { class: "review-graph-box" });
  container.replaceChildren(text, bar, cancel, graph);
  cancel.addEventListener("click", () => api("DELETE", `/api/reviews/${run.id}`, undefined, { quiet: true }).catch(() => {}));
  const body = Object.fromEntries(FIELDS.filter((k) => request[k] !== undefined)
    .map((k) => [k, request[k]]));
  let status;
  try {
    status = await api("POST", "/api/reviews", body, { key: request.key, quiet: true });
    run.id = status.id;
    let drawn = -1;
    for (;;) {
      if (run.stopped) return status;
      if (status.result && status.reviewed !== drawn) {
        const view = drawReview(graph, status.result, onPick, request.names);
        run.mark = view.mark;
        drawn = status.reviewed;
      }
      text.textContent = summary(status);
      bar.max = status.of || 1;
      bar.value = status.reviewed;
      if (status.done) break;
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

savannaReview.mark = (ply) => current?.mark?.(ply);  // show the ply the board is on
window.savannaReview = savannaReview;
