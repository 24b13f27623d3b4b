"""``savanna sweep ppo|az <game> --trials N --backend ray``: a search over training settings
with Ray Tune and the ASHA early-stopping scheduler.

    savanna sweep ppo zebres --trials 16 --budget 2M --rungs 4

Every trial is a normal run in the sweep's folder, played in ``rungs`` equal parts of the budget
(each part resumes it); after each part its own evaluation is reported to ASHA, which stops the
lower half of each rung. The sampled settings (``SPACES``) go on top of ``--config`` and ``-o``;
the trials share the seed. ``sweep.csv`` lists every trial; the best settings are printed.
"""
import math
from pathlib import Path

from savanna.cli.arguments import (
    add_game_options,
    address_help,
    parse_count,
    parse_number,
    positive_int,
    run_settings,
    seed,
)
from savanna.cli.run_folders import EVAL_FILE, read_csv
from savanna.errors import clip
from savanna.files import new_folder, write_csv

__all__ = ["SPACES", "add_parser", "run", "sweep"]

# The settings searched, as (kind, low, high) or ("choice", values).
SPACES = {
    "ppo": {"lr": ("loguniform", 1e-4, 3e-3), "ent_coef": ("loguniform", 1e-3, 3e-2),
            "clip": ("choice", (0.1, 0.2, 0.3))},
    "az": {"lr": ("loguniform", 3e-4, 3e-3), "sims": ("choice", (16, 32, 64)),
           "value_weight": ("uniform", 0.5, 2.0)},
}
BUDGET = {"ppo": "steps", "az": "minutes"}


def sweep(algorithm, settings, trials=8, budget=None, rungs=3, runs_dir="runs", seed=0,
          address=None, write=print):
    """Search ``SPACES[algorithm]`` on top of ``settings`` (a dict of the run's settings,
    ``game`` included) with ``trials`` trials of ``budget`` steps (PPO) or minutes (AlphaZero)
    each, cut in ``rungs`` parts for ASHA; returns ``(folder, rows)``, ``rows`` the trials,
    best first."""
    from savanna.agents.distributed import connect

    if algorithm not in SPACES:
        raise ValueError(f"sweep one of {', '.join(SPACES)}, got {algorithm!r}")
    cls = _config_class(algorithm)
    name = BUDGET[algorithm]
    settings = {**settings, **({} if budget is None else {name: budget})}
    base = cls.from_dict(settings)  # the mistakes in the settings, before any trial
    connect(address)
    from ray import tune
    from ray.tune.schedulers import ASHAScheduler
    from ray.tune.search import BasicVariantGenerator

    folder = new_folder(runs_dir, f"sweep-{algorithm}-{base.game}").resolve()
    write(f"sweeping {algorithm} on {base.game}: {trials} trials, {folder}")
    space = {key: getattr(tune, spec[0])(*spec[1:]) for key, spec in SPACES[algorithm].items()}
    spec = {"algorithm": algorithm, "settings": base.to_dict(), "rungs": rungs,
            "folder": str(folder)}
    tuner = tune.Tuner(
        tune.with_parameters(_trial, spec=spec), param_space=space,
        tune_config=tune.TuneConfig(
            metric="score", mode="max", num_samples=trials, reuse_actors=True,
            search_alg=BasicVariantGenerator(random_state=seed),
            scheduler=ASHAScheduler(max_t=rungs, grace_period=1, reduction_factor=2)),
        run_config=tune.RunConfig(name="tune", storage_path=str(folder), verbose=0))
    grid = tuner.fit()
    rows = []
    for result in grid:
        if result.error is not None or not result.metrics:
            rows.append({**result.config, "rungs": 0, "score": math.nan, "folder": "",
                         "error": str(result.error).splitlines()[0][:200]})
            continue
        rows.append({**result.config, "rungs": result.metrics["training_iteration"],
                     "score": result.metrics["score"], "folder": result.metrics["folder"],
                     "error": ""})
    rows.sort(key=lambda r: (r["rungs"], -math.inf if math.isnan(r["score"]) else r["score"]),
              reverse=True)  # the trials ASHA let go furthest, then the best score
    write_csv(folder / "sweep.csv", rows)
    best = rows[0]
    if not best["folder"]:
        raise RuntimeError(f"every trial failed; the first: {best['error']}")
    write(f"best of {trials} trials: " + ", ".join(
        f"{key}={best[key]:.4g}" for key in SPACES[algorithm]) +
        f": score {best['score']:.1%} after {best['rungs']} of {rungs} rungs, {best['folder']}")
    evaluation = read_csv(Path(best["folder"]) / EVAL_FILE)[-1]
    write("its last evaluation: " + ", ".join(
        f"{key} {value:.1%}" for key, value in evaluation.items()
        if key.startswith(("win_", "score_"))))
    return folder, rows


