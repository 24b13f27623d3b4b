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

The main process is worker 0, the trainer users hold (``savanna.agents.ppo.Trainer``);
``Workers`` starts the others (``spawn``: no state copied from a process that has threads
running) and sends them commands over pipes: update, their state for a checkpoint, load a
state, close. Shared memory and a barrier rather than ``torch.distributed``: no port to pick,
no process-wide default group taken from the user, and two processes on one machine need
nothing more. Commands and answers go through the pipes as plain pickles, tensors by value:
torch's own pickling would move them to shared memory, and a worker would then step the same
optimizer buffers as the sender.
"""
import pickle
import threading

import torch
import torch.multiprocessing as mp

__all__ = ["GradientMean", "Workers"]

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


class Workers:
    """Processes 1 .. ``world - 1`` of a PPO run (the caller is process 0), each a
    ``trainer_class(config, game, rank=k, mean=mean)`` that follows the commands sent here."""

    def __init__(self, trainer_class, config, game, mean, context):
        self.mean = mean
        self.pipes, self.processes = [], []
        for rank in range(1, mean.world):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve,
                                      args=(trainer_class, config, game, rank, mean, theirs),
                                      daemon=True, name=f"savanna-ppo-worker-{rank}")
            process.start()
            theirs.close()
            self.pipes.append(ours)
            self.processes.append(process)
        self.results()  # each has built its trainer

    def send(self, command, *args):
        """Send one command to every worker (``args`` one item per worker, if any)."""
        for k, pipe in enumerate(self.pipes):
            _send(pipe, (command, *(a[k] for a in args)))

    def results(self):
        """Every worker's answer to the last command, in rank order; a worker's error is
        raised here, in one line."""
        answers = []
        for rank, pipe in enumerate(self.pipes, start=1):
            try:
                status, value = _receive(pipe)
            except EOFError:
                raise RuntimeError(f"PPO worker {rank} exited unexpectedly") from None
            if status == "error":
                raise RuntimeError(f"PPO worker {rank} failed: {value}")
            answers.append(value)
        return answers

    def close(self):
        for pipe in self.pipes:
            try:
                _send(pipe, ("close",))
            except (BrokenPipeError, OSError):
                pass
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
        self.pipes, self.processes = [], []


def context():
    """The multiprocessing context of the workers (torch's, so tensors go by shared memory)."""
    return mp.get_context("spawn")


def _serve(trainer_class, config, game, rank, mean, pipe):
    """A worker process: build the trainer, then answer commands until ``close``."""
    try:
        trainer = trainer_class(config, game, rank=rank, mean=mean)
        _send(pipe, ("ok", None))
        while True:
            command, *args = _receive(pipe)
            if command == "close":
                return
            if command == "update":
                answer = trainer.local_update(*args)
            elif command == "state":
                answer = trainer.shard_state()
            else:  # "load"
                answer = trainer.load_state_dict(*args)
            _send(pipe, ("ok", answer))
    except (EOFError, KeyboardInterrupt):
        mean.abort()
    except Exception as err:  # sent to process 0, which raises it
        mean.abort()
        _send(pipe, ("error", f"{type(err).__name__}: {err}"))


def _send(pipe, message):
    pipe.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))


def _receive(pipe):
    return pickle.loads(pipe.recv_bytes())
