"""What the trainers' run folders share (``savanna.experiments.train`` for PPO,
``savanna.experiments.train_az`` for AlphaZero), besides ``savanna.files.new_folder`` (a new folder
for every run, never one that exists): an atomic ``config.json``, the CSV logs (cut back to
the checkpoint on resume), and Ctrl-C that asks the loop to stop at its next safe point."""
import csv
import io
import json
import math
import signal
from pathlib import Path

from savanna.files import atomic_write_text
from savanna.metadata import run_metadata

__all__ = ["EVAL_FILE", "METADATA_KEY", "METRICS_FILE", "RunLog", "Stop", "checkpoint_file",
           "eval_records_file", "read_csv", "save_config"]

METRICS_FILE, EVAL_FILE = "metrics.csv", "eval.csv"
METADATA_KEY = "metadata"  # config.json's entry that is no setting


def checkpoint_file(resume):
    """The checkpoint that ``--resume`` names: a file, or a run folder's ``last.pt``."""
    path = Path(resume)
    return path / "last.pt" if path.is_dir() else path


def eval_records_file(folder, step):
    """``eval-records/step-<step>.jsonl`` in a run folder (the folder made if missing): the
    game records of the evaluation at ``step`` (``savanna replay`` shows them)."""
    path = Path(folder) / "eval-records" / f"step-{step}.jsonl"
    path.parent.mkdir(exist_ok=True)
    return path


def save_config(folder, config, game):
    """Write ``config.json`` atomically: every setting, and under ``"metadata"`` the package
    version, git commit, the game's full options and rules version
    (``savanna.metadata.run_metadata``; ``--config FILE`` reads the settings only)."""
    data = {**config.to_dict(), METADATA_KEY: run_metadata(game)}
    atomic_write_text(Path(folder) / "config.json", json.dumps(data, indent=1))


class RunLog:
    """Appends rows to the run's CSV files (and TensorBoard when available). On resume, rows
    past the checkpoint's step are dropped so that the logs match the resumed run."""

    def __init__(self, folder, resume_step=None):
        self.folder = Path(folder)
        if resume_step is not None:
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
        header, rows = _read_rows(path)
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


def _truncate_csv(path, step):
    header, rows = _read_rows(path)
    if rows:
        _write_rows(path, header, [r for r in rows if int(float(r["step"])) <= step])


def _read_rows(path):
    """``(header, rows)`` of a CSV file; ``([], [])`` when there is none."""
    if not path.exists():
        return [], []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        return list(reader.fieldnames or []), rows


def _write_rows(path, header, rows):
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=header, restval="")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(path, text.getvalue())


def read_csv(path):
    """Rows of a run CSV as dicts of floats (empty when the file does not exist)."""
    if not Path(path).exists():
        return []
    with open(path, newline="") as f:
        return [{k: float(v) if v not in ("", None) else math.nan for k, v in r.items()}
                for r in csv.DictReader(f)]


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
