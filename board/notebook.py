"""The board in a notebook, as ``%tensorboard`` embeds TensorBoard: ``show()`` serves the board on
a free port of this machine (one server per set of folders, started once, on a background
thread) and returns an ``IPython.display.IFrame`` of it.

    show()                                                       the board, to play any game
    show("runs/match-zebres-<time>/records.jsonl", index=3, ply=10)   a recorded game, at ply 10
    show(game="zebres", position="z...../..G.../....../.l..../...... g 21 - move")   a position
    show(game="zebres", seats=["human", "az:baseline"])          a new game against an agent

``%load_ext savanna.board`` adds the line magic ``%savanna`` taking the same as
words: ``%savanna runs/.../records.jsonl --index 3 --ply 10``, ``%savanna --game zebres --seats
human,az:baseline``. The server reads records only in ``folders`` (default: the working
folder) and the record's own folder; it listens on 127.0.0.1 and lives as long as the kernel.

The frame's address brings the server's token in its fragment (``#token=...&play/...``): a
frame inside a page of another site (Jupyter at ``127.0.0.1`` framing the board at
``localhost``, or the other way round) gets no SameSite=Strict cookie, so the page's script
takes the token from there and sends it with each request; a fragment never reaches any
server's logs. The server plays the agents and pushes every move to the frame, as to any page.

>>> from savanna.board import show
>>> frame = show(game="zebres", seats=["human", "random"], seed=0)
>>> frame.src.startswith("http://localhost:")
True
"""
import json
import secrets
import shlex
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

from savanna.errors import clip

__all__ = ["load_ipython_extension", "serve", "show"]

_SERVERS = {}  # served folders -> (base address, token)
# the pages that may frame the board: a notebook served from this machine, on any port
NOTEBOOK_PAGES = "'self' http://localhost:* http://127.0.0.1:*"
_LOCK = threading.Lock()


def show(record=None, *, index=0, ply=0, game=None, position=None, seats=None, options=None,
         seed=None, folders=(".",), width="100%", height=720):
    """An IFrame of the board (see the module doc): a ``record`` (a records file: game
    ``index``, at ``ply``), a ``position`` of ``game`` (in its notation) to analyse, a new
    game of ``game`` with ``seats`` (``"human"`` or agent specs; ``options``: the game's
    options as a dict or ``"key=value"`` texts; ``seed``), or the board alone. A ValueError
    naming what is wrong (a file, index, ply, game, position or seat)."""
    from IPython.display import IFrame

    served = tuple(folders)
    if record is not None:
        if game is not None or position is not None or seats is not None:
            raise ValueError("show a record, a position or a new game, not several at once")
        path = Path(record).resolve()
        fragment = _replay(path, index, ply)
        served = (path.parent, *served)
    elif position is not None:
        fragment = _position(game, _options(options), position)
    elif seats is not None or game is not None:
        fragment = None
    else:
        fragment = "#play"
    base, token = serve(served)
    if fragment is None:
        fragment = _new_table(base, token, game, _options(options), seats, seed)
    login = f"token={quote(token)}&" if token else ""
    return IFrame(f"{base}#{login}{fragment.removeprefix('#')}", width=width, height=height)


def serve(folders=(".",)):
    """``(address, token)`` of the board serving ``folders``, started on first use."""
    key = tuple(dict.fromkeys(Path(f).resolve() for f in folders))
    for folder in key:
        if not folder.is_dir():
            raise ValueError(f"{clip(str(folder))} is not a folder")
    with _LOCK:
        if key not in _SERVERS:
            _SERVERS[key] = _start(key)
        return _SERVERS[key]


def _start(folders):
    from savanna.board.network import ReadyServer, server_config
    from savanna.board.tables import Limits

    app, token = _new_app(Limits(folders=folders))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = ReadyServer(server_config(app, timeout_graceful_shutdown=2), ready=lambda: None,
                         stopping=app.state.hub.close)
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True,
                     name="savanna-board").start()
    while not server.started:
        time.sleep(0.02)
    return f"http://localhost:{sock.getsockname()[1]}/", token


def _new_app(limits):
    """The board's app, which a notebook's page may frame, and the token its address needs."""
    from savanna.board.server import create_app

    token = secrets.token_urlsafe(32)
    return create_app(limits, token=token, frame_ancestors=NOTEBOOK_PAGES), token


