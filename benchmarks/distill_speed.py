"""Distillation: the teacher's self-play speed, and the gates of fitted networks.

    python -m savanna.benchmarks --distill                    teacher speed, every game
    python -m savanna.benchmarks --gates runs/fit-zebres ...  the gate reports of fits

``speed`` times ``savanna.agents.training.distill.play_part`` (UCT-64 self-play of a part of
``games`` games, searched together in one compiled call per move) after one warm-up part, on one
numba thread and on all of them, side by side in alternating repeats; it reports decisions
(positions of the dataset) per second of wall time, medians. ``gate_section`` turns the
``report.json`` of ``savanna fit`` runs into one table: held-out value error by phase of the
game, next to the teacher's own root value, per network.
"""
import json
import time
from pathlib import Path

from savanna.benchmarks.throughput import measured_configs

__all__ = ["CONFIGS", "gate_section", "speed"]

CONFIGS = tuple(measured_configs(most=True))  # every game, with its fewest and most players


def speed(games=128, repeats=3, teacher="mcts:sims=64", configs=CONFIGS):
    """``[(what, positions per second, "/s")]``: each configuration on one thread and on all."""
    import numba

    from savanna.agents.training.distill import DistillConfig, play_part
    from savanna.registry import resolve_game

    rows, threads = [], numba.get_num_threads()
    for name, options in configs:
        game = resolve_game(name, options)
        config = DistillConfig(game=name, game_options=options, games=games, part_games=games,
                               teacher=teacher)
        play_part(game, DistillConfig(**{**config.to_dict(), "games": 8, "part_games": 8}), 0)
        rates = {1: [], threads: []}
        for k in range(repeats):
            for t in rates:
                numba.set_num_threads(t)
                started = time.perf_counter()
                part = play_part(game, DistillConfig(**{**config.to_dict(), "seed": k}), 0)
                rates[t].append(len(part["player"]) / (time.perf_counter() - started))
        numba.set_num_threads(threads)
        label = f"{name}, {game.num_players} players, {teacher} teacher"
        for t, values in rates.items():
            rows.append((f"{label}: positions/s on {t} thread{'s' * (t > 1)}",
                         sorted(values)[len(values) // 2], "/s"))
    return rows


def gate_section(folders):
    """A Markdown section: the gate of each ``savanna fit`` run folder in ``folders``."""
    parts = []
    for folder in map(Path, folders):
        report = json.loads((folder / "report.json").read_text())
        config = json.loads((folder / "config.json").read_text())
        data = config["data_config"]
        seeds = ", ".join(str(d["seed"]) for d in config.get("data_configs", [data]))
        options = ", ".join(f"{k}={v}" for k, v in data["game_options"].items())
        head = (f"### {data['game']}{f' ({options})' if options else ''}\n\n"
                f"Data: `{data['teacher']}` self-play, {data['games']:,} games "
                f"(`savanna distill`, seeds {seeds}); network {config['fit']['hidden']}, "
                f"{report['steps']:,} steps; {report['heldout_positions']:,} held-out "
                f"positions of games never trained on.\n")
        lines = ["| decisions | positions | value MSE vs target | value MSE vs outcome | "
                 "teacher MSE vs outcome | corr. with teacher | policy KL | uniform KL | "
                 "teacher's move |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for name, row in [("all", report["all"]), *report["phases"].items()]:
            lines.append(f"| {name} | {row['positions']:,} | {row['value_mse_vs_target']:.3f} | "
                         f"{row['value_mse_vs_outcome']:.3f} | "
                         f"{row['teacher_mse_vs_outcome']:.3f} | "
                         f"{row['value_corr_with_teacher']:.2f} | {row['policy_kl']:.3f} | "
                         f"{row['uniform_kl']:.3f} | {row['teacher_move_agreement']:.0%} |")
        parts.append(head + "\n" + "\n".join(lines) + "\n")
    return "\n".join(parts)
