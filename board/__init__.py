"""The browser board of ``savanna serve``: the server (``server``: HTTP only), the one place its
tables change (``master``), the tables (``tables``; who sits there: ``seating``; where a finished
one goes: ``saving``), the journal that keeps them over a restart (``journal``), the agents'
game loop (``referee``), the push channel (``hub``), the server's limits (``limits``) and
refusals (``refusals``), analyses (``analysis``), game reviews (``reviews``), served files
(``files``), the page (``static/``), and the board in a notebook (``notebook``: ``show()``,
``%load_ext savanna.board`` for the ``%savanna`` magic)."""
from savanna.board.notebook import load_ipython_extension, show

__all__ = ["load_ipython_extension", "show"]
