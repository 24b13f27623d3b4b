"""AlphaZero self-play speed end to end: network leaf evaluations per second of a training
run's wall time (self-play search, inference and learning together), and the share of that
time spent in each.

    python -m benchmarks.az_selfplay [--game zebres] [--games 256] [--sims 32] [--moves 30]
"""
import argparse
import time

__all__ = ["selfplay_speed"]


def selfplay_speed(game="zebres", moves=30, warmup_moves=3, **settings):
    """``{leaf_evals_per_s, search_share, inference_share, learn_share, other_share,
    positions_per_s}`` over ``moves`` self-play moves of a fresh ``agents.alphazero.Trainer``
    (``settings`` are ``AZConfig`` fields), after ``warmup_moves`` (compilation)."""
    from agents.alphazero import AZConfig, Trainer

    trainer = Trainer(AZConfig(game=game, **settings))
    for _ in range(warmup_moves):
        trainer.step()
    stats, timing = trainer.selfplay.search.stats, trainer.timing
    before = (stats["leaves"], stats["search_seconds"], stats["inference_seconds"],
              timing["learn_seconds"], trainer.positions)
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(moves):
        trainer.step()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    leaves, search, inference, learn, positions = (
        now - then for now, then in zip((stats["leaves"], stats["search_seconds"],
                                         stats["inference_seconds"], timing["learn_seconds"],
                                         trainer.positions), before))
    return {"leaf_evals_per_s": leaves / wall, "leaf_evals_per_cpu_s": leaves / cpu,
            "search_share": search / wall,
            "inference_share": inference / wall, "learn_share": learn / wall,
            "other_share": 1 - (search + inference + learn) / wall,
            "positions_per_s": positions / wall, "seconds": wall, "cpu_seconds": cpu}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="zebres")
    parser.add_argument("--games", type=int, default=256, help="self-play games at once")
    parser.add_argument("--sims", type=int, default=32)
    parser.add_argument("--moves", type=int, default=30, help="moves measured")
    args = parser.parse_args(argv)
    result = selfplay_speed(args.game, args.moves, games=args.games, sims=args.sims)
    print(f"{args.game}, {args.games} games, {args.sims} simulations, {args.moves} moves "
          f"({result['seconds']:.1f} s):")
    print(f"  {result['leaf_evals_per_s']:,.0f} network leaf evaluations/s end to end; "
          f"{result['positions_per_s']:,.0f} training positions/s")
    print("  time: " + ", ".join(f"{k.removesuffix('_share')} {result[k]:.0%}" for k in
                                 ("search_share", "inference_share", "learn_share",
                                  "other_share")))


if __name__ == "__main__":
    main()
