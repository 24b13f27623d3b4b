"""Ray, the optional engine for more than one machine (``pip install 'savanna-games[ray]'``).

``ray_map(fn, shared, items, address)`` runs ``fn(*shared, item)`` for every item as a Ray task
(``shared`` goes to the object store once) and yields ``(item, result)`` as they finish; a task
whose worker or node dies runs again (``MAX_RETRIES``; the arena's batches are seeded, so a
retry gives the same games). ``connect(address)`` joins a cluster once per process (``"auto"``,
``"local"``, or None as ``ray.init`` does). Every node needs the same savanna installed.
"""
import copy
import importlib.util
import logging
import os

__all__ = ["MAX_RETRIES", "connect", "ray_map", "require_ray"]

MAX_RETRIES = 4  # runs of a task after its worker or node died


def require_ray():
    """The ``ray`` module, or a one-line ValueError saying how to install it."""
    if importlib.util.find_spec("ray") is None:
        raise ValueError("--backend ray needs Ray: pip install 'savanna-games[ray]'")
    # Else Ray's distributed tqdm replaces builtins.print in this process the first time Tune
    # prints its table, and numba compiles nothing that prints from then on (numba's own
    # get_num_threads does: a vector env first made after a sweep would fail to compile).
    os.environ.setdefault("RAY_TQDM_PATCH_PRINT", "0")
    import ray

    return ray


def connect(address=None):
    """``ray``, initialised: on the cluster at ``address`` or, if Ray already runs in this
    process, as it is. Ray's own notices while it starts (the token authentication one) are
    not shown: a command's output is its results, and an error is one line."""
    ray = require_ray()
    if not ray.is_initialized():
        logger = logging.getLogger("ray")
        level = logger.level
        logger.setLevel(logging.ERROR)
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        finally:
            logger.setLevel(level)
    return ray


def _call(fn, shared, item):
    return item, fn(*shared, item)


def ray_map(fn, shared, items, address=None):
    """``(item, fn(*shared, item))`` for each of ``items``, as their Ray tasks finish; every
    task is submitted here, at once (Ray queues what the cluster cannot start yet)."""
    ray = connect(address)
    task = ray.remote(_call).options(max_retries=MAX_RETRIES)
    shared_ref = ray.put(tuple(shared))
    return _finished(ray, [task.remote(fn, shared_ref, item) for item in items])


def _finished(ray, pending):
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            # Ray returns NumPy arrays as read-only views of its object store (which they keep
            # alive): a copy gives the writeable arrays of their own that the local pool's
            # results are, and frees the store.
            yield copy.deepcopy(ray.get(done[0]))
    finally:
        for ref in pending:  # stopped early (an error, Ctrl-C): drop what is left
            ray.cancel(ref)
