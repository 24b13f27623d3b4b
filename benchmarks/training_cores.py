"""Training on one core and on two (issue #23): ``python -m savanna.benchmarks --training``.

* **PPO**: Zèbres at the peers run's settings (``peers.PPO_SETTINGS``: 256 games, rollouts of
  32, 2 epochs of 4 minibatches, hidden (128, 128), random opponents, one torch thread per
  process), learner decisions per second of a whole update (rollout and learning) with one
  worker process and with two (``PPOConfig.workers``). Both trainers are built first and
  their updates timed in turn within every repeat (``interleaved_rates``), so a load that comes
  and goes touches both alike; the median of the repeats and the ratio of medians.
"""
import torch

from savanna.benchmarks.peers import PPO_SETTINGS
from savanna.benchmarks.throughput import interleaved_rates

__all__ = ["measure", "ppo_rows"]

WORKERS = (1, 2)


def ppo_trainer(workers):
    from savanna.agents.ppo import PPOConfig, Trainer

    return Trainer(PPOConfig(game="zebres", seed=0, opponents={"random": 1.0}, threads=1,
                             steps=10**12, workers=workers, **PPO_SETTINGS))


def ppo_rows(repeats, progress=print):
    """``[(what, value, unit)]``: PPO's rate with each worker count and their ratio."""
    progress(f"training: PPO with {' and '.join(map(str, WORKERS))} workers")
    trainers = {w: ppo_trainer(w) for w in WORKERS}
    try:
        runs = {w: (_untimed_result(t.train_update), t.config.batch_size)
                for w, t in trainers.items()}
        rates = interleaved_rates(runs, repeats)
    finally:
        for trainer in trainers.values():
            trainer.close()
    rows = [(f"Zèbres PPO end to end, {w} worker process{'es' if w > 1 else ''} "
             f"(1 torch thread each)", rates[w].median, "learner steps/s") for w in WORKERS]
    return rows + [("Zèbres PPO: ratio 2 workers / 1 worker",
                    rates[2].median / rates[1].median, "x")]


def _untimed_result(update):
    """``update`` with its metrics dropped (``interleaved_rates`` reads a returned number as
    the seconds a run timed itself)."""
    return lambda: update() and None


def measure(quick=False, progress=print):
    """Every row: ``[(what, value, unit)]``."""
    torch.set_num_threads(1)
    return ppo_rows(3 if quick else 15, progress)
