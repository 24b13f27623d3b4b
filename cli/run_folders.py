"""What every run folder is made of (the run loop, ``savanna.cli.run_loop``, writes
them for ``savanna train ppo`` and ``savanna train az``), besides ``savanna.files.new_folder``
(a new folder for every run, never one that exists): an atomic ``config.json`` (a resumed run
refuses one edited since), the CSV logs (read strictly, cut back to the checkpoint on resume),
and Ctrl-C that asks the loop to stop at its next safe point. A run holds its folder
(``savanna.files.claimed``) while it trains, so a second ``--resume`` of it is refused."""
import csv
import io
import json
import math
import signal
from pathlib import Path

from savanna.errors import clip, clip_path
from savanna.files import atomic_write_text, parse_json, read_text
from savanna.metadata import run_metadata

__all__ = ["EVAL_FILE", "METADATA_KEY", "METRICS_FILE", "RECORDS_FOLDER", "RunLog", "Stop",
           "check_run_files", "check_settings_file", "checkpoint_file", "eval_records_file",
           "read_csv", "read_log", "save_config"]

METRICS_FILE, EVAL_FILE, RECORDS_FOLDER = "metrics.csv", "eval.csv", "eval-records"
MAX_LOG_BYTES = 1 << 28  # a log of a long run: a row of ~300 bytes every few moves
METADATA_KEY = "metadata"  # config.json's entry that is no setting


def checkpoint_file(resume):
    """The checkpoint that ``--resume`` names: a file, or a run folder's ``last.pt``."""
    path = Path(resume)
    return path / "last.pt" if path.is_dir() else path


def eval_records_file(folder, step):
    """``eval-records/step-<step>.jsonl`` in a run folder (the folder made if missing): the
    game records of the evaluation at ``step`` (``savanna replay`` shows them)."""
    path = Path(folder) / RECORDS_FOLDER / f"step-{step}.jsonl"
    path.parent.mkdir(exist_ok=True)
    return path


def save_config(folder, config, game):
    """Write ``config.json`` atomically: every setting, and under ``"metadata"`` the package
    version, git commit, the game's full options and rules version
    (``savanna.metadata.run_metadata``; ``--config FILE`` reads the settings only)."""
    data = {**config.to_dict(), METADATA_KEY: run_metadata(game)}
    atomic_write_text(Path(folder) / "config.json", json.dumps(data, indent=1))


def check_settings_file(folder, settings, resumable):
    """A one-line ValueError listing the differences if the run's ``config.json`` in
    ``folder`` no longer holds ``settings`` (its checkpoint's), but for those of
    ``resumable``: a resumed run keeps its checkpoint's settings, so an edit would be lost
    without a word."""
    path = Path(folder) / "config.json"
    if not path.exists():
        return
    name = clip_path(path)
    saved = parse_json(read_text(path, "run settings", 1 << 20), f"run settings {name}")
    if not isinstance(saved, dict):
        raise ValueError(f"{name} must hold a JSON object of settings")
    saved.pop(METADATA_KEY, None)
    missing = object()
    changed = sorted(k for k in set(saved) | set(settings) if k not in resumable
                     and saved.get(k, missing) != settings.get(k, missing))
    if changed:
        listed = "; ".join(f"{k}: {clip(saved.get(k, 'absent'), 30)} there, "
                           f"{clip(settings.get(k, 'absent'), 30)} in the checkpoint"
                           for k in changed[:4]) + ("; ..." if len(changed) > 4 else "")
        raise ValueError(f"{name} differs from the run's checkpoint ({listed}); a resumed run "
                         "keeps its checkpoint's settings: undo the edit, or start a new run "
                         "with --config")


