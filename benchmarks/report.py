"""Run the benchmarks and write them, with the machine and versions, to RESULTS.md.

    python -m savanna.benchmarks                 # every available game, full repeats
    python -m savanna.benchmarks --games zebres  # one game
    python -m savanna.benchmarks --quick --no-write
    python -m savanna.benchmarks --peers         # side by side with OpenSpiel, sb3, PettingZoo, pgx
    python -m savanna.benchmarks --validation    # what checking the states that enter the API costs
    python -m savanna.benchmarks --alphazero     # AlphaZero self-play speed on Zèbres, end to end
    python -m savanna.benchmarks --scaling       # the vector env on 1 and 2 threads, under load
    python -m savanna.benchmarks --training      # PPO and AlphaZero on one core and on two
    python -m savanna.benchmarks --board         # savanna serve end to end, over HTTP
"""
import argparse
import datetime
import os
import platform
import shlex
import sys
from pathlib import Path

from savanna.files import atomic_write_text
from savanna.registry import GAMES, game_class

RESULTS = "RESULTS.md"  # written into --out (the project's own: make bench, into benchmarks/)


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
    names = requested or list(GAMES)  # the command line allows only registered names
    ready = []
    for name in names:
        try:
            game_class(name)
            ready.append(name)
        except ValueError as err:
            print(f"skipping {name}: {err}", file=sys.stderr)
    return ready


def table(rows, decimals=1):
    """``[(what, value, unit)]`` as a Markdown table: rates to the unit, ratios ("x") and
    shares ("%") to ``decimals`` places."""
    lines = ["| measurement | median | unit |", "|---|---:|---|"]
    for what, rate, unit in rows:
        lines.append(f"| {what} | {rate:,.{decimals}f} | {unit} |" if unit in ("x", "%")
                     else f"| {what} | {rate:,.0f} | {unit} |")
    return "\n".join(lines)


def quick_table(games=("zebres",)):
    """A short throughput table (for ``make demo``): few repeats, small batches."""
    from savanna.benchmarks.throughput import measure_game

    return "\n\n".join(f"{name}\n" + table(measure_game(name, quick=True, progress=lambda m: None))
                       for name in available_games(list(games)))


def write_results(sections, results):
    """Replace each game's section of the file ``results`` (a RESULTS.md), keeping the other
    games' sections."""
    header = ("# Benchmark results\n\nRandom-play throughput, medians of repeated runs after "
              "warm-up.\n")
    results.parent.mkdir(parents=True, exist_ok=True)
    old = results.read_text() if results.exists() else ""
    kept = {}
    for block in old.split("\n## ")[1:]:
        title = block.split("\n", 1)[0]
        kept[title] = "## " + block.rstrip() + "\n"
    for title, body in sections.items():
        kept[title] = body
    atomic_write_text(results, header + "\n" + "\n".join(kept[t] for t in sorted(kept)))


