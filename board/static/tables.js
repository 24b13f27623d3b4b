// The Tables view: a ladder's or a tournament's ratings, and its crosstable, whose cells open
// the games in Replay.
import { openTab, render } from "./core.js";
import { drawBoard } from "./drawing.js";
import { listGames } from "./replay.js";
import { $, api, button, el, guarded, header, S } from "./shared.js";
import { gameTitle } from "./words.js";

export const showRatings = guarded(async (file) => {
  S.tables.file = file;
  const data = await api("GET", `/api/ratings?file=${encodeURIComponent(file)}`);
  if (S.tables.file !== file) return;
  S.tables.data = data;
  if (S.tab === "tables") render();
});

export function renderTables() {
  drawBoard("");
  const t = S.tables.data;
  $("table-file").value = S.tables.file || "";
  if (!t) return $("ratings").replaceChildren();
  const fmt = (x) => (x === null ? "-" : (x >= 0 ? "+" : "") + Math.round(x));
  const ratings = el("table", undefined, { id: "ratings-table" });
  ratings.append(header(["rank", "agent", "Elo", "95% interval", "games", "score"]));
  for (const r of t.ratings) {
    const low = r.low !== undefined ? r.low : r.elo - r.elo_ci95;
    const high = r.high !== undefined ? r.high : r.elo + r.elo_ci95;
    const row = el("tr");
    row.append(el("td", String(r.rank)), el("td", r.agent, { class: "text" }),
               el("td", fmt(r.elo)),
               el("td", `[${fmt(low)}, ${fmt(high)}]`), el("td", String(r.games)),
               el("td", r.score === null ? "-" : `${(100 * r.score).toFixed(1)}%`));
    ratings.append(row);
  }
  const kind = t.kind === "ladder" ? "Ladder" : "Round robin";
  const parts = [el("h3", `${kind}: ${gameTitle(t.game, t.game_title)}`), ratings];
  if (t.crosstable) {
    const cross = el("table", undefined, { id: "crosstable" });
    cross.append(header(["score of row vs column", ...t.agents.map((_, j) => String(j))]));
    t.agents.forEach((a, i) => {
      const row = el("tr");
      row.append(el("td", `${i} ${a}`));
      t.agents.forEach((b, j) => {
        const x = t.crosstable[i][j];
        const cell = el("td", x === null || !t.records ? (x === null ? "" : `${Math.round(100 * x)}%`) : undefined);
        if (x !== null && t.records) {
          cell.classList.add("clickable");
          cell.append(button(`${Math.round(100 * x)}%`, async () => {
            await listGames(t.records, [a, b]);
            S.replay.frame = null;
            S.replay.game = null;
            await openTab("replay");
          }, { class: "link", "aria-label": `${Math.round(100 * x)}%: replay the games of ${a} against ${b}` }));
        }
        row.append(cell);
      });
      cross.append(row);
    });
    parts.push(el("p", "Score of each row agent against each column agent; click a cell " +
                        "to replay their games."), cross);
  } else {
    parts.push(el("p", "A ladder keeps its results, not its games: replay a match's records."));
  }
  $("ratings").replaceChildren(...parts);
}

// The Tables view's control: the ladder or tournament file.
export function setupTables() {
  $("table-file").addEventListener("change", (e) => e.target.value && showRatings(e.target.value));
}
