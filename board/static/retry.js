// Learn from your mistakes: a reviewed game's marked moves of one player, each a position to
// retry (lichess's "learn from your mistakes", Chess.com's retry). A move as good as the search's
// best, within the review's inaccuracy margin, passes; a worse one is refused with what it loses,
// and one may try again or see the answer; what chance dealt before the position is said; the
// score comes at the end. The puzzles are GET /api/reviews/{id}/puzzles?player=P, the same as
// savanna.agents.puzzles() in Python.
//
//   startRetry(player)   fetch that player's puzzles and show the first
//   drawRetry()          called by the review's overlay while a retry runs: the position on the
//                        board, its moves to click, the verdict and the controls in #lesson
import { currentGameId, render } from "./core.js";
import { drawBoard, groupBySpot, layerAt, roomForTargets, spotAt, spotKey } from "./drawing.js";
import { $, api, el, guarded, S, svgEl } from "./shared.js";
import { moveWords, optionWords, seatName, withArticle, words } from "./words.js";

const points = (drop) => `${(100 * drop).toFixed(1)} points`;

export const startRetry = guarded(async (player) => {
  const r = S.review;
  const { puzzles } = await api("GET", `/api/reviews/${r.id}/puzzles?player=${player}`);
  r.retry = { player, puzzles, index: 0, frame: null, tried: [], verdict: null, done: false,
              firstTry: [], picked: null };
  Object.assign(r, { decision: null, frame: null, step: 0 });
  r.view?.mark(null);
  await showPuzzle(0);
});

const showPuzzle = guarded(async (index) => {
  const t = S.review.retry;
  const puzzle = t.puzzles[index];
  if (!puzzle) {
    t.done = true;
    return render();
  }
  const query = new URLSearchParams({ game: S.review.result.game, position: puzzle.position });
  for (const o of optionWords(S.review.title)) query.append("option", o);
  const frame = await api("GET", `/api/position?${query}`);
  Object.assign(t, { index, frame, tried: [], verdict: null, picked: null });
  S.review.view?.mark(puzzle.ply);
  render();
});

function answer(action) {
  const t = S.review.retry;
  const puzzle = t.puzzles[t.index];
  if (t.verdict && t.verdict.kind !== "wrong") return;
  const move = puzzle.moves.find((m) => m.action === action);
  if (move.passes) {
    if (t.tried.length === 0) t.firstTry[t.index] = true;
    t.verdict = { kind: "passed", move };
  } else {
    t.tried.push(action);
    t.verdict = { kind: "wrong", move };
  }
  t.picked = null;
  render();
}

function showAnswer() {
  const t = S.review.retry;
  t.verdict = { kind: "shown", move: t.puzzles[t.index].moves.find((m) => m.passes) };
  render();
}

function leave() {
  S.review.retry = null;
  S.review.view?.mark(null);
  render();
}

function verdictWords(puzzle, verdict) {
  const name = (text) => moveWords(S.review.result.game, text);
  const m = { ...verdict.move, move: name(verdict.move.move) };
  puzzle = { ...puzzle, best: name(puzzle.best) };
  if (verdict.kind === "passed") {
    return m.action === puzzle.best_action ? `Yes: ${m.move} is the search's best move.`
      : `Yes: ${m.move} is as good as the best (${puzzle.best}), within ` +
        `${points(puzzle.threshold)}.`;
  }
  if (verdict.kind === "shown") return `The answer: ${puzzle.best} (the search's best).`;
  return m.drop === null ? `Not that one: the search never tried ${m.move}. Try again.`
    : `Not that one: ${m.move} loses ${points(m.drop)} against the best. Try again.`;
}

function score(t) {
  const first = t.firstTry.filter(Boolean).length;
  return `Score: ${first} of ${t.puzzles.length} found at the first try.`;
}

