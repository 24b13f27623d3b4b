"""Files read and written safely: bounded JSON, atomic writes, output folders never shared.

``read_text`` and ``parse_json`` read at most a given number of bytes and refuse nesting deeper
than ``MAX_JSON_DEPTH`` (a hostile file is a one-line ``ValueError``); ``atomic_write_*`` write
a temporary file and rename it over the name; a run folder is created exclusively, numbered on
a collision; ``locked`` holds a file from its read to its write, and ``claimed`` holds a folder
that a command writes for a while (a second writer is refused, naming the process; the kernel
drops the claim when that process ends).
"""
import contextlib
import csv
import datetime
import fcntl
import io
import itertools
import json
import os
import secrets
import socket
import stat
import tempfile
from pathlib import Path

from savanna.errors import clip, clip_path

__all__ = ["CLAIM_FILE", "MAX_JSON_DEPTH", "atomic_write_bytes", "atomic_write_text",
           "check_new_file", "claimed", "json_text", "locked", "make_folders", "new_folder",
           "output_folder", "parse_json", "read_at_most", "read_text", "stamp", "write_csv"]

MAX_JSON_DEPTH = 64  # nested lists and objects; the project's files use 6 at most
CLAIM_FILE = ".savanna-claim"  # in a claimed folder: the holder's pid and host


def read_text(path, what, max_bytes):
    """The UTF-8 text of file ``path``, at most ``max_bytes`` bytes long; a one-line
    ValueError naming ``what`` (e.g. "ladder file") and the file otherwise."""
    where = f"{what} {str(path)!r}"  # whole: a server takes its folders' paths out of it
    try:
        with open(path, "rb") as f:
            data = read_at_most(f, max_bytes + 1)
    except OSError as err:
        raise ValueError(f"cannot read {where}: {err.strerror}") from None
    if len(data) > max_bytes:
        raise ValueError(f"{where} is larger than {max_bytes} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{where} is not UTF-8 text") from None


