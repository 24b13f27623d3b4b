"""Sphinx configuration: furo, MyST-NB (pages with executed code cells, the example notebooks),
autodoc for the API reference, and ``_ext/savanna_docs.py`` for what is generated from the code
(module pages, the command-line reference, observation layouts)."""
import os
import sys
import tomllib
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path[:0] = [str(ROOT), str(DOCS / "_ext")]  # this checkout's code, then the extension
# The kernels that execute the pages import this checkout too, and share the compiled cache.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))
os.environ["TQDM_DISABLE"] = "1"  # progress bars are widgets, whose scripts a static page lacks

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
project = "Savanna"
author = "the Savanna authors"
copyright = "2026, the Savanna authors"
release = version = PROJECT["version"]  # the one place the version is written

extensions = ["myst_nb", "sphinx.ext.autodoc", "savanna_docs"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints", "jupyter_execute"]
nitpicky = False

html_theme = "furo"
html_title = f"Savanna {release}"
html_static_path = []
html_favicon = None

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Notebooks and pages with code cells run once; jupyter-cache keeps their outputs (keyed by the
# code) in the build folder, so a rebuild only runs what changed. A failing cell fails the build.
nb_execution_mode = "cache"
nb_execution_cache_path = str(DOCS / "_build" / ".jupyter_cache")
nb_execution_timeout = 600
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_in_temp = True  # the tutorials' run folders go to a temporary folder
nb_merge_streams = True
nb_ipywidgets_js = {}  # the site loads nothing from the network (no widget manager from a CDN)

autodoc_member_order = "bysource"
autodoc_inherit_docstrings = False  # Gymnasium's own texts (Google style) are not ours
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "description"
suppress_warnings = ["mystnb.unknown_mime_type"]
