"""Training on one core and on two: ``python -m savanna.benchmarks --training``.

PPO on Zèbres at the peers run's settings, one worker process against two
(``PPOConfig.workers``), learner decisions per second; AlphaZero at the default ``AZConfig``,
self-play in the learner's process against two processes of its own
(``selfplay_processes=2``), leaf evaluations per wall second. The two sides are timed in turn
within every repeat, so a load that comes and goes touches both alike; medians and their ratio.
"""
import statistics
import time

import torch

from savanna.benchmarks.peers import PPO_SETTINGS
from savanna.benchmarks.throughput import interleaved_rates

__all__ = ["az_rows", "measure", "ppo_rows"]

WORKERS = (1, 2)


def ppo_trainer(workers):
    from savanna.agents.models.ppo_config import PPOConfig
    from savanna.agents.training.ppo import Trainer

    return Trainer(PPOConfig(game="zebres", seed=0, opponents={"random": 1.0}, threads=1,
                             steps=10**12, workers=workers, **PPO_SETTINGS))


def ppo_rows(repeats, progress=print):
    """``[(what, value, unit)]``: PPO's rate with each worker count and their ratio."""
    progress(f"training: PPO with {' and '.join(map(str, WORKERS))} workers")
    trainers = {w: ppo_trainer(w) for w in WORKERS}
    try:
        runs = {w: (_untimed_result(t.step), t.config.batch_size)
                for w, t in trainers.items()}
        rates = interleaved_rates(runs, repeats)
    finally:
        for trainer in trainers.values():
            trainer.close()
    rows = [(f"Zèbres PPO end to end, {w} worker process{'es' if w > 1 else ''} "
             f"(1 torch thread each)", rates[w].median, "learner steps/s") for w in WORKERS]
    return rows + [("Zèbres PPO: ratio 2 workers / 1 worker",
                    rates[2].median / rates[1].median, "x")]


AZ_PROCESSES = (0, 2)


def az_rows(repeats, moves, warmup, progress=print):
    """``[(what, value, unit)]``: AlphaZero's self-play rate in each setting and their ratio."""
    from savanna.agents.models.az_config import AZConfig
    from savanna.agents.training.alphazero import Trainer

    progress("training: AlphaZero self-play in the learner's process and in 2 of its own")
    trainers = {p: Trainer(AZConfig(game="zebres", selfplay_processes=p)) for p in AZ_PROCESSES}
    try:
        for trainer in trainers.values():
            for _ in range(warmup):
                trainer.step()
            _settled(trainer)
        rates = {p: [] for p in trainers}
        for r in range(repeats):
            for p in list(trainers)[:: 1 if r % 2 == 0 else -1]:
                trainer = trainers[p]
                stats = trainer.selfplay.search.stats
                leaves, start = stats["leaves"], time.perf_counter()
                for _ in range(moves):
                    trainer.step()
                _settled(trainer)
                rates[p].append((stats["leaves"] - leaves) / (time.perf_counter() - start))
    finally:
        for trainer in trainers.values():
            trainer.close()
    medians = {p: statistics.median(v) for p, v in rates.items()}
    rows = [(f"Zèbres AlphaZero self-play, {_where(p)}", medians[p],
             "network leaf evaluations/s") for p in AZ_PROCESSES]
    return rows + [("Zèbres AlphaZero: ratio 2 self-play processes / in the learner's process",
                    medians[2] / medians[0], "x")]


def _where(processes):
    return ("in the learner's process, in turn" if processes == 0 else
            f"in {processes} processes beside the learner")


def _settled(trainer):
    """Wait for a self-play move in flight, if any."""
    if hasattr(trainer.selfplay, "wait"):
        trainer.selfplay.wait()


def _untimed_result(update):
    """``update`` with its metrics dropped (``interleaved_rates`` reads a returned value as
    the seconds a run timed itself)."""
    def run():
        update()

    return run


def measure(quick=False, progress=print):
    """Every row: ``[(what, value, unit)]``."""
    torch.set_num_threads(1)
    return (ppo_rows(3 if quick else 15, progress)
            + az_rows(2 if quick else 5, 5 if quick else 20, 20 if quick else 150, progress))