def read_at_most(f, size):
    """At most ``size`` bytes of the binary file ``f``, read in chunks of 1 MiB so that memory
    follows the bytes there are, not ``size`` (``f.read(size)`` allocates all of it first)."""
    chunks, total = [], 0
    while total < size:
        chunk = f.read(min(1 << 20, size - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def parse_json(text, where):
    """The value of the JSON ``text``, nested at most ``MAX_JSON_DEPTH`` deep; a one-line
    ValueError starting with ``where`` otherwise."""
    too_deep = ValueError(f"{where}: JSON nested more than {MAX_JSON_DEPTH} deep")
    try:
        value = json.loads(text)
    except RecursionError:  # json's decoder stops at the interpreter's recursion limit
        raise too_deep from None
    except json.JSONDecodeError as err:
        at = f"line {err.lineno} column {err.colno}" if err.lineno > 1 else f"column {err.colno}"
        raise ValueError(f"{where} is not JSON ({err.msg} at {at})") from None
    except ValueError as err:  # e.g. an int of more digits than Python converts
        raise ValueError(f"{where} is not JSON ({clip(str(err))})") from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise too_deep
    return value


def _depth(value):
    """How deep lists and dicts nest in ``value`` (0 for a number or a string), without
    recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in children
                         if isinstance(child, (dict, list)))
    return deepest


@contextlib.contextmanager
def locked(path, waiting=None):
    """Hold an exclusive lock on ``path`` (``fcntl.flock`` on the file ``.<name>.lock`` beside
    it) while the block runs, so that processes that read, change and write back ``path`` do it
    one at a time. ``waiting()`` is called if another process holds the lock, before waiting
    for it. The lock file is left in place (removing it would let a third process lock a new
    file while a second still waits on the old one)."""
    path = Path(path)
    lock = path.with_name(f".{path.name}.lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as err:
        raise ValueError(f"cannot write in folder {clip(str(lock.parent))}: "
                         f"{err.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


@contextlib.contextmanager
def claimed(folder, what="folder"):
    """Hold ``folder`` (created if missing) for this process alone while the block runs: an
    exclusive ``flock`` on its ``CLAIM_FILE``, which records this process's pid and host. A
    folder another process holds, or one this process cannot write in (read-only,
    ``chattr +i``) or whose files it cannot rewrite (a resumed run's, made read-only or
    immutable) is a one-line ValueError, before any work is done for it; the kernel
    releases the claim when its holder ends, however it ends. The file stays (removing it
    would let a third process claim a new file while a second still holds the old one)."""
    folder = Path(folder)
    make_folders(folder)
    where = f"{what} {clip(str(folder))}"
    try:
        fd = os.open(folder / CLAIM_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as err:
        raise ValueError(f"cannot write in {where}: {err.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            text = os.pread(fd, 100, 0).decode("utf-8", "replace")
            holder = "".join(c for c in text if c.isprintable()).strip() or "another process"
            raise ValueError(f"{where} is being written by {holder}; wait for it to end, or "
                             "give another folder") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}\n".encode(), 0)
        _check_writable(folder, what)  # an immutable folder lets its claim file be opened
        _check_files_writable(folder, where)
        yield folder
    finally:
        os.close(fd)  # releases the claim


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


def json_text(data):
    """``data`` as the text of a JSON file (UTF-8 as is, one space of indent, a final newline):
    one text for every writer of the same file (a review, by ``savanna review --json`` and by
    the board), so that their files are equal."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def write_csv(path, rows):
    """``rows`` (dicts with the same keys) as a CSV file with a header, written atomically."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(path, text.getvalue())


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
    _check_writable(path.parent, "folder")
    return path


def stamp():
    """The local time to the second, ``20260101-120000``: the readable part of folder names."""
    return datetime.datetime.now().strftime("%Y%m%d-%H%M%S")


def new_folder(parent, prefix):
    """Create and return ``parent/<prefix>-<stamp>``, or ``...-2``, ``...-3`` when that name
    is taken: the ``mkdir`` is exclusive, so concurrent runs never get the same folder."""
    parent = Path(parent)
    make_folders(parent)
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
    make_folders(folder)
    if not overwrite and any(p.name != CLAIM_FILE for p in folder.iterdir()):
        raise ValueError(f"output folder {clip(str(folder))} already holds files; give a new "
                         "folder, or allow overwriting (--overwrite, overwrite=True)")
    _check_writable(folder, "output folder")
    return folder


def _check_writable(folder, what):
    """A one-line ValueError unless a file can be created in ``folder`` (a temporary one, as
    the atomic writes make): not read-only, not a pseudo file system such as /proc."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        raise ValueError(f"cannot write in {what} {clip(str(folder))}: {err.strerror}") from None


def _check_files_writable(folder, where):
    """A one-line ValueError naming the first regular file under ``folder`` that cannot be
    opened for writing (opened, nothing written): the files a run appends to or replaces."""
    for parent, _, names in os.walk(folder):
        for name in sorted(names):
            path = os.path.join(parent, name)
            try:
                if stat.S_ISREG(os.lstat(path).st_mode):
                    os.close(os.open(path, os.O_WRONLY | os.O_CLOEXEC))
            except FileNotFoundError:
                continue  # removed meanwhile
            except OSError as err:
                raise ValueError(f"cannot write {clip_path(os.path.relpath(path, folder))} "
                                 f"in {where}: {err.strerror}; a resumed run rewrites the "
                                 "files of its folder") from None


def make_folders(folder):
    """Create ``folder`` and its parents if missing; a one-line ValueError if it cannot be."""
    folder = Path(folder)
    try:
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"{clip(str(folder))} is a file, not a folder")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # a file on the way, no permission, a read-only file system
        raise ValueError(f"cannot create folder {clip(str(folder))}: {err.strerror}") from None
