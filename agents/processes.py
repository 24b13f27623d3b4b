"""Objects that live in processes of their own, called by method name: the trainers' way of
using more cores on one machine (PPO's workers, AlphaZero's self-play processes).

``Servers(make, arguments, context)`` starts one process per tuple of ``arguments`` and builds
``make(*args)`` in it; ``call(method, *per_server)`` sends every server a call, ``results()``
collects the answers in order (a server's error is raised in one line, and ``on_failure`` is
called, also when a server is killed). Calls and answers are plain pickles, tensors by value:
torch's own pickling would share memory, and one worker would write into another's tensors.
Processes are started with ``spawn``; a script without the ``if __name__ == "__main__":``
guard works unless it sends them a class it defines (``main_not_rerun``).
"""
import contextlib
import importlib.machinery
import multiprocessing.connection
import pickle
import sys
import threading

__all__ = ["Servers", "context", "main_not_rerun"]


def context():
    """The multiprocessing context of the servers (torch's ``spawn``)."""
    import torch.multiprocessing as mp

    return mp.get_context("spawn")


@contextlib.contextmanager
def main_not_rerun(context, objects):
    """Around the start of processes: a spawned process first runs the parent's main script
    again (as ``__mp_main__``), so that objects of classes defined there unpickle; a script
    that starts processes at top level, without ``if __name__ == "__main__":``, would start
    them again in every child (multiprocessing's 'bootstrapping phase' RuntimeError, over and
    over). When none of ``objects`` (what is sent to the children) is of a class from
    ``__main__``, the children are told that ``__main__`` is not to be run (a spec named
    ``__main__``, which multiprocessing skips). With such a class, the guard is needed, as
    everywhere in multiprocessing."""
    main = sys.modules.get("__main__")
    if (context.get_start_method() == "fork" or main is None
            or any(type(x).__module__ == "__main__"
                   or isinstance(x, type) and x.__module__ == "__main__" for x in objects)):
        yield
        return
    spec = main.__spec__
    main.__spec__ = importlib.machinery.ModuleSpec("__main__", None)
    try:
        yield
    finally:
        main.__spec__ = spec


class Servers:
    """One process per tuple of ``arguments``, each holding ``make(*args)`` (module docstring)."""

    def __init__(self, make, arguments, context, on_failure=None, name="savanna-server"):
        self.pipes, self.processes = [], []
        sent = [make, *(x for args in arguments for x in args)]
        with main_not_rerun(context, sent):
            for k, args in enumerate(arguments):
                ours, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(make, args, on_failure, theirs),
                                          daemon=True, name=f"{name}-{k + 1}")
                process.start()
                theirs.close()
                self.pipes.append(ours)
                self.processes.append(process)
        self.closing = False
        if on_failure is not None:
            threading.Thread(target=self._watch, args=(on_failure,), daemon=True).start()
        self.results()  # each has built its object

    def _watch(self, on_failure):
        """Calls ``on_failure`` if a server process ends before ``close``."""
        multiprocessing.connection.wait([p.sentinel for p in self.processes])
        if not self.closing:
            on_failure()

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
        self.closing = True
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