class RunLog:
    """Appends rows to the run's CSV files (and TensorBoard when available). On resume, rows
    past the checkpoint's step are dropped so that the logs match the resumed run."""

    def __init__(self, folder, resume_step=None):
        self.folder = Path(folder)
        if resume_step is not None:
            check_run_files(self.folder)
            for name in (METRICS_FILE, EVAL_FILE):
                _truncate_csv(self.folder / name, resume_step)
        try:
            from torch.utils.tensorboard import SummaryWriter
            self.tensorboard = SummaryWriter(str(self.folder / "tb"))
        except ImportError:  # tensorboard is optional
            self.tensorboard = None

    def write(self, name, row):
        """Append ``row``; a column that appears later (an AlphaZero learner's losses once it
        has a batch) widens the file, earlier rows leaving it empty."""
        path = self.folder / name
        cells = {k: _cell(v) for k, v in row.items()}
        header, rows = read_log(path)
        if header and not set(cells) <= set(header):
            header += [k for k in cells if k not in header]
            _write_rows(path, header, rows)
        with open(path, "a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=header or list(cells), restval="")
            if not header:
                writer.writeheader()
            writer.writerow(cells)
        if self.tensorboard is not None:
            group = name.split(".")[0]
            for key, value in row.items():
                if key != "step" and isinstance(value, (int, float)) and math.isfinite(value):
                    self.tensorboard.add_scalar(f"{group}/{key}", value, row["step"])

    def close(self):
        if self.tensorboard is not None:
            self.tensorboard.close()


def _cell(value):
    return f"{value:.6g}" if isinstance(value, float) else value


def check_run_files(folder):
    """A one-line ValueError unless the run files in ``folder`` are what a run writes (its
    logs files, its records folder a folder), so that a resumed run never fails after it has
    started."""
    folder = Path(folder)
    for name, is_kind, kind in ((METRICS_FILE, Path.is_file, "a file"),
                                (EVAL_FILE, Path.is_file, "a file"),
                                (RECORDS_FOLDER, Path.is_dir, "a folder")):
        path = folder / name
        if path.exists() and not is_kind(path):
            raise ValueError(f"{clip_path(path)} must be {kind}, as the run wrote it")


def _truncate_csv(path, step):
    header, rows = read_log(path)
    if rows:
        _write_rows(path, header, [r for r in rows if int(r["step"]) <= step])


def read_log(path):
    """``(header, rows)`` of a run's CSV log (``([], [])`` when there is none), read strictly:
    a regular file of at most ``MAX_LOG_BYTES``, UTF-8, a header naming ``step``, every row as
    many cells as the header, ``step`` a whole number that grows from row to row, every other
    cell a number or empty. Anything else is a one-line ValueError naming the file and line."""
    path = Path(path)
    if not path.exists():
        return [], []
    name = clip_path(path)
    if not path.is_file():
        raise ValueError(f"{name} is not a file")
    text = read_text(path, "run log", MAX_LOG_BYTES)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, [])
        if "step" not in header or len(set(header)) != len(header):
            raise ValueError(f"{name} line 1: the header must name step, each column once")
        rows, last = [], -1
        for cells in reader:
            where = f"{name} line {reader.line_num}"
            if len(cells) != len(header):
                raise ValueError(f"{where}: {len(cells)} cells, the header has {len(header)}")
            row = dict(zip(header, cells))
            step = _whole(row["step"])
            if step is None or step <= last:
                raise ValueError(f"{where}: step is {clip(row['step'], 30)}, expected a whole "
                                 f"number above the previous row's {last}")
            bad = next((k for k, v in row.items() if v and _number(v) is None), None)
            if bad is not None:
                raise ValueError(f"{where}: {clip(bad, 30)} is {clip(row[bad], 30)}, expected "
                                 "a number")
            rows.append(row)
            last = step
    except csv.Error as err:
        raise ValueError(f"{name} line {reader.line_num}: {str(err)[:80]}") from None
    return header, rows


def _whole(text):
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def _number(text):
    try:
        return float(text) if len(text) <= 40 else None
    except ValueError:
        return None


def _write_rows(path, header, rows):
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=header, restval="")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(path, text.getvalue())


def read_csv(path):
    """Rows of a run CSV as dicts of floats (empty when the file does not exist), read by
    ``read_log``."""
    return [{k: float(v) if v else math.nan for k, v in r.items()}
            for r in read_log(path)[1]]


class Stop:
    """A context in which the first Ctrl-C asks the training loop to stop (``bool(stop)``
    becomes true: the loop finishes its step and saves), and a second one interrupts at once.
    Outside the main thread Ctrl-C keeps its default."""

    def __init__(self):
        self.reasons = []

    def request(self, reason):
        self.reasons.append(reason)

    def __bool__(self):
        return bool(self.reasons)

    def _on_interrupt(self, signum, frame):
        if self.reasons:
            raise KeyboardInterrupt
        self.request("interrupt")

    def __enter__(self):
        try:
            self._previous = signal.signal(signal.SIGINT, self._on_interrupt)
        except ValueError:  # not the main thread
            self._previous = None
        return self

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