export function drawRetry() {
  const r = S.review;
  const t = r.retry;
  const box = $("lesson");
  box.hidden = false;
  document.documentElement.classList.add("lesson");
  const who = seatName(r.result.game, t.player);
  const head = el("h3", `Learn from your mistakes: ${who}`);
  const quit = el("button", "Back to the review", { type: "button", "data-focus": "retry:leave" });
  quit.addEventListener("click", leave);
  if (t.done || !t.puzzles.length) {
    box.replaceChildren(head, el("p", t.puzzles.length ? `Done. ${score(t)}`
      : `${who} made no marked move in this game: nothing to retry.`,
                                 { class: "retry-score" }), quit);
    return;
  }
  const puzzle = t.puzzles[t.index];
  const name = words(r.result.game).name;
  const { overlay, scale } = drawBoard(t.frame.svg, `${name} board, puzzle ${t.index + 1}: ` +
                                       `before move ${puzzle.ply + 1}`);
  const settled = t.verdict && t.verdict.kind !== "wrong";
  if (overlay && !settled) hotSpots(overlay, scale, puzzle);
  if (overlay && settled) {
    const spot = t.frame.moves.find((m) => m.action === t.verdict.move.action)?.spot;
    if (spot) {
      const [x, y] = spotAt(spot);
      layerAt(overlay, spot).appendChild(svgEl("circle", { cx: x, cy: y, r: 22,
        class: "retry-answer", "aria-hidden": "true" }));
    }
  }
  const dealt = puzzle.dealt.length ? ` ${words(r.result.game).chance[0].toUpperCase()}` +
    `${words(r.result.game).chance.slice(1)}: ${puzzle.dealt.join(", ")}.` : "";
  const played = moveWords(r.result.game, puzzle.played);
  const ask = el("p", `Position ${t.index + 1} of ${t.puzzles.length}: move ${puzzle.ply + 1}, ` +
                      `${who} to play.${dealt} In the game: ${played} ` +
                      `(${withArticle(puzzle.label)}). Find a better move.`,
                 { class: "retry-question" });
  const verdict = el("p", t.verdict ? verdictWords(puzzle, t.verdict) : "", {
    class: `retry-verdict ${t.verdict ? t.verdict.kind : ""}`, role: "status" });
  const controls = el("div", null, { class: "steps" });
  const go = (text, fn, disabled = false) => {
    const b = el("button", text, { type: "button", "data-focus": `retry:${text}` });
    b.disabled = disabled;
    b.addEventListener("click", guarded(fn));
    return b;
  };
  controls.append(go("Show the answer", showAnswer, settled),
                  go(t.index + 1 < t.puzzles.length ? "Next position" : "See the score",
                     () => showPuzzle(t.index + 1), !settled),
                  quit);
  box.replaceChildren(head, controls, ask, verdict, moveList(puzzle, t, settled),
                      el("p", score(t), { class: "retry-score" }));
}

// The moves to pick from, in the game's order (never the search's: that would tell): the board's
// spots, and every move as a button (those of a spot picked on the board first).
function moveList(puzzle, t, settled) {
  const order = [...puzzle.moves].sort((a, b) => a.action - b.action);
  const spotted = new Set(t.frame.moves.filter((m) => m.spot).map((m) => m.action));
  const buttons = (moves) => {
    const box = el("div", null, { class: "retry-moves row" });
    for (const m of moves) {
      const b = el("button", moveWords(S.review.result.game, m.move),
                   { type: "button", "data-action": m.action,
                                       "data-focus": `retry-move:${m.action}` });
      b.disabled = settled || t.tried.includes(m.action);
      b.addEventListener("click", () => answer(m.action));
      box.append(b);
    }
    return box;
  };
  const picked = t.picked ? order.filter((m) => t.picked.includes(m.action)) : [];
  const unspotted = order.filter((m) => !spotted.has(m.action));
  const all = el("details", null, { class: "retry-all" });
  all.append(el("summary", `All ${order.length} moves`), buttons(order));
  const out = el("div");
  if (picked.length) out.append(el("p", "Which one?"), buttons(picked));
  if (unspotted.length) out.append(buttons(unspotted));
  out.append(all);
  return out;
}

function hotSpots(overlay, scale, puzzle) {
  const t = S.review.retry;
  const legal = new Set(puzzle.moves.map((m) => m.action));
  const spots = groupBySpot(t.frame.moves.filter((m) => legal.has(m.action)));
  if (!spots.size) return;
  const drawn = roomForTargets([...spots.values()].map((moves) => spotAt(moves[0].spot)), scale);
  const radius = Math.max(13, 17 / drawn);
  for (const [, moves] of spots) {
    const [x, y] = spotAt(moves[0].spot);
    const names = moves.map((m) => m.name).join(" or ");
    const hot = svgEl("circle", { cx: x, cy: y, r: radius, class: "hot", tabindex: 0,
                                  role: "button", "aria-label": names,
                                  "data-focus": `retry-spot:${spotKey(moves[0].spot)}`,
                                  "data-actions": moves.map((m) => m.action).join(" ") });
    hot.appendChild(svgEl("title", {}, names));
    const pick = () => {
      if (moves.length === 1) return answer(moves[0].action);
      t.picked = moves.map((m) => m.action);
      render();
    };
    hot.addEventListener("click", pick);
    hot.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); }
    });
    layerAt(overlay, moves[0].spot).appendChild(hot);
  }
}

export function retrying() { return Boolean(S.review.retry && S.review.for === currentGameId()); }
