"""Run the benchmarks and write them, with the machine and versions, to RESULTS.md.

    python -m savanna_benchmarks                 # every available game, full repeats
    python -m savanna_benchmarks --games zebres  # one game
    python -m savanna_benchmarks --quick --no-write
    python -m savanna_benchmarks --peers         # side by side with OpenSpiel, sb3, PettingZoo, pgx
    python -m savanna_benchmarks --validation    # what checking the states that enter the API costs
"""
import argparse
import datetime
import os
import platform
import shlex
import sys
from pathlib import Path

from savanna.registry import game_class
from savanna_benchmarks.throughput import GAMES, measure_game

RESULTS = Path(__file__).with_name("RESULTS.md")


def machine():
    """One line naming the CPU, cores and the library versions."""
    import gymnasium
    import numba
    import numpy
    import torch

    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, "
            f"numpy {numpy.__version__}, numba {numba.__version__}, "
            f"gymnasium {gymnasium.__version__}, torch {torch.__version__}")


def available_games(requested):
    names = requested or list(GAMES)
    for name in names:
        if name not in GAMES:
            raise SystemExit(f"unknown game {name!r}; available: {', '.join(GAMES)}")
    ready = []
    for name in names:
        try:
            game_class(name)
            ready.append(name)
        except ValueError as err:
            print(f"skipping {name}: {err}", file=sys.stderr)
    return ready


def table(rows):
    lines = ["| measurement | median | unit |", "|---|---:|---|"]
    for what, rate, unit in rows:
        lines.append(f"| {what} | {rate:,.1f} | {unit} |" if unit in ("x", "%")
                     else f"| {what} | {rate:,.0f} | {unit} |")
    return "\n".join(lines)


def quick_table(games=("zebres",)):
    """A short throughput table (for ``make demo``): few repeats, small batches."""
    return "\n\n".join(f"{name}\n" + table(measure_game(name, quick=True, progress=lambda m: None))
                       for name in available_games(list(games)))


def write_results(sections):
    """Replace each game's section of RESULTS.md, keeping the other games' sections."""
    header = ("# Benchmark results\n\nRandom-play throughput, medians of repeated runs after "
              "warm-up.\n")
    old = RESULTS.read_text() if RESULTS.exists() else ""
    kept = {}
    for block in old.split("\n## ")[1:]:
        title = block.split("\n", 1)[0]
        kept[title] = "## " + block.rstrip() + "\n"
    for title, body in sections.items():
        kept[title] = body
    RESULTS.write_text(header + "\n" + "\n".join(kept[t] for t in sorted(kept)))


def main(argv=None, prog="python -m savanna_benchmarks"):
    """The command line; ``prog`` is how it was called (``savanna bench`` too)."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.replace(
        "python -m savanna_benchmarks", prog), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*",
                        help=f"games to measure (default: all of {list(GAMES)})")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller batches")
    parser.add_argument("--no-write", action="store_true",
                        help="print only, do not touch RESULTS.md")
    parser.add_argument("--peers", action="store_true",
                        help="instead: Savanna side by side with OpenSpiel, sb3, PettingZoo, pgx")
    parser.add_argument("--validation", action="store_true",
                        help="instead: the cost of validating states in Game.step")
    args = parser.parse_args(argv)
    command = f"{prog} " + shlex.join(argv or [])
    sections = {}
    where = machine()
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    if args.peers:
        return peers_main(args, when, command.strip(), where)
    if args.validation:
        return validation_main(args, when, command.strip(), where)
    for name in available_games(args.games):
        rows = measure_game(name, quick=args.quick, progress=lambda m: print(m, file=sys.stderr))
        body = (f"## {name} — random play\n\n{when}; `{command.strip()}`; {where}\n\n"
                + table(rows) + "\n")
        print(body)
        sections[f"{name} — random play"] = body
    if not args.no_write and not args.quick:
        write_results(sections)
        print(f"written to {RESULTS}")
    return 0


def peers_main(args, when, command, where):
    """``--peers``: the side-by-side section of RESULTS.md and its bar chart."""
    from savanna_benchmarks import peers

    results = peers.measure(quick=args.quick, progress=lambda m: print(m, file=sys.stderr))
    body = peers.section(results, when, command, where)
    print(body)
    if not args.no_write and not args.quick:
        write_results({"peers — side by side": body})
        print(f"written to {RESULTS} and {peers.chart(results)}")
    return 0


def validation_main(args, when, command, where):
    """``--validation``: the section on what checking incoming states costs."""
    from savanna_benchmarks import validation

    rows = validation.measure(repeats=5 if args.quick else 15,
                              progress=lambda m: print(m, file=sys.stderr))
    body = (f"## validation — cost of checking incoming states\n\n{when}; `{command}`; {where}\n\n"
            f"{validation.__doc__.strip()}\n\n" + table(rows) + "\n")
    print(body)
    if not args.no_write and not args.quick:
        write_results({"validation — cost of checking incoming states": body})
        print(f"written to {RESULTS}")
    return 0