def _trial(params, spec):
    """One trial, in a Ray Tune worker: the run in ``rungs`` parts, each reported to ASHA."""
    from ray import tune

    algorithm, rungs = spec["algorithm"], spec["rungs"]
    module = _module(algorithm)
    cls = _config_class(algorithm)
    name = BUDGET[algorithm]
    settings = {**spec["settings"], **params}
    total = settings[name]
    quiet = {"write": lambda *_: None, **({"progress": False} if algorithm == "ppo" else {})}
    folder = None
    for rung in range(1, rungs + 1):
        part = total * rung / rungs
        config = cls.from_dict({**settings, name: int(part) if name == "steps" else part})
        if folder is None:
            from savanna.registry import make_game

            folder = module.run_training(config, runs_dir=spec["folder"], **quiet,
                                         game=make_game(config.game, **config.game_options))
        else:
            module.run_training(config, resume=folder, **quiet)
        row = read_csv(Path(folder) / EVAL_FILE)[-1]
        scores = [value for key, value in row.items() if key.startswith("score_")]
        tune.report({"score": sum(scores) / len(scores), "folder": str(folder)})


def _module(algorithm):
    from savanna.cli import train_az, train_ppo

    return {"ppo": train_ppo, "az": train_az}[algorithm]


def _config_class(algorithm):
    if algorithm == "ppo":
        from savanna.agents.models.ppo_config import PPOConfig

        return PPOConfig
    from savanna.agents.models.az_config import AZConfig

    return AZConfig


# ----- the command line -------------------------------------------------------------------
def add_parser(commands):
    """``savanna sweep`` on the ``savanna`` command's sub-parsers."""
    parser = commands.add_parser(
        "sweep", description=__doc__)
    parser.add_argument("algorithm", choices=sorted(SPACES), help="ppo or az")
    parser.add_argument("game", nargs="?", help="the game (or give --config)")
    parser.add_argument("--trials", type=positive_int, default=8,
                        help="settings tried (default: 8)")
    parser.add_argument("--budget", help="each trial's budget in full: steps for ppo (3M, "
                                         "250k), minutes for az (default: the setting's)")
    parser.add_argument("--rungs", type=positive_int, default=3,
                        help="parts of the budget, ASHA's rungs (default: 3)")
    parser.add_argument("--backend", choices=("ray",), default="ray",
                        help="the engine that runs the trials: Ray Tune (the only one)")
    parser.add_argument("--address", metavar="ADDR",
                        help=address_help("--backend ray"))
    parser.add_argument("--config", metavar="FILE", type=Path,
                        help="a JSON file of the settings not searched, e.g. a run's "
                             "config.json")
    parser.add_argument("--seed", type=seed, default=0,
                        help="seed of the runs and of the sampled settings (default: 0)")
    parser.add_argument("--runs-dir", default="runs", help="where the sweep's folder goes "
                                                           "(default: runs)")
    add_game_options(parser)
    parser.set_defaults(run=run, resume=None)
    return parser


def run(args, extra=None):
    from savanna.agents.distributed import require_ray

    require_ray()
    args.prog = f"savanna sweep {args.algorithm}"
    settings = run_settings(_config_class(args.algorithm), args, ())
    budget = None
    if args.budget is not None:
        budget = (parse_count(args.budget, "--budget") if args.algorithm == "ppo" else
                  _minutes(args.budget))
    sweep(args.algorithm, settings, args.trials, budget, args.rungs, args.runs_dir, args.seed,
          args.address)
    return 0


def _minutes(text):
    value = parse_number(text, "--budget")
    if not value > 0:
        raise ValueError(f"--budget must be minutes > 0 for az, got {clip(text)}")
    return value
