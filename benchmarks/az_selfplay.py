"""AlphaZero self-play speed end to end: network leaf evaluations per second of a training
run (self-play search, inference and learning together), and the share of that time spent in
each (``python -m savanna.benchmarks --alphazero``).

    python -m savanna.benchmarks.az_selfplay [--game zebres] [--games 1024] [--sims 32] [--moves 40]
                                     [--repeats 3] [--warmup 100]

A fresh trainer is warmed up (compilation, and enough moves that games finish and the learner
works at its steady pace), then timed over ``--repeats`` windows of ``--moves`` moves; the
median window (by CPU rate) is reported, per second of wall time and of this process's CPU
time (what one idle core would do: everything here runs on one thread).
"""
import argparse
import time

__all__ = ["selfplay_speed"]


def selfplay_speed(game="zebres", moves=40, repeats=3, warmup_moves=100, **settings):
    """One fresh ``savanna.agents.training.alphazero.Trainer`` (``settings`` are ``AZConfig``
    fields) run for ``warmup_moves`` (compilation, and games finishing so that the learner works at
    its steady pace), then timed over ``repeats`` windows of ``moves`` moves: per window, ``{
    leaf_evals_per_s, leaf_evals_per_cpu_s, search_share, inference_share, learn_share,
    other_share, positions_per_s, seconds, cpu_seconds}`` (shares of wall time)."""
    from savanna.agents.models.az_config import AZConfig
    from savanna.agents.training.alphazero import Trainer

    trainer = Trainer(AZConfig(game=game, **settings))
    for _ in range(warmup_moves):
        trainer.step()
    stats, timing = trainer.selfplay.search.stats, trainer.timing

    def totals():
        return (stats["leaves"], stats["search_seconds"], stats["inference_seconds"],
                timing["learn_seconds"], trainer.positions)

    windows = []
    for _ in range(repeats):
        before = totals()
        started, cpu = time.perf_counter(), time.process_time()
        for _ in range(moves):
            trainer.step()
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        leaves, search, inference, learn, positions = (
            now - then for now, then in zip(totals(), before))
        windows.append({
            "leaf_evals_per_s": leaves / wall, "leaf_evals_per_cpu_s": leaves / cpu,
            "search_share": search / wall, "inference_share": inference / wall,
            "learn_share": learn / wall, "other_share": 1 - (search + inference + learn) / wall,
            "positions_per_s": positions / wall, "seconds": wall, "cpu_seconds": cpu})
    return windows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="zebres")
    parser.add_argument("--games", type=int, help="self-play games at once (default: AZConfig's)")
    parser.add_argument("--sims", type=int, help="simulations per move (default: AZConfig's)")
    parser.add_argument("--moves", type=int, default=40, help="moves timed per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=100, help="moves before timing")
    args = parser.parse_args(argv)
    settings = {k: v for k, v in (("games", args.games), ("sims", args.sims)) if v is not None}
    runs = selfplay_speed(args.game, args.moves, args.repeats, args.warmup, **settings)
    result = sorted(runs, key=lambda run: run["leaf_evals_per_cpu_s"])[len(runs) // 2]
    print(f"{args.game}, {settings or 'default settings'}, median of {args.repeats} windows of "
          f"{args.moves} moves ({result['seconds']:.0f} s wall, {result['cpu_seconds']:.0f} s "
          f"CPU):")
    print(f"  {result['leaf_evals_per_s']:,.0f} network leaf evaluations/s of wall time, "
          f"{result['leaf_evals_per_cpu_s']:,.0f} per CPU second; "
          f"{result['positions_per_s']:,.0f} training positions/s")
    print("  wall time: " + ", ".join(f"{k.removesuffix('_share')} {result[k]:.0%}" for k in
                                      ("search_share", "inference_share", "learn_share",
                                       "other_share")))


if __name__ == "__main__":
    main()
