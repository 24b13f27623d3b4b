// The page's core, imported by the router (board.js) and by every view: render(), the one entry
// point that draws the open view, openTab(), the address of what is shown, and the id of the
// game shown. The router hands it the views when the page starts (setViews), so that the arrows
// point one way: board.js -> views -> core.js -> drawing.js -> shared.js, words.js.
//
// One source of truth: each view keeps its own state (S.play, S.replay, S.analyse, S.tables);
// render() draws the board and the panels of the open view from it, after every switch and
// every answer, so nothing of one view or position survives into another.
import { focusKey, readable, restoreFocus } from "./drawing.js";
import { $, S, TABS } from "./shared.js";

// {name: {render(), open()?}}: what each view draws, and what it reads when it opens; then
// what is drawn over every view (the review's lesson).
const views = {};
const overlays = [];

export function setViews(drawn, over = []) {
  Object.assign(views, drawn);
  overlays.push(...over);
}

// The parts under the board, cleared on every render and filled by the open view.
function clearBoardParts() {
  $("heat-legend").hidden = true;
  $("eval-bar").hidden = true;
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
    Object.assign(S.review, { for: "", decision: null, frame: null, step: 0, retry: null });
  }
}

export function render() {
  const key = focusKey();
  for (const tab of TABS) {
    $(`tab-${tab}`).hidden = tab !== S.tab;
    const link = document.querySelector(`nav a[data-tab=${tab}]`);
    link.classList.toggle("active", tab === S.tab);
    if (tab === S.tab) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.classList.toggle("wide", S.tab === "tables");  // tables need no board
  clearBoardParts();
  views[S.tab].render();
  for (const draw of overlays) draw();
  readable();  // on a phone, once everything is drawn on the board
  setAddress(address());
  restoreFocus(key);
}

// Show view `name`; what it reads when it opens (the file lists) is read afresh.
export async function openTab(name) {
  S.tab = name;
  render();
  if (views[name].open) {
    await views[name].open();
    if (S.tab === name) render();
  }
}

export function currentGameId() {
  if (S.tab === "play" && S.play.view) return `table:${S.play.view.id}`;
  if (S.tab === "replay" && S.replay.frame) return `file:${S.replay.frame.file}:${S.replay.frame.index}`;
  return "";
}

// The address of what is shown; a kept review of the game shown adds /review/KEY.
function address() {
  const kept = S.review.kept && S.review.for && S.review.for === currentGameId()
    ? `/review/${S.review.kept}` : "";
  if (S.tab === "play" && S.play.view) {
    const v = S.play.view;
    return `#play/${v.id}/${v.seat === null ? "" : v.seat}${kept}`;
  }
  if (S.tab === "replay" && S.replay.frame) {
    const f = S.replay.frame;
    return `#replay/${encodeURIComponent(f.file)}/${f.index}/${f.ply}${kept}`;
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
