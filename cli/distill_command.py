"""``savanna distill`` and ``savanna fit``: a teacher's self-play as a dataset, and a network fitted
to it offline with a gate report.

    savanna distill zebres --teacher mcts:sims=64 --games 60000 --out runs/zebres-uct64
    savanna fit runs/zebres-uct64 --hidden 256,256 --out runs/zebres-fit
    savanna match zebres az:runs/zebres-fit/model.pt mcts:sims=100 --games 400

What each writes and every flag (generated from ``DistillConfig`` and ``FitConfig``): the
AlphaZero guide.
"""
import csv
import dataclasses
import io
import json
from pathlib import Path

from savanna.cli.arguments import (
    add_config_flags,
    add_game_options,
    read_settings,
    run_settings,
)
from savanna.files import atomic_write_text, claimed, new_folder, output_folder
from savanna.registry import make_game

__all__ = ["add_parsers"]


def add_parsers(commands):
    """Register ``distill`` and ``fit`` on the ``savanna`` command's subparsers."""
    distill = commands.add_parser(
        "distill", description=__doc__, setup=_distill_settings)
    distill.add_argument("game", nargs="?", help="the game (not needed with --resume)")
    distill.add_argument("--out", type=Path, help="the dataset folder (default: a new "
                                                  "runs/distill-<game>-<time>)")
    distill.add_argument("--resume", type=Path, metavar="DIR",
                         help="write the missing parts of a stopped dataset")
    distill.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_game_options(distill)
    distill.set_defaults(run=run_distill, prog=distill.prog)

    fit = commands.add_parser(
        "fit", description=__doc__, setup=_fit_settings)
    fit.add_argument("data", type=Path, nargs="+",
                     help="dataset folders written by savanna distill, of one game (several "
                          "are merged: e.g. two seeds of one teacher)")
    fit.add_argument("--out", type=Path, help="the run folder (default: a new "
                                              "runs/fit-<game>-<time>)")
    fit.add_argument("--overwrite", action="store_true", help="let --out hold earlier files")
    fit.add_argument("--partial", action="store_true",
                     help="fit the parts each dataset has recorded so far (one still being "
                          "written, or stopped early)")
    fit.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    fit.set_defaults(run=run_fit, prog=fit.prog)


def _distill_settings(parser):
    from savanna.agents.training.distill_config import DistillConfig

    add_config_flags(parser, DistillConfig)


def _fit_settings(parser):
    from savanna.agents.training.fit_config import FitConfig

    add_config_flags(parser, FitConfig)


def run_distill(args, extra=None):
    from savanna.agents.training.distill import (
        DistillConfig,
        check_teacher_fits,
        distill,
        read_meta,
    )

    settings = run_settings(DistillConfig, args, resumable=())
    if args.resume:
        if args.out:
            raise ValueError("--resume writes into the dataset folder it names; --out is for "
                             "a new dataset")
        folder = args.resume
        config = DistillConfig.from_dict(read_meta(folder)["config"])
    else:
        config = DistillConfig.from_dict(settings)
    game = make_game(config.game, **config.game_options)
    check_teacher_fits(config, game)  # every mistake found before a folder is made
    if not args.resume:
        folder = args.out or new_folder("runs", f"distill-{config.game}")
    distill(config, folder, progress=not args.no_progress, game=game)
    print(f"dataset written to {folder}")


def run_fit(args, extra=None):
    from savanna.agents.training.distill_dataset import load_datasets, read_meta
    from savanna.agents.training.fit import FitConfig, fit, report_text, save_model

    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(FitConfig)
             if getattr(args, f.name, None) is not None}
    settings = {**(read_settings(args.config) if args.config else {}), **given}
    config = FitConfig.from_dict(settings)
    data = load_datasets(args.data, partial=args.partial)
    game = data.config.game
    folder = args.out or new_folder("runs", f"fit-{game}")
    with claimed(folder, "output folder"):
        output_folder(folder, args.overwrite)
        result = fit(data, config, progress=not args.no_progress)
        save_model(result, folder / "model.pt")
        text = report_text(result.report)
        atomic_write_text(folder / "config.json", json.dumps(
            {"fit": config.to_dict(), "data": [str(f) for f in args.data],
             "data_config": result.data_config,
             "data_configs": [read_meta(f)["config"] for f in args.data]}, indent=1))
        atomic_write_text(folder / "report.json", json.dumps(result.report, indent=1))
        atomic_write_text(folder / "report.md", f"# Gate: {game}, data "
                          f"{', '.join(map(str, args.data))}\n\n{text}\n")
        buffer = io.StringIO()
        keys = list(dict.fromkeys(k for row in result.curve for k in row))
        writer = csv.DictWriter(buffer, keys)
        writer.writeheader()
        writer.writerows(result.curve)
        atomic_write_text(folder / "curve.csv", buffer.getvalue())
    print(text)
    print(f"model and report written to {folder}")
