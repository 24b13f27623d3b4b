// The page of `savanna serve`: play, replay, analyse and tables over the JSON API
// (board/server.py). The board is the server's SVG (the games' own drawing); the
// clickable moves, the last-move marker, the heat map and the best line are drawn over it in
// the same coordinates, from the positions Game.move_spots gives.
//
// The modules, loaded as ES modules with no build step, in layers whose imports point one way
// (tests/web/test_page_layers.py checks it): this one, the router (the address, the start);
// one per view (play.js, replay.js, analyse.js, tables.js, review.js, the game review, and
// retry.js, its mistakes to retry); core.js (render, openTab, the address); drawing.js (the
// board and what is drawn over it); words.js (the games' words), shared.js (the state, the
// API, seat keys, small builders) and live.js (the push client).
import { renderAnalyse, setSource, setupAnalyse, showPasted, sourceFromView } from "./analyse.js";
import { currentGameId, openTab, render, setViews } from "./core.js";
import { loadGame, renderPlay, setupPlay } from "./play.js";
import { loadFiles, moveReplay, openReplay, renderReplay, setupReplay } from "./replay.js";
import { $, api, el, guarded, keyFor, loadForm, S, TABS, takeToken } from "./shared.js";
import { drawReviewed } from "./review.js";
import { renderTables, setupTables, showRatings } from "./tables.js";
import { AGENT_DEFAULTS, words } from "./words.js";

// ----- the address: every view opens from a link, in a new tab or an open one -----------
// A game's address may end in /review/KEY: its kept review, shown once the game is.
const route = guarded(async (hash) => {
  if (hash === S.address) return;
  S.address = hash;
  const [shown, kept] = hash.split("/review/");
  await routeTo(shown);
  if (kept && /^[0-9a-f]+$/.test(kept) && currentGameId()) openReview({ kept });
});

async function routeTo(hash) {
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
}

const switchTab = guarded(async (name) => {
  if (name === "analyse" && S.tab !== "analyse") {
    const source = sourceFromView(S.tab);
    const now = S.analyse.source;
    if (source && !S.analyse.job && !(now && now.id === source.id)) await setSource(source);
  }
  await openTab(name);
});

// The review of the game shown drives its board: Replay's moves to the decision picked, Play's
// board (a finished game) shows it; `more` may name a kept review.
function openReview(more = {}) {
  const source = S.tab === "play"
    ? { table: S.play.view.id, key: keyFor(S.play.view.id, S.play.view.seat),
        title: S.play.view.title }
    : { file: S.replay.frame.file, game: S.replay.frame.index, title: S.replay.frame.title,
        onPick: moveReplay };
  const review = $("review");
  review.dataset.for = currentGameId();
  return window.savannaReview?.({ ...source, ...more, container: review });
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
  setViews({ play: { render: renderPlay }, replay: { render: renderReplay, open: loadFiles },
             analyse: { render: renderAnalyse }, tables: { render: renderTables, open: loadFiles } },
           [drawReviewed]);
  setupPlay();
  setupReplay();
  setupAnalyse();
  setupTables();
  $("review-game").addEventListener("click", () => openReview());
  $("review-replay").addEventListener("click", () => openReview());
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