def main(argv=None, prog="python -m savanna.benchmarks", parser_class=argparse.ArgumentParser):
    """The command line; ``prog`` is how it was called (``savanna bench`` too), whose parser
    class (``parser_class``) says how a mistake is reported."""
    parser = parser_class(prog=prog, description=__doc__.replace(
        "python -m savanna.benchmarks", prog), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", choices=list(GAMES), metavar="GAME",
                        help=f"games to measure (default: all of {list(GAMES)})")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller batches")
    parser.add_argument("--no-write", action="store_true",
                        help="print only, do not touch RESULTS.md")
    parser.add_argument("--out", type=Path, default=Path("."), metavar="FOLDER",
                        help="the folder of RESULTS.md and the peers' chart, made if missing "
                             "(default: the working folder)")
    parser.add_argument("--peers", action="store_true",
                        help="instead: Savanna side by side with OpenSpiel, sb3, PettingZoo, pgx")
    parser.add_argument("--validation", action="store_true",
                        help="instead: the cost of validating states in Game.step")
    parser.add_argument("--alphazero", action="store_true",
                        help="instead: AlphaZero self-play speed on Zèbres, end to end")
    parser.add_argument("--scaling", action="store_true",
                        help="instead: the vector env on 1 and 2 threads, its Python share, "
                             "and the adaptive threads beside a busy process")
    parser.add_argument("--training", action="store_true",
                        help="instead: PPO and AlphaZero training on one core and on two")
    parser.add_argument("--distill", action="store_true",
                        help="instead: the UCT teacher's self-play speed (savanna distill)")
    parser.add_argument("--board", action="store_true",
                        help="instead: savanna serve end to end (page load, az:baseline's "
                             "replies, 20 games at once, 50 pages watching 10 games)")
    parser.add_argument("--gates", nargs="+", metavar="FIT_DIR",
                        help="instead: the gate reports of these savanna fit run folders")
    args = parser.parse_args(argv)
    args.results = args.out / RESULTS
    command = f"{prog} " + shlex.join(argv or [])
    sections = {}
    where = machine()
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    if args.peers:
        return peers_main(args, when, command.strip(), where)
    if args.validation:
        return validation_main(args, when, command.strip(), where)
    if args.alphazero:
        return alphazero_main(args, when, command.strip(), where)
    if args.scaling:
        return scaling_main(args, when, command.strip(), where)
    if args.training:
        return training_main(args, when, command.strip(), where)
    if args.board:
        return board_main(args, when, command.strip(), where)
    if args.distill or args.gates:
        return distill_main(args, when, command.strip(), where)
    from savanna.benchmarks.throughput import measure_game  # numba: not for --help

    for name in available_games(args.games):
        rows = measure_game(name, quick=args.quick, progress=lambda m: print(m, file=sys.stderr))
        body = (f"## {name} — random play\n\n{when}; `{command.strip()}`; {where}\n\n"
                + table(rows) + "\n")
        print(body)
        sections[f"{name} — random play"] = body
    if not args.no_write and not args.quick:
        write_results(sections, args.results)
        print(f"written to {args.results}")
    return 0


def publish(args, title, body):
    """Prints a section and, unless ``--no-write`` or ``--quick``, writes it into RESULTS.md."""
    print(body)
    if not args.no_write and not args.quick:
        write_results({title: body}, args.results)
        print(f"written to {args.results}")
    return 0


def peers_main(args, when, command, where):
    """``--peers``: the side-by-side section of RESULTS.md and its bar chart."""
    from savanna.benchmarks import peers

    results = peers.measure(quick=args.quick, progress=lambda m: print(m, file=sys.stderr))
    body = peers.section(results, when, command, where)
    print(body)
    if not args.no_write and not args.quick:
        write_results({"peers — side by side": body}, args.results)
        print(f"written to {args.results} and "
              f"{peers.chart(results, args.out / peers.CHART.name)}")
    return 0


def validation_main(args, when, command, where):
    """``--validation``: the section on what checking incoming states costs."""
    from savanna.benchmarks import validation

    rows = validation.measure(repeats=5 if args.quick else 15,
                              progress=lambda m: print(m, file=sys.stderr))
    body = (f"## validation — cost of checking incoming states\n\n{when}; `{command}`; {where}\n\n"
            f"{validation.__doc__.strip()}\n\n" + table(rows) + "\n")
    return publish(args, "validation — cost of checking incoming states", body)


def board_main(args, when, command, where):
    """``--board``: the browser board end to end (``savanna.benchmarks.board_load``)."""
    from savanna.benchmarks import board_load

    rows = board_load.measure(quick=args.quick, progress=lambda m: print(m, file=sys.stderr))
    about = "\n\n".join(board_load.__doc__.strip().split("\n\n")[2:])  # after the command line
    body = (f"## board — savanna serve end to end\n\n{when}; `{command}`; {where}\n\n"
            f"{about}\n\nLoad average at the end: {os.getloadavg()[0]:.1f}.\n\n"
            + table(rows) + "\n")
    return publish(args, "board — savanna serve end to end", body)