def _replay(path, index, ply):
    """The page's address of ply ``ply`` of game ``index`` of the records file ``path``."""
    from savanna.records import read_record

    record = read_record(path, index)
    record.ply_index(ply)  # a ValueError naming the plies there are
    return f"#replay/{quote(path.name, safe='')}/{index}/{ply}"


def _position(game, options, position):
    """The page's address of ``position`` of ``game`` (checked here) for analysis."""
    from savanna.registry import make_game

    if not isinstance(position, str):
        raise ValueError(f"position must be a text in the game's notation, got {clip(position)}")
    if game is None:
        raise ValueError("name the game of the position (game='zebres')")
    make_game(game, **options).from_text(position)  # a ValueError for a malformed one
    words = " ".join(f"{k}={_word(v)}" for k, v in options.items())
    return f"#analyse/{quote(game, safe='')}/{quote(words, safe='')}/{quote(position, safe='')}"


def _options(options):
    """Game options as a dict, from a dict or ``"key=value"`` texts (as ``-o`` reads them)."""
    if options is None or isinstance(options, dict):
        return dict(options or {})
    from savanna.argument_types import option_value

    items = [options] if isinstance(options, str) else list(options)
    pairs = [str(item).partition("=") for item in items]
    if not all(eq for _, eq, _ in pairs):
        raise ValueError(f"options must be a dict or 'key=value' texts, got {clip(options)}")
    return {k.strip(): option_value(v.strip()) for k, _, v in pairs}


def _word(value):
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value)) + ("," if len(value) == 1 else "")
    return str(value)


def _new_table(base, token, game, options, seats, seed):
    """A new game on the server (``POST /api/tables``); the page's address of its first human
    seat (with that seat's key where the server gives keys), or of a spectator."""
    if game is None:
        raise ValueError("name the game to play (game='zebres')")
    body = {"game": game, "options": [f"{k}={_word(v)}" for k, v in options.items()],
            "seats": list(seats or ["human", "random"]), "seed": seed}
    request = urllib.request.Request(base + "api/tables", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"token {token}")
    try:
        with urllib.request.urlopen(request) as answer:
            view = json.load(answer)
    except urllib.error.HTTPError as err:
        raise ValueError(json.load(err).get("error", str(err))) from None
    seat = view.get("seat")
    keys = view.get("keys") or {}
    who = keys.get(str(seat), "" if seat is None else seat)
    return f"#play/{view['id']}/{who}"


# ----- the magic -------------------------------------------------------------------------------
def load_ipython_extension(ipython):
    """``%load_ext savanna.board``: the ``%savanna`` line magic."""
    ipython.register_magic_function(savanna_magic, magic_kind="line", magic_name="savanna")


def savanna_magic(line):
    """``%savanna [RECORDS] [--index N] [--ply K] [--game NAME] [--position TEXT] [--seats
    A,B] [-o KEY=VALUE] [--seed S] [--height PX]``: ``show`` with these arguments; a mistake
    is one line on standard error."""
    from savanna.argument_types import UsageError

    try:
        args = _magic_parser().parse_args(shlex.split(line))
        return show(args.record, index=args.index, ply=args.ply, game=args.game,
                    position=args.position, options=args.option or None, seed=args.seed,
                    seats=args.seats.split(",") if args.seats else None, height=args.height)
    except (UsageError, ValueError) as err:
        print(f"%savanna: error: {err}", file=sys.stderr)
    except SystemExit:  # --help, printed
        pass
    return None


def _magic_parser():
    from savanna.argument_types import Parser, add_game_options, count, index, seed

    parser = Parser(prog="%savanna", description=savanna_magic.__doc__)
    parser.add_argument("record", nargs="?", help="a records file")
    parser.add_argument("--index", type=index, default=0, help="the game of the file")
    parser.add_argument("--ply", type=index, default=0, help="the ply to show")
    parser.add_argument("--game", help="the game of a position or a new game")
    parser.add_argument("--position", help="a position in the game's notation")
    parser.add_argument("--seats", help="a new game's seats: human or agent specs, with commas")
    parser.add_argument("--seed", type=seed, help="a new game's seed")
    parser.add_argument("--height", type=count(10_000), default=720, help="pixels")
    add_game_options(parser)
    return parser
