"""``savanna replay FILE``: step through a recorded game in the terminal, or export it as an
animation.

    savanna replay runs/match-zebres-20260101-120000/records.jsonl --game 3
    savanna replay records.jsonl --ply 10           # print one position and exit
    savanna replay records.jsonl --gif game.gif --svg game.svg

The record is replayed through the game and checked move by move; each position where a
decision is taken is drawn under the moves that led to it (Enter or ``n`` forward, ``p`` back,
a number jumps, ``q`` quits). ``--player P`` shows only what seat P could see.
"""
import functools
import io
from pathlib import Path

from savanna import draw
from savanna.cli.arguments import add_record_arguments, index, number
from savanna.errors import clip
from savanna.files import atomic_write_bytes, atomic_write_text, check_new_file
from savanna.number_parsing import parse_int

__all__ = ["Replay", "add_parser", "run"]

KEYS = "Enter or n: next, p: back, a number: that ply, q: quit"


def add_parser(commands):
    replay = commands.add_parser(
        "replay", description=__doc__)
    add_record_arguments(replay)
    shown = replay.add_mutually_exclusive_group()
    shown.add_argument("--ply", type=index, metavar="K",
                       help="print the position of ply K (0: the first decision) and exit")
    shown.add_argument("--all", action="store_true", help="print every position and exit")
    replay.add_argument("--player", type=index, metavar="P",
                        help="show only what seat P could see (default: everything)")
    replay.add_argument("--gif", type=Path, metavar="FILE", help="write an animated GIF")
    replay.add_argument("--svg", type=Path, metavar="FILE", help="write an animated SVG")
    replay.add_argument("--seconds", type=number, default=1.0,
                        help="seconds per position in the animations (default: 1)")
    replay.add_argument("--overwrite", action="store_true",
                        help="let --gif and --svg replace existing files")
    replay.set_defaults(run=run)


def run(args, extra=None, read=input, write=print):
    """The command: animations first (if asked), then ``--ply``, ``--all`` or the
    interactive stepper (unless only animations were asked for)."""
    from savanna.records import read_record  # here: the parser loads no numba

    outputs = [p for p in (args.gif, args.svg) if p is not None]
    for path in outputs:
        check_new_file(path, args.overwrite)
    if not 0 < args.seconds < 3600:
        raise ValueError(f"--seconds must be in (0, 3600), got {args.seconds:g}")
    replay = Replay(read_record(args.file, args.game), args.player)
    if args.gif is not None:
        replay.write_gif(args.gif, args.seconds)
        write(f"saved {args.gif}")
    if args.svg is not None:
        replay.write_svg(args.svg, args.seconds)
        write(f"saved {args.svg}")
    if args.ply is not None:
        write(replay.frame(args.ply))
    elif args.all:
        write("\n\n".join(replay.frame(k) for k in range(replay.plies + 1)))
    elif not outputs:
        replay.step(read, write)


class Replay:
    """A record's positions (one per ply, then the end) with the events before each."""

    def __init__(self, record, player=None):
        self.record, self.game = record, record.game()
        if player is not None and not 0 <= player < self.game.num_players:
            raise ValueError(f"--player must be a seat in 0..{self.game.num_players - 1}, "
                             f"got {player}")
        self.player = player
        self.states = record.states(self.game)
        self.plies = record.plies
        self.index = [record.ply_index(k) for k in range(self.plies + 1)]

    def header(self):
        """The record's game, seats and rules (and the rules now, when they differ)."""
        seats = ", ".join(f"seat {p} {a}" for p, a in enumerate(self.record.agents))
        rules = self.record.rules_version
        if rules != self.game.rules_version:
            rules = f"played under {rules}, replayed under {self.game.rules_version}"
        return f"{self.record.where}: {self.game!r}, {seats}; {self.plies} plies ({rules})"

    def events(self, ply):
        """The moves and chance outcomes between the previous position and ply ``ply``."""
        first = self.index[ply - 1] if ply else 0
        lines = []
        for move in self.record.moves[first: self.index[ply]]:
            if "chance" in move:  # a run of outcomes (dice rolled one by one) on one line
                if lines and lines[-1].startswith("chance"):
                    lines[-1] += f" {move['chance']}"
                else:
                    lines.append(f"chance {move['chance']}")
            else:
                p = move["player"]
                lines.append(f"seat {p} ({self.record.agents[p]}): {move['move']}")
        return lines

    def frame(self, ply):
        """The text of ply ``ply``: its number, the events before it, the picture."""
        if not 0 <= ply <= self.plies:
            raise ValueError(f"ply must be in 0..{self.plies}, got {ply}")
        row = self.states[self.index[ply]: self.index[ply] + 1]
        head = f"ply {ply}/{self.plies}"
        if ply == self.plies and self.record.returns is not None:
            head += " (end; returns " + ", ".join(f"{x:g}" for x in self.record.returns) + ")"
        events = self.events(ply)
        lines = [head] + ([", ".join(events)] if events else [])
        if self.player is not None:
            lines.append(f"(the view of seat {self.player})")
        return "\n".join([*lines, self.game.render(row, self.player)])

    def step(self, read, write):
        """Step through the positions with keys read line by line."""
        write(self.header())
        write(KEYS)
        ply = 0
        write(self.frame(ply))
        while True:
            try:
                key = read(f"[{ply}/{self.plies}]> ").strip().lower()
            except EOFError:
                return
            if key in ("q", "quit"):
                return
            if key in ("", "n"):
                target = ply + 1
            elif key == "p":
                target = ply - 1
            else:
                try:
                    target = parse_int(key)  # ASCII digits: '²'.isdigit() but int('²') fails
                except ValueError:
                    write(f"unknown key {clip(key)}; {KEYS}")
                    continue
            if not 0 <= target <= self.plies:
                write(f"no ply {target}: plies go from 0 to {self.plies}")
                continue
            ply = target
            write(self.frame(ply))

    @functools.cached_property
    def drawings(self):
        """The picture of every position, captioned with its ply."""
        out = []
        for ply, k in enumerate(self.index):
            picture = self.game.render_drawing(self.states[k: k + 1], self.player)
            out.append(draw.grid([picture], [f"ply {ply}/{self.plies}"], gap=4.0))
        return out

    def write_gif(self, path, seconds):
        from PIL import Image  # lazily: only animations need Pillow

        frames = [Image.fromarray(d.rgb()) for d in self.drawings]
        width = max(f.width for f in frames)
        height = max(f.height for f in frames)
        padded = []
        for f in frames:
            canvas = Image.new("RGB", (width, height), "white")
            canvas.paste(f, (0, 0))
            padded.append(canvas)
        data = io.BytesIO()
        padded[0].save(data, format="GIF", save_all=True, append_images=padded[1:],
                       duration=round(seconds * 1000), loop=0)
        atomic_write_bytes(path, data.getvalue())

    def write_svg(self, path, seconds):
        atomic_write_text(path, draw.animation(self.drawings, seconds))
