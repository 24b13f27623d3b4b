"""The example notebooks (``notebooks``) run headless from top to bottom, in a
fresh folder (their runs go there), so that they never rot. Needs the ``dev`` extra's
nbclient and ipykernel.

``make test`` runs them once, as the site's tutorial pages (``make docs``: a failing cell fails
the build), so running them here too is for ``make check-full``."""
import os
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_example_notebooks():
    assert len(NOTEBOOKS) >= 2


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_notebook_is_committed_without_outputs(path):
    book = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in book.cells if cell.cell_type == "code")


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))  # this tree's code
    book = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(book, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in book.cells for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = {kind for o in outputs for kind in o.get("data", {})}
    assert shown & {"image/svg+xml", "text/html", "image/png"}  # something displayed itself
