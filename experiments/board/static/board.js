// The page of `savanna serve`: play, replay, analyse and tables over the JSON API
// (experiments/board/server.py). The board is the server's SVG (the games' own drawing); the
// clickable moves, the last-move marker, the heat map and the best line are drawn over it in
// the same coordinates, from the positions Game.move_spots gives.
//
// One source of truth: each view keeps its own state (S.play, S.replay, S.analyse, S.tables);
// render() draws the board and the panels of the open view from it, after every switch and
// every answer, so nothing of one view or position survives into another.
//
// The modules, loaded as ES modules with no build step: this one (render, the address, the
// start), one per view (play.js, replay.js, analyse.js, tables.js, and review.js, the game
// review under the board), drawing.js (the board and what is drawn over it), words.js (the
// games' words) and shared.js (the state, the API, seat keys, small builders).
import { renderAnalyse, setSource, setupAnalyse, showPasted, sourceFromView } from "./analyse.js";
import { focusKey, restoreFocus } from "./drawing.js";
import { loadGame, renderPlay, setupPlay } from "./play.js";
import { loadFiles, moveReplay, openReplay, renderReplay, setupReplay } from "./replay.js";
import { $, api, el, guarded, keyFor, loadForm, S, TABS, takeToken } from "./shared.js";
import { drawReviewed } from "./review.js";
import { renderTables, setupTables, showRatings } from "./tables.js";
import { AGENT_DEFAULTS, words } from "./words.js";

// The parts under the board, cleared on every render and filled by the open view.
function clearBoardParts() {
  $("heat-legend").hidden = true;
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
    Object.assign(S.review, { for: "", decision: null, frame: null, step: 0 });
  }
}

// ----- rendering: the one entry point ----------------------------------------------------
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
  ({ play: renderPlay, replay: renderReplay, analyse: renderAnalyse, tables: renderTables })[S.tab]();
  drawReviewed();
  setAddress(address());
  restoreFocus(key);
}

function address() {
  if (S.tab === "play" && S.play.view) {
    const v = S.play.view;
    return `#play/${v.id}/${v.seat === null ? "" : v.seat}`;
  }
  if (S.tab === "replay" && S.replay.frame) {
    const f = S.replay.frame;
    return `#replay/${encodeURIComponent(f.file)}/${f.index}/${f.ply}`;
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

export function currentGameId() {
  if (S.tab === "play" && S.play.view) return `table:${S.play.view.id}`;
  if (S.tab === "replay" && S.replay.frame) return `file:${S.replay.frame.file}:${S.replay.frame.index}`;
  return "";
}

// ----- the address: every view opens from a link, in a new tab or an open one -----------
const route = guarded(async (hash) => {
  if (hash === S.address) return;
  S.address = hash;
  const [tab, ...rest] = hash.replace(/^#/, "").split("/");
  const name = TABS.includes(tab) ? tab : "play";
  if (name === "play" && rest[0]) return loadGame(rest[0], rest[1] || null);
  if (name === "replay" && rest[0]) {
    return openReplay(decodeURIComponent(rest[0]), Number(rest[1] || 0), Number(rest[2] || 0));
  }
  if (name === "analyse" && rest.length >= 3) {
    const [game, options, ...position] = rest;
    return showPasted(decodeURIComponent(game),
                      decodeURIComponent(options).split(/\s+/).filter((x) => x),
                      decodeURIComponent(position.join("/")));
  }
  if (name === "tables" && rest[0]) {
    await openTab("tables");
    return showRatings(decodeURIComponent(rest[0]));
  }
  return switchTab(name);
});

const switchTab = guarded(async (name) => {
  if (name === "analyse" && S.tab !== "analyse") {
    const source = sourceFromView(S.tab);
    const now = S.analyse.source;
    if (source && !S.analyse.job && !(now && now.id === source.id)) await setSource(source);
  }
  await openTab(name);
});

// Show view `name`; the file lists are read afresh for the views that list files.
export async function openTab(name) {
  S.tab = name;
  render();
  if (name === "replay" || name === "tables") {
    await loadFiles();
    if (S.tab === name) render();
  }
}

// ----- start ---------------------------------------------------------------------------------
async function start() {
  takeToken();  // before the first request: a notebook's frame brings the token in its address
  S.info = await api("GET", "/api/info");
  for (const select of [$("game"), $("paste-game")]) {
    select.replaceChildren(...S.info.played.map((g) => el("option", words(g).name, { value: g })));
  }
  const specs = ["human", ...S.info.agents.map((a) => AGENT_DEFAULTS[a] || a)];
  $("seat-pick").replaceChildren(...specs.map((s) => el("option", s, { value: s })));
  $("agent-list").replaceChildren(...specs.slice(1).map((s) => el("option", undefined, { value: s })));
  loadForm();
  setupPlay();
  setupReplay();
  setupAnalyse();
  setupTables();
  // the review drives the board it sits under: Replay's moves to the decision picked, Play's
  // board (a finished game) shows it
  for (const [id, source] of [["review-game", () => ({ table: S.play.view.id,
                                                        key: keyFor(S.play.view.id, S.play.view.seat),
                                                        title: S.play.view.title })],
                              ["review-replay", () => ({ file: S.replay.frame.file,
                                                         game: S.replay.frame.index,
                                                         title: S.replay.frame.title,
                                                         onPick: moveReplay })]]) {
    $(id).addEventListener("click", () => {
      const review = $("review");
      review.dataset.for = currentGameId();
      window.savannaReview?.({ ...source(), container: review });
    });
  }
  for (const link of document.querySelectorAll("nav a")) {
    link.addEventListener("click", (e) => { e.preventDefault(); switchTab(link.dataset.tab); });
  }
  // The address holds the view: a reload, a pasted link or the back button opens it.
  window.addEventListener("hashchange", () => route(location.hash));
  window.addEventListener("popstate", () => route(location.hash));
  const first = location.hash || "#play";
  render();
  S.address = "";
  await route(first);
  document.body.dataset.ready = "true";
}

guarded(start)();
