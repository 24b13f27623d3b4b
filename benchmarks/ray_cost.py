"""What Ray costs against the local pool, and what it could give on more machines.

    python -m savanna.benchmarks.ray_cost [--agents 6] [--games-per-pair 64] [--address ADDR]

A round robin of cheap agents on Zèbres: games/s on the local pool and on Ray (first run and
running), per task the games, seconds and bytes each way and the driver's cost of one task,
and a projection on paper to 8 and 64 machines (``min(machines * cores * rate_per_core,
games_per_task / driver_seconds_per_task)``).
"""
import argparse
import os
import pickle
import time

from savanna.agents.arena.matches import play_job, tournament
from savanna.agents.play.registry import make_agent

__all__ = ["main", "measure"]

FIELD = ("random", "greedy", "mcts:sims=16")


def _noop(item):
    return item


def measure(agents=6, games_per_pair=64, address=None, write=print):
    """The measurements of the module docstring, as a dict."""
    from savanna.agents.distributed import connect, ray_map
    from savanna.zebres.game import ZebresGame

    game = ZebresGame()
    field = [make_agent(FIELD[i % len(FIELD)]) for i in range(agents)]
    cores = os.cpu_count()
    out = {"agents": agents, "games_per_pair": games_per_pair, "cores": cores}

    def timed(**kwargs):
        started = time.perf_counter()
        result = tournament(game, field, games_per_pair, seed=1, progress=False, **kwargs)
        return time.perf_counter() - started, result

    write("local pool: warm-up, then measured")
    timed(workers=cores)
    seconds, local = timed(workers=cores)
    games = sum(r.games for _, r in local.matches)
    out.update(games=games, local_games_per_s=games / seconds)
    write("one process (compute time per task)")
    one_seconds, _ = timed(workers=1)
    out["one_process_games_per_s"] = games / one_seconds
    ray = connect(address) if address else _local_ray(cores)
    out["ray_cpus"] = int(ray.cluster_resources().get("CPU", 0))
    write(f"Ray ({out['ray_cpus']} CPUs): warm-up, then measured")
    cold_seconds, _ = timed(backend="ray", address=address)
    out["ray_cold_games_per_s"] = games / cold_seconds
    ray_seconds, distributed = timed(backend="ray", address=address)
    if not all((a.returns == b.returns).all()
               for (_, a), (_, b) in zip(local.matches, distributed.matches)):
        raise RuntimeError("Ray and the local pool gave different games")
    out["ray_games_per_s"] = games / ray_seconds
    out["overhead"] = out["local_games_per_s"] / out["ray_games_per_s"]

    batch = min(64, -(-games_per_pair // 16))
    matches = [(members, games_per_pair, 1, batch) for members, _ in local.matches]
    tasks = sum(-(-games_per_pair // batch) for _ in matches)
    job = (0, 0, 0, batch)
    out.update(tasks=tasks, games_per_task=games / tasks,
               task_seconds=one_seconds / tasks,
               shared_bytes=len(pickle.dumps((game, field, matches))),
               job_bytes=len(pickle.dumps((play_job, job))),
               result_bytes=len(pickle.dumps(play_job(game, field, matches, job))))
    n = 2000
    started = time.perf_counter()
    for _ in ray_map(_noop, (), range(n), address):
        pass
    out["driver_seconds_per_task"] = (time.perf_counter() - started) / n
    per_core = out["ray_games_per_s"] / out["ray_cpus"]
    limit = out["games_per_task"] / out["driver_seconds_per_task"]
    for machines in (8, 64):
        out[f"projected_games_per_s_{machines}"] = min(machines * cores * per_core, limit)
        out[f"projected_speedup_{machines}"] = (out[f"projected_games_per_s_{machines}"]
                                                / out["local_games_per_s"])
    out["driver_limit_games_per_s"] = limit
    return out


def _local_ray(cores):
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    return ray


def report(m):
    """The measurements as a Markdown table."""
    rows = [
        (f"tournament: {m['agents']} agents, {m['games']} games, {m['tasks']} tasks", "", ""),
        ("one process", f"{m['one_process_games_per_s']:,.1f}", "games/s"),
        (f"local pool, {m['cores']} processes (started by the tournament)",
         f"{m['local_games_per_s']:,.1f}", "games/s"),
        (f"Ray, {m['ray_cpus']} CPUs, first run (workers starting)",
         f"{m['ray_cold_games_per_s']:,.1f}", "games/s"),
        (f"Ray, {m['ray_cpus']} CPUs, workers running", f"{m['ray_games_per_s']:,.1f}",
         "games/s"),
        ("overhead (local / Ray)", f"{m['overhead']:.2f}", "x"),
        ("games per task", f"{m['games_per_task']:.1f}", "games"),
        ("compute per task (one process)", f"{1000 * m['task_seconds']:,.0f}", "ms"),
        ("sent once per worker (game, agents)", f"{m['shared_bytes']:,}", "bytes"),
        ("sent per task (job)", f"{m['job_bytes']:,}", "bytes"),
        ("returned per task (results)", f"{m['result_bytes']:,}", "bytes"),
        ("driver cost per task (empty tasks)", f"{1000 * m['driver_seconds_per_task']:.2f}",
         "ms"),
        ("driver limit (games per task / driver cost)", f"{m['driver_limit_games_per_s']:,.0f}",
         "games/s"),
    ]
    for machines in (8, 64):
        rows.append((f"projected, {machines} machines of {m['cores']} cores (on paper)",
                     f"{m[f'projected_games_per_s_{machines}']:,.0f} "
                     f"({m[f'projected_speedup_{machines}']:.0f}x local)", "games/s"))
    lines = ["| measurement | value | unit |", "|---|---:|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m savanna.benchmarks.ray_cost",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=6, help="agents of the round robin")
    parser.add_argument("--games-per-pair", type=int, default=64, help="games of each match")
    parser.add_argument("--address", help="a Ray cluster (default: a Ray started here)")
    args = parser.parse_args(argv)
    print(report(measure(args.agents, args.games_per_pair, args.address)))


if __name__ == "__main__":
    main()
