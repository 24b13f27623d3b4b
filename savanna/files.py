"""Writing results safely: atomic file writes and output folders that are never shared.

A result file is written to a temporary file in its own folder, then renamed over its name
(``os.replace``, atomic on one file system): a reader, a crash or a full disk never leaves
half a file. A run folder is created exclusively (``mkdir`` fails if the name exists), with a
numbered suffix on collision, so two runs started in the same second keep their own folders.
Mistakes (a file where a folder should be, a folder without write permission, a folder that
already holds results) raise a one-line ``ValueError``.
"""
import datetime
import itertools
import os
import secrets
import tempfile
from pathlib import Path

from savanna.errors import clip

__all__ = ["atomic_write_bytes", "atomic_write_text", "check_new_file", "new_folder",
           "output_folder", "stamp"]


def atomic_write_bytes(path, data):
    """Write ``data`` to ``path`` through a temporary file beside it and a rename; the
    temporary file is removed if anything fails."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies, as in open()
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def atomic_write_text(path, text):
    """``atomic_write_bytes`` of ``text`` in UTF-8."""
    atomic_write_bytes(path, text.encode("utf-8"))


def check_new_file(path, overwrite=False):
    """Check, before the work whose result goes there, that a file can be written at ``path``:
    its folder exists, it is no folder, and it does not exist unless ``overwrite``."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{clip(str(path))} is a folder, not a file")
    if path.exists() and not overwrite:
        raise ValueError(f"{clip(str(path))} exists; give a new file, or allow overwriting "
                         "(--overwrite, overwrite=True)")
    if not path.parent.is_dir():
        raise ValueError(f"no folder {clip(str(path.parent))} to write {clip(path.name)} in")
    return path


def stamp():
    """The local time to the second, ``20260101-120000``: the readable part of folder names."""
    return datetime.datetime.now().strftime("%Y%m%d-%H%M%S")


def new_folder(parent, prefix):
    """Create and return ``parent/<prefix>-<stamp>``, or ``...-2``, ``...-3`` when that name
    is taken: the ``mkdir`` is exclusive, so concurrent runs never get the same folder."""
    parent = Path(parent)
    _make_dirs(parent)
    name = f"{prefix}-{stamp()}"
    for k in itertools.count(1):
        folder = parent / (name if k == 1 else f"{name}-{k}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        except OSError as err:
            raise ValueError(f"cannot create a folder in {clip(str(parent))}: "
                             f"{err.strerror}") from None
        return folder


def output_folder(path, overwrite=False):
    """The folder ``path``, created if missing, after checking that results can be written in
    it: not a file, writable, and empty unless ``overwrite`` (its files may then be replaced).
    Call it before the work whose results go there, so that a mistake costs nothing."""
    folder = Path(path)
    _make_dirs(folder)
    if not overwrite and any(folder.iterdir()):
        raise ValueError(f"output folder {clip(str(folder))} already holds files; give a new "
                         "folder, or allow overwriting (--overwrite, overwrite=True)")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        raise ValueError(f"cannot write in output folder {clip(str(folder))}: "
                         f"{err.strerror}") from None
    return folder


def _make_dirs(folder):
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{clip(str(folder))} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # a file on the way, no permission, a read-only file system
        raise ValueError(f"cannot create folder {clip(str(folder))}: {err.strerror}") from None
