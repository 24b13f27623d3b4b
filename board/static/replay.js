// The Replay view: a records file's games, one position at a time, stepped by keys, buttons,
// the slider or the numbered move list.
import { runAnalysis, setSource, sourceFromView } from "./analyse.js";
import { openTab, render } from "./core.js";
import { drawBoard, lastSpot, markLastMove, positionLink, showPosition } from "./drawing.js";
import { $, api, button, download, el, guarded, header, S } from "./shared.js";
import { gameTitle, moveWords, resultWords, seatName, words } from "./words.js";

export async function loadFiles() {
  const { files } = await api("GET", "/api/files");
  fill($("replay-file"), files.filter((f) => f.kind === "records"), S.replay.file);
  fill($("table-file"), files.filter((f) => f.kind !== "records"), S.tables.file);
}

function fill(select, files, current) {
  select.replaceChildren(el("option", "(choose a file)", { value: "" }),
                         ...files.map((f) => el("option", f.file, { value: f.file })));
  if (current && !files.some((f) => f.file === current)) {
    select.append(el("option", current, { value: current }));
  }
  select.value = current || "";
}

export async function listGames(file, filter = null) {
  const games = [];  // the server answers a page at a time
  for (let offset = 0; offset !== null;) {
    const page = await api("GET", `/api/records?file=${encodeURIComponent(file)}&offset=${offset}`);
    games.push(...page.games);
    offset = page.next;
  }
  Object.assign(S.replay, { file, games, filter });
}

export async function openReplay(file, game, ply) {
  if (S.replay.file !== file || !S.replay.games) await listGames(file);
  const same = S.replay.frame && S.replay.frame.file === file && S.replay.frame.index === game;
  Object.assign(S.replay, { file, game, target: ply, seat: same ? S.replay.seat : null });
  if (!same) { S.replay.frame = null; S.replay.spots = null; }
  await openTab("replay");
  await step();
  if (!same) loadReplaySpots(file, game);
}

async function loadReplaySpots(file, game) {
  try {
    const data = await api("GET", `/api/record?file=${encodeURIComponent(file)}&game=${game}`,
                           undefined, { quiet: true });
    if (S.replay.file === file && S.replay.game === game) {
      S.replay.spots = data;
      if (S.tab === "replay") render();
    }
  } catch { /* the replay goes on without the marker */ }
}

// The replay runs to S.replay.target one answer at a time: keys pressed faster than the
// server answers move the target on, and the last answer shows it.
async function step() {
  const r = S.replay;
  if (r.loading || r.file === null || r.game === null) return;
  r.loading = true;
  try {
    while (r.frame === null || r.frame.ply !== r.target || r.frame.index !== r.game ||
           r.frame.file !== r.file || r.frame.seat !== r.seat) {
      const want = { file: r.file, game: r.game, ply: r.target, seat: r.seat };
      const seat = want.seat === null ? "" : `&seat=${want.seat}`;
      const frame = await api("GET", `/api/replay?file=${encodeURIComponent(want.file)}` +
                                     `&game=${want.game}&ply=${want.ply}${seat}`);
      frame.seat = want.seat;
      if (r.file !== want.file || r.game !== want.game) continue;
      r.frame = frame;
      if (r.target > frame.plies) r.target = frame.plies;
      if (S.tab === "replay") render();
    }
  } catch (err) {
    if (r.frame) r.target = r.frame.ply;
    throw err;
  } finally {
    r.loading = false;
  }
}

export function moveReplay(ply) {
  const r = S.replay;
  if (r.game === null) return;
  const plies = r.frame ? r.frame.plies : Infinity;
  r.target = Math.max(0, Math.min(plies, ply));
  return guarded(step)();
}

