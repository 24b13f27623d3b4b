"""Objects that live in processes of their own, called by method name: the trainers' way of
using more cores on one machine (PPO's workers, AlphaZero's self-play processes).

``Servers(make, arguments, context)`` starts one process per tuple of ``arguments`` and builds
``make(*args)`` in it; ``call(method, *per_server)`` sends every server a call of that method
(each its own item of every ``per_server`` list), ``results()`` collects their answers in
order. Calls and answers go through pipes as plain pickles, tensors by value: torch's own
pickling would move them to shared memory, and the receiver would then write into the
sender's tensors (a worker stepping the optimizer buffers of another). What a process is
built with (shared tensors, barriers) goes through ``context`` as usual. A server that fails
sends its error, which ``results()`` raises in one line, and calls ``on_failure`` (say, to
break a barrier that the others wait at).

Processes are started with ``spawn`` (torch's context: nothing copied from a process that has
threads running), so a script that starts them needs Python's ``if __name__ == "__main__":``
guard.
"""
import pickle

import torch.multiprocessing as mp

__all__ = ["Servers", "context"]


def context():
    """The multiprocessing context of the servers (torch's ``spawn``)."""
    return mp.get_context("spawn")


class Servers:
    """One process per tuple of ``arguments``, each holding ``make(*args)`` (module docstring)."""

    def __init__(self, make, arguments, context, on_failure=None, name="savanna-server"):
        self.pipes, self.processes = [], []
        for k, args in enumerate(arguments):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(make, args, on_failure, theirs),
                                      daemon=True, name=f"{name}-{k + 1}")
            process.start()
            theirs.close()
            self.pipes.append(ours)
            self.processes.append(process)
        self.results()  # each has built its object

    def call(self, method, *per_server):
        """Every server calls ``method`` (its own item of each list in ``per_server``)."""
        for k, pipe in enumerate(self.pipes):
            _send(pipe, (method, [items[k] for items in per_server]))

    def results(self):
        """Every server's answer to the last call, in order; a server's error is raised here,
        in one line."""
        answers = []
        for k, pipe in enumerate(self.pipes):
            try:
                status, value = _receive(pipe)
            except EOFError:
                raise RuntimeError(f"{self.processes[k].name} exited unexpectedly") from None
            if status == "error":
                raise RuntimeError(f"{self.processes[k].name} failed: {value}")
            answers.append(value)
        return answers

    def close(self):
        """Stop the processes (each finishes the call it is in first)."""
        for pipe in self.pipes:
            try:
                _send(pipe, ("close", []))
            except (BrokenPipeError, OSError):
                pass
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
        self.pipes, self.processes = [], []


def _serve(make, args, on_failure, pipe):
    """A server process: build the object, then answer calls until ``close``."""
    try:
        target = make(*args)
        _send(pipe, ("ok", None))
        while True:
            method, call_args = _receive(pipe)
            if method == "close":
                return
            _send(pipe, ("ok", getattr(target, method)(*call_args)))
    except (EOFError, KeyboardInterrupt):
        if on_failure is not None:
            on_failure()
    except Exception as err:  # sent to the caller, which raises it
        if on_failure is not None:
            on_failure()
        _send(pipe, ("error", f"{type(err).__name__}: {err}"))


def _send(pipe, message):
    pipe.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))


def _receive(pipe):
    return pickle.loads(pipe.recv_bytes())
