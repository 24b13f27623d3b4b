"""Write CHANGELOG.md from the git history: every commit's subject, newest first, by day.

    python docs/changelog.py            # (make changelog) the history up to HEAD
    python docs/changelog.py --check    # exit 1 unless CHANGELOG.md is that of its own commit

The file names the commit it stops at, so a test can rebuild it from the history and find any
hand edit. It is written atomically.
"""
import argparse
import re
import subprocess
import sys
import tomllib
from itertools import groupby
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHANGELOG = ROOT / "CHANGELOG.md"
STOP = re.compile(r"up to commit ([0-9a-f]{40})")
SPECIAL = re.compile(r"([\\*_<>\[\]#|])")  # Markdown would read these as markup


def history(commit):
    """``(day, short hash, subject)`` of every commit up to ``commit``, newest first."""
    out = subprocess.run(["git", "-C", str(ROOT), "log", "--format=%ad%x00%h%x00%s",
                          "--date=short", commit], capture_output=True, text=True, check=True)
    return [tuple(line.split("\0")) for line in out.stdout.splitlines()]


def escape(subject):
    """A commit subject as literal Markdown text (code spans kept as they are)."""
    parts = subject.split("`")
    return "`".join(part if i % 2 else SPECIAL.sub(r"\\\1", part)
                    for i, part in enumerate(parts))


def render(commit):
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    lines = ["# Changelog", "",
             f"Every change, newest first, from the git history (`make changelog` writes this "
             f"file; it is up to commit {commit}).", "", f"## {version} (unreleased)"]
    for day, commits in groupby(history(commit), key=lambda row: row[0]):
        lines += ["", f"### {day}", ""]
        lines += [f"- {escape(subject)} ({short})" for _, short, subject in commits]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare CHANGELOG.md with the history it names instead")
    args = parser.parse_args(argv)
    if args.check:
        text = CHANGELOG.read_text()
        stop = STOP.search(text)
        if stop is None or render(stop[1]) != text:
            sys.exit("CHANGELOG.md is not the git history it names: run make changelog")
        return
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    sys.path.insert(0, str(ROOT))
    from savanna.files import atomic_write_text

    atomic_write_text(CHANGELOG, render(head))


if __name__ == "__main__":
    main()