export function renderReplay() {
  const r = S.replay;
  $("replay-file").value = r.file || "";
  renderGameList();
  const f = r.frame;
  $("replay-panel").hidden = !f;
  $("review-replay").hidden = !(f && window.savannaReview);
  if (!f) {
    drawBoard("");
    return;
  }
  const g = f.game;
  const { overlay } = drawBoard(f.svg, `${words(g).name} board, move ${f.ply}`, f.state);
  const current = f.events.findIndex((e) => e.state >= f.state);
  const before = current < 0 ? f.events.length : current;
  markLastMove(overlay, lastSpot(r.spots, before));
  const last = f.events.slice(0, before).reverse().find((e) => e.chance === undefined);
  $("last-move").textContent = last ? `Last move: ${seatName(g, last.player)}: ` +
                                       moveWords(g, last.move) : "";
  showPosition(f.position);
  positionLink(g, f.title, f.position);
  $("replay-title").textContent = `${gameTitle(g, f.title)}. Game ${f.index} of ${f.file}: ` +
    f.agents.map((a, p) => `${seatName(g, p)} ${a}`).join(", ") +
    (f.returns ? `. ${resultWords(g, f.returns, null)}.` : ". Unfinished.");
  const slider = $("slider");
  slider.max = f.plies;
  slider.value = r.target;
  $("ply-label").textContent = `move ${f.ply} / ${f.plies}`;
  const reveal = $("reveal");
  $("reveal-label").hidden = !f.hidden;
  if (f.hidden && reveal.options.length !== f.agents.length + 1) {
    reveal.replaceChildren(el("option", "everything (cards revealed)", { value: "" }),
      ...f.agents.map((a, p) => el("option", `${seatName(g, p)} only (${a})`, { value: p })));
  }
  reveal.value = r.seat === null ? "" : String(r.seat);
  // the moves numbered from 1; the one that led here is marked (and on the board)
  const events = $("events");
  events.replaceChildren();
  let number = 0;
  f.events.forEach((e) => {
    const item = el("li", undefined, { class: e.chance !== undefined ? "chance" : "move" });
    if (e.chance !== undefined) {
      item.textContent = `${words(g).chance}: ${e.chance}`;
    } else {
      const after = ++number;
      item.append(button(`${after}. ${seatName(g, e.player)}: ${moveWords(g, e.move)}`,
                         () => moveReplay(after), { "data-focus": `event:${after}`,
                                                    class: "link",
                                                    title: `the position after move ${after}` }));
    }
    if (e === last) item.classList.add("current");
    events.append(item);
  });
  const currentItem = events.querySelector(".current");  // scrolled into the list's view,
  if (currentItem) {                                       // the page left where it is
    events.scrollTop = currentItem.offsetTop - events.clientHeight / 2;
  }
}

function renderGameList() {
  const r = S.replay;
  const box = $("replay-games");
  if (!r.games) return box.replaceChildren();
  const table = el("table", undefined, { id: "games" });
  table.append(header(["game", "players", "result", "moves"]));
  const shown = r.games.filter((g) => !r.filter || r.filter.every((a) => g.agents.includes(a)));
  for (const g of shown) {
    const row = el("tr", undefined, { class: "clickable", "data-index": g.index });
    if (r.frame && r.frame.index === g.index) row.classList.add("current");
    const open = button(`Game ${g.index}`, () => openReplay(r.file, g.index, 0),
                        { "data-focus": `game:${g.index}`, class: "link" });
    const cell = el("td");
    cell.append(open);
    row.append(cell,
               el("td", g.agents.map((a, p) => `${seatName(g.game, p)}: ${a}`).join(", "),
                  { class: "text" }),
               el("td", resultWords(g.game, g.returns, null), { class: "text" }),
               el("td", String(g.plies)));
    row.addEventListener("click", (e) => { if (e.target === row || e.target.tagName === "TD") open.click(); });
    table.append(row);
  }
  box.replaceChildren(el("p", r.filter ? `Games of ${r.filter.join(" and ")}:`
    : `${r.games.length} games in ${r.file}:`), table);
}

function replayKeys(event) {
  if (S.tab !== "replay" || S.replay.game === null) return;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName) &&
      event.target.id !== "slider") return;
  const r = S.replay;
  const plies = r.frame ? r.frame.plies : 0;
  const moves = { ArrowLeft: r.target - 1, ArrowRight: r.target + 1, Home: 0, End: plies };
  if (event.key in moves) {
    event.preventDefault();
    moveReplay(moves[event.key]);
  }
}

const downloadReplay = guarded(async () => {
  const f = S.replay.frame;
  const data = S.replay.spots ||
    await api("GET", `/api/record?file=${encodeURIComponent(f.file)}&game=${f.index}`);
  const players = f.agents.join("-vs-").replace(/[^A-Za-z0-9=.]+/g, "-");
  download(`${f.game}-${players}-game${f.index}-of-${f.file.replace(/\.jsonl$/, "")
    .replace(/[^A-Za-z0-9=.]+/g, "-")}.jsonl`, JSON.stringify(data.record) + "\n");
});

// The Replay view's controls: the file, the moves, the seat whose view is shown.
export function setupReplay() {
  $("download-replay").addEventListener("click", downloadReplay);
  $("analyse-replay").addEventListener("click", guarded(async () => {
    await setSource(sourceFromView("replay"));
    await runAnalysis();
  }));
  $("replay-file").addEventListener("change", guarded(async (e) => {
    if (!e.target.value) return;
    await listGames(e.target.value);
    Object.assign(S.replay, { frame: null, game: null });
    render();
  }));
  $("slider").addEventListener("input", (e) => moveReplay(Number(e.target.value)));
  for (const [id, to] of [["first", () => 0], ["prev", () => S.replay.target - 1],
                          ["next", () => S.replay.target + 1], ["last", () => Infinity]]) {
    $(id).addEventListener("click", () => moveReplay(to()));
  }
  $("reveal").addEventListener("change", (e) => {
    S.replay.seat = e.target.value === "" ? null : Number(e.target.value);
    guarded(step)();
  });
  document.addEventListener("keydown", replayKeys);
}
