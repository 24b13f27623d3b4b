// The games in a player's words: names, seats, chance, how to play, titles and results.

// ----- words for the games (a game not listed here gets plain ones) ---------------------
const GAME_WORDS = {
  zebres: { name: "Zèbres", seats: ["Red", "Green"], chance: "chance",
            howto: "Move the Impala round the track, then place an animal in the row or " +
                   "column it faces; full sectors score for their strongest animals. Most " +
                   "points wins." },
  bonobo: { name: "Bonobo Beach", seat: "Player", chance: "tile drawn",
            howto: "Place a pawn on a beach spot, or draw a tile and lay it on two " +
                   "triangles; tiles score for the pawns around them. Most points wins." },
  banjooli: { name: "Banjooli", seat: "Seat", chance: "die rolled",
              faces: { R: "red", B: "blue", G: "green", Y: "yellow", P: "purple", W: "white" },
              howto: "Roll the dice (tick some to reroll), then move the ostriches of the " +
                     "colours rolled; your secret card scores the ostriches' finishing order." },
};
export const AGENT_DEFAULTS = { mcts: "mcts:sims=200", az: "az:baseline", "ppo-mcts": "ppo-mcts:sims=100" };

// A die by the colour it shows, as the reroll boxes name it: "R1" -> "red 1", "sorcery W" ->
// "sorcery die: white".
export function dieWords(game, face) {
  const sorcery = face.startsWith("sorcery ");
  const [letter, nth] = [face.slice(sorcery ? 8 : 0)[0], face.slice(sorcery ? 9 : 1)];
  const colour = (words(game).faces || {})[letter] + (nth ? ` ${nth}` : "");
  return sorcery ? `sorcery die: ${colour}` : colour;
}

// A move's name in the page's words: a reroll by its dice's colours ("reroll R2,P,sorcery Y"
// -> "reroll red 2, purple, sorcery die: yellow"), every other name as the game writes it.
export function moveWords(game, name) {
  if (!words(game).faces || !/^reroll [^,]/.test(name || "")) return name;
  return "reroll " + name.slice(7).split(",").map((face) => dieWords(game, face)).join(", ");
}

// One colour per seat: the review's lines, the evaluation bar.
export const SEAT_COLOURS = ["#c0392b", "#2e7d32", "#1f5fa8", "#a0700b", "#7b3fa0"];

// A player's mean return as its expected share of the win, 0 to 1 (expected_result of
// agents/play/review.py): returns are P/(P-1) * (w - 1/P) for a win share w.
export function expectedShare(value, players) {
  return Math.max(0, Math.min(1, ((players - 1) / players) * value + 1 / players));
}

// A mean return in the page's one unit, the expected result: "62%" ("-" for none).
export function percentOf(value, players) {
  return value === null || value === undefined ? "-"
    : `${(100 * expectedShare(value, players)).toFixed(0)}%`;
}

// "an inaccuracy", "a mistake"
export function withArticle(word) { return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`; }

export function words(game) { return GAME_WORDS[game] || { name: game, seat: "Player", chance: "chance" }; }

export function seatName(game, p) {
  const w = words(game);
  return w.seats ? w.seats[p] || `Player ${p}` : `${w.seat} ${p}`;
}

// "ZebresGame(board='standard', first_placer=1)" -> {board: "standard", first_placer: "1"}
function parseTitle(title) {
  const out = {};
  for (const m of (title || "").matchAll(/(\w+)=('[^']*'|[^,()]+)/g)) {
    out[m[1]] = m[2].replace(/^'|'$/g, "");
  }
  return out;
}

// The game's name and its options in words: "Zèbres, standard board, Green places first".
export function gameTitle(game, title) {
  const parts = [words(game).name];
  for (const [k, v] of Object.entries(parseTitle(title))) {
    if (v === "None") continue;
    if (k === "num_players") parts.push(`${v} players`);
    else if (k === "first_placer") parts.push(`${seatName(game, Number(v))} places first`);
    else if (k === "board") parts.push(`${v} board`);
    else if (v === "True") parts.push(`with ${k.replace(/_/g, " ")}`);
    else if (v === "False") parts.push(`no ${k.replace(/_/g, " ")}`);
    else parts.push(`${k.replace(/_/g, " ")} ${v}`);
  }
  return parts.join(", ");
}

// Who won, in words, the winner's points first: "Red wins 58–25", "Player 2 wins: Player 2 48,
// Player 1 17, Player 0 -61", "Player 1 and Player 2 share the win", "Draw".
// A score with a real minus sign ("−27"), never a hyphen.
function signed(score) { return score < 0 ? `−${-score}` : String(score); }

export function resultWords(game, returns, scores) {
  if (!returns) return "unfinished";
  const best = Math.max(...returns);
  const winners = returns.map((r, p) => (r === best ? p : -1)).filter((p) => p >= 0);
  const order = returns.map((_, p) => p)
    .sort((a, b) => returns[b] - returns[a] || (scores ? scores[b] - scores[a] : 0) || a - b);
  const points = !scores ? "" : returns.length === 2
    ? " " + order.map((p) => signed(scores[p])).join(scores.some((x) => x < 0) ? " to " : "–")
    : ": " + order.map((p) => `${seatName(game, p)} ${signed(scores[p])}`).join(", ");
  if (winners.length === returns.length) return "Draw" + points;
  const names = winners.map((p) => seatName(game, p));
  return (names.length === 1 ? `${names[0]} wins` : `${names.join(" and ")} share the win`) +
    points;
}
// A game's options as -o takes them ("board=standard first_placer=1"), from its title.
export function optionWords(title) {
  return Object.entries(parseTitle(title)).filter(([, v]) => v !== "None")
    .map(([k, v]) => `${k}=${v === "True" ? "true" : v === "False" ? "false" : v}`);
}
