"""PPO on several cores: worker processes that each play a share of the games and learn from
them in lockstep, their gradients averaged before every optimizer step.

Every process holds the same network and optimizer. At each minibatch step each one writes
its flattened gradient into its row of a shared-memory table (``GradientMean``), waits at a
barrier until every row is written, then adds the rows up in rank order and divides by the
count:
the same arithmetic on the same numbers in every process, so the weights stay identical
bit for bit without being sent, and a run gives the same results for a seed and a worker
count. Two tables alternate, so a process that is one step ahead never overwrites a row that
another still reads; a worker that fails breaks the barrier, so no process waits for ever.

The main process is worker 0, the trainer users hold (``savanna.agents.ppo.Trainer``); it
starts the others as ``savanna.agents.processes.Servers`` and calls their updates. Shared
memory and a barrier rather than ``torch.distributed``: no port to pick, no process-wide
default group taken from the user, and processes on one machine need nothing more.
"""
import threading

import torch

__all__ = ["GradientMean"]

BARRIER_SECONDS = 600  # longest wait for the other workers at one minibatch step


class GradientMean:
    """Averages the gradients of ``world`` processes' copies of one network in place."""

    def __init__(self, parameter_count, world, context):
        self.world = world
        self.tables = torch.zeros(2, world, parameter_count).share_memory_()
        self.barrier = context.Barrier(world, timeout=BARRIER_SECONDS)
        self.turn = 0

    def average(self, rank, parameters):
        """Replace each parameter's ``.grad`` by the mean over the workers' (all of them call
        this at the same step, each with its ``rank``)."""
        table = self.tables[self.turn]
        self.turn ^= 1
        grads = [p.grad for p in parameters]
        torch.cat([g.reshape(-1) for g in grads], out=table[rank])
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            raise RuntimeError("a PPO worker process stopped in the middle of an update") from None
        start = 0
        for g in grads:
            rows = table[:, start:start + g.numel()].view(self.world, *g.shape)
            torch.add(rows[0], rows[1], out=g)
            for k in range(2, self.world):  # in rank order, as every worker does
                g.add_(rows[k])
            g.div_(self.world)
            start += g.numel()

    def abort(self):
        self.barrier.abort()
