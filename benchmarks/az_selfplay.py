"""AlphaZero self-play speed end to end: network leaf evaluations per second of a training
run (self-play search, inference and learning together), and the share of that time spent in
each.

    python -m benchmarks.az_selfplay [--game zebres] [--games 1024] [--sims 32] [--moves 60]
                                     [--repeats 3]

Each repeat is a fresh ``agents.alphazero.Trainer`` (default settings unless given) warmed up
for a few moves (compilation, first finished games) and then timed over ``--moves`` moves;
the median repeat is reported. Rates are given per second of wall time and per second of
this process's CPU time: on a machine shared with other work the CPU rate is what one idle
core would do (everything here runs on one thread).
"""
import argparse
import statistics
import time

__all__ = ["selfplay_speed"]


def selfplay_speed(game="zebres", moves=60, warmup_moves=10, **settings):
    """``{leaf_evals_per_s, leaf_evals_per_cpu_s, search_share, inference_share, learn_share,
    other_share, positions_per_s, seconds, cpu_seconds}`` over ``moves`` self-play moves of a
    fresh ``agents.alphazero.Trainer`` (``settings`` are ``AZConfig`` fields), after
    ``warmup_moves``; shares are of wall time."""
    from agents.alphazero import AZConfig, Trainer

    trainer = Trainer(AZConfig(game=game, **settings))
    for _ in range(warmup_moves):
        trainer.step()
    stats, timing = trainer.selfplay.search.stats, trainer.timing

    def totals():
        return (stats["leaves"], stats["search_seconds"], stats["inference_seconds"],
                timing["learn_seconds"], trainer.positions)

    before = totals()
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(moves):
        trainer.step()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    leaves, search, inference, learn, positions = (
        now - then for now, then in zip(totals(), before))
    return {"leaf_evals_per_s": leaves / wall, "leaf_evals_per_cpu_s": leaves / cpu,
            "search_share": search / wall, "inference_share": inference / wall,
            "learn_share": learn / wall, "other_share": 1 - (search + inference + learn) / wall,
            "positions_per_s": positions / wall, "seconds": wall, "cpu_seconds": cpu}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="zebres")
    parser.add_argument("--games", type=int, help="self-play games at once (default: AZConfig's)")
    parser.add_argument("--sims", type=int, help="simulations per move (default: AZConfig's)")
    parser.add_argument("--moves", type=int, default=60, help="moves timed per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    settings = {k: v for k, v in (("games", args.games), ("sims", args.sims)) if v is not None}
    runs = [selfplay_speed(args.game, args.moves, **settings) for _ in range(args.repeats)]
    result = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(f"{args.game}, {settings or 'default settings'}, {args.moves} moves, median of "
          f"{args.repeats} ({result['seconds']:.0f} s wall, {result['cpu_seconds']:.0f} s CPU):")
    print(f"  {result['leaf_evals_per_s']:,.0f} network leaf evaluations/s of wall time, "
          f"{result['leaf_evals_per_cpu_s']:,.0f} per CPU second; "
          f"{result['positions_per_s']:,.0f} training positions/s")
    print("  wall time: " + ", ".join(f"{k.removesuffix('_share')} {result[k]:.0%}" for k in
                                      ("search_share", "inference_share", "learn_share",
                                       "other_share")))


if __name__ == "__main__":
    main()