def alphazero_main(args, when, command, where):
    """``--alphazero``: self-play speed end to end (``savanna.benchmarks.az_selfplay``) at the
    default settings, the median of its timed windows by CPU rate."""
    from savanna.benchmarks.az_selfplay import selfplay_speed

    repeats = 3 if args.quick else 5
    windows = selfplay_speed("zebres", moves=20 if args.quick else 50, repeats=repeats,
                             warmup_moves=40 if args.quick else 150)
    load = os.getloadavg()[0]
    w = sorted(windows, key=lambda run: run["leaf_evals_per_cpu_s"])[len(windows) // 2]
    rows = [("network leaf evaluations per second of wall time", w["leaf_evals_per_s"], "/s"),
            ("network leaf evaluations per CPU second", w["leaf_evals_per_cpu_s"], "/s"),
            ("training positions per second of wall time", w["positions_per_s"], "/s")] + [
        (f"share of wall time: {part}", 100 * w[f"{part}_share"], "%")
        for part in ("search", "inference", "learn", "other")]
    body = (f"## alphazero — self-play speed\n\n{when}; `{command}`; {where}\n\n"
            "Zèbres, default `AZConfig` (1,024 games searched together, 32 simulations, "
            f"hidden 128×128, reuse 4): a fresh trainer warmed up, then the median of {repeats} "
            "timed windows (by CPU rate); everything runs on one thread, so the CPU rate is "
            f"what one idle core does (load average at the end: {load:.1f}).\n\n"
            + table(rows) + "\n")
    return publish(args, "alphazero — self-play speed", body)


def scaling_main(args, when, command, where):
    """``--scaling``: the section on threads (``savanna.benchmarks.scaling``), with what else
    ran on the machine before and after."""
    from savanna.benchmarks import scaling

    before = scaling.neighbours()
    rows = scaling.measure(quick=args.quick, progress=lambda m: print(m, file=sys.stderr))
    body = (f"## scaling — vector env threads, Python share, adaptive under load\n\n{when}; "
            f"`{command}`; {where}\n\nBeside this run, at its start: {before}; at its end: "
            f"{scaling.neighbours()}.\n\n{scaling.__doc__.strip()}\n\n"
            + table(rows, decimals=2) + "\n")
    return publish(args, "scaling — vector env threads, Python share, adaptive under load", body)


def training_main(args, when, command, where):
    """``--training``: PPO and AlphaZero on one core and two
    (``savanna.benchmarks.training_cores``), with what else ran beside them."""
    from savanna.benchmarks import scaling, training_cores

    title = "training — one core and two"
    before = scaling.neighbours()
    rows = training_cores.measure(quick=args.quick, progress=lambda m: print(m, file=sys.stderr))
    body = (f"## {title}\n\n{when}; `{command}`; {where}\n\nBeside this run, at its start: "
            f"{before}; at its end: {scaling.neighbours()}.\n\n"
            f"{training_cores.__doc__.strip()}\n\n" + table(rows, decimals=2) + "\n")
    return publish(args, title, body)


def distill_main(args, when, command, where):
    """``--distill``: the teacher's self-play speed; ``--gates``: fitted networks' gates
    (``savanna.benchmarks.distill_speed``)."""
    from savanna.benchmarks import distill_speed

    if args.gates:
        title = "distillation — gates of the fitted networks"
        body = (f"## {title}\n\n{when}; `{command}`\n\nHeld-out games only: the network's "
                "value error against its target (the teacher's root value) and against the "
                "outcome, next to the teacher's own root value against the outcome, by "
                "decision number; the policy's KL from the teacher's visits next to the "
                "uniform policy's; how often its most probable move is the teacher's most "
                "visited.\n\n" + distill_speed.gate_section(args.gates))
    else:
        title = "distillation — teacher self-play speed"
        rows = distill_speed.speed(games=32 if args.quick else 128,
                                   repeats=2 if args.quick else 3)
        body = (f"## {title}\n\n{when}; `{command}`; {where}; load average at the end "
                f"{os.getloadavg()[0]:.1f}\n\n{distill_speed.__doc__.strip()}\n\n"
                + table(rows) + "\n")
    return publish(args, title, body)
