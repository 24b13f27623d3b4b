"""PPO on several cores: worker processes that each play a share of the games and learn from
them in lockstep, their gradients averaged before every optimizer step.

``GradientMean`` is a shared-memory table of one flat gradient per worker and a barrier over
semaphores; every process adds the rows up in rank order, so the weights stay identical bit for
bit without being sent, and a run gives the same results for a seed and a worker count. The
main process is worker 0; the others are ``savanna.agents.processes.Servers``. Why shared memory
rather than ``torch.distributed``, and how the barrier works: the architecture guide.
"""
import torch

__all__ = ["GradientMean"]

BARRIER_SECONDS = 600  # longest wait for the other workers at one minibatch step


class GradientMean:
    """Averages the gradients of ``world`` processes' copies of one network in place."""

    def __init__(self, parameter_count, world, context):
        self.world = world
        self.tables = torch.zeros(2, world, parameter_count).share_memory_()
        rounds = max(1, (world - 1).bit_length())
        self.signals = [[context.Semaphore(0) for _ in range(rounds)] for _ in range(world)]
        self.broken = context.RawValue("b", 0)
        self.turn = 0
        self.averaged = None  # this process's mean gradient, which the .grad are views of

    def average(self, rank, parameters, meanwhile=None):
        """Replace each parameter's ``.grad`` by the mean over the workers' (all of them call
        this at the same step, each with its ``rank``); ``meanwhile()``, work that needs no
        gradient, is called once this worker's is shared and before it waits for the
        others'. Returns what ``meanwhile`` returns."""
        table = self.tables[self.turn]
        self.turn ^= 1
        torch.cat([p.grad.reshape(-1) for p in parameters], out=table[rank])
        self._signal(rank, 0)
        result = meanwhile() if meanwhile is not None else None
        self._wait(rank)
        if self.averaged is None:
            self.averaged = torch.empty(table.shape[1])
        torch.add(table[0], table[1], out=self.averaged)
        for k in range(2, self.world):  # in rank order, as every worker does
            self.averaged.add_(table[k])
        self.averaged.div_(self.world)
        start = 0
        for p in parameters:
            p.grad = self.averaged[start:start + p.numel()].view_as(p)
            start += p.numel()
        return result

    def _signal(self, rank, k):
        """Round ``k``: tell the worker ``2 ** k`` ranks on that this one is there."""
        self.signals[(rank + (1 << k)) % self.world][k].release()

    def _wait(self, rank):
        """The rounds after ``_signal(rank, 0)``: in each, wait for the worker ``2 ** k``
        ranks back, then signal the next round's."""
        mine = self.signals[rank]
        for k in range(len(mine)):
            if not mine[k].acquire(timeout=BARRIER_SECONDS) or self.broken.value:
                raise RuntimeError("a PPO worker process stopped in the middle of an update")
            if k + 1 < len(mine):
                self._signal(rank, k + 1)

    def abort(self):
        """Wake every waiting worker with an error (a worker process died)."""
        self.broken.value = 1
        for signals in self.signals:
            for semaphore in signals:
                semaphore.release()
