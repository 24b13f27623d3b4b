"""The browser board of ``savanna serve``: the server (``server``), its tables (``tables``),
analyses (``analysis``), game reviews (``reviews``), served files (``files``), the page
(``static/``), and the board in a notebook (``notebook``: ``show()``, ``%load_ext
savanna.experiments.board`` for the ``%savanna`` magic)."""
from savanna.experiments.board.notebook import load_ipython_extension, show

__all__ = ["load_ipython_extension", "show"]
