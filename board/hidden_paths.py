"""Error messages of ``savanna serve`` without the server's own paths: a file is named relative
to its served folder, as requests name it, and nothing says where the server's code lives
(a checkout's path tells who runs it, and where)."""
import os
from pathlib import Path

__all__ = ["CODE", "Unplaced"]

CODE = Path(__file__).resolve().parents[1]  # the folder of the server's code (a checkout)


class Unplaced:
    """Messages without the absolute paths of the served ``folders`` and of ``CODE``.

    >>> Unplaced(["/srv/runs"])("'/srv/runs/a/b.jsonl' is not UTF-8 text")
    "'a/b.jsonl' is not UTF-8 text"
    """

    def __init__(self, folders):
        paths = {str(p) for root in (*folders, CODE) for p in (Path(root), Path(root).resolve())}
        self.roots = sorted(paths - {os.sep}, key=len, reverse=True)  # the deepest first

    def __call__(self, text):
        for root in self.roots:
            text = text.replace(root + os.sep, "").replace(root, ".")
        return text

    def status(self, status):
        """A job's status with its error message so."""
        return {**status, "error": status["error"] and self(status["error"])}
