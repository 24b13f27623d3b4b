"""The browser board of ``savanna serve``: the server (``server``: HTTP only), the one place its
tables change (``master``), the tables (``tables``; who sits there: ``seating``; where a finished
one goes: ``saving``; how many: ``lobby``), the journal that keeps them over a restart
(``journal``), the agents' game loop (``referee``), the games and searches compiled at start
in the search workers (``readying``), the push channel (``hub``), the search
processes (``workers``), the server's limits (``limits``), refusals (``refusals``) and guard
(``guard``), analyses (``analysis_jobs``), game reviews (``review_jobs``), served files
(``served_files``, ``cache``), the port and address (``network``), errors without the
server's paths (``hidden_paths``), the page (``static/``), and the board in a notebook
(``notebook``: ``show()``, ``%load_ext savanna.board`` for the ``%savanna`` magic)."""
from savanna.board.notebook import load_ipython_extension, show
from savanna.lazy import moved_modules

__all__ = ["load_ipython_extension", "show"]

moved_modules(__name__, {"files": "savanna.board.served_files"})  # its old name, one release
