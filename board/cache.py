"""What ``savanna serve`` reads from files, built once and shared by concurrent requests.

The first request that asks for a key builds its value (on its own worker thread, never on
the event loop); requests that ask meanwhile wait for that build instead of starting their
own, and a refusal (a ``Refused``) is kept like a value. Keys name what a value was built
from (a file's path, modification time and size), so a changed file is read again. The
entries' weights (file sizes) add up to at most ``budget``, the least recently used going
first.

>>> cache = SharedCache(budget=2**20)
>>> cache.get(("a.jsonl", 1, 10), lambda: [1, 2], weight=10)
[1, 2]
"""
import threading
from collections import OrderedDict
from concurrent.futures import Future

__all__ = ["SharedCache", "stamp_of"]


class SharedCache:
    """Values built once per key and shared (see the module docstring); thread-safe."""

    def __init__(self, budget):
        self.budget = budget
        self._lock = threading.Lock()
        self._entries = OrderedDict()  # key -> (Future, weight)

    def get(self, key, build, weight=1):
        """The value of ``key``: ``build()`` run once, here or by the request that came
        first (this call then waits for it); its exception raised again if it failed."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                future = Future()
                self._entries[key] = (future, weight)
                self._trim()
            else:
                self._entries.move_to_end(key)
                future = entry[0]
        if entry is None:
            try:
                future.set_result(build())
            except Exception as err:
                future.set_exception(err)
        return future.result()

    def _trim(self):
        total = sum(weight for _, weight in self._entries.values())
        while total > self.budget and len(self._entries) > 1:
            _, (_, weight) = self._entries.popitem(last=False)
            total -= weight


def stamp_of(info):
    """What a cached value of a file depends on, from its ``os.stat``: modification time and
    size (with the path, a key)."""
    return info.st_mtime_ns, info.st_size
