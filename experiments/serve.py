"""``savanna serve [FOLDER ...]``: a board in the browser to play, replay and analyse every game.

    savanna serve                      play at http://127.0.0.1:8000 (games saved in runs/played)
    savanna serve runs --open          and replay every records file under runs/, open a browser
    savanna serve runs --max-sims 5000 --max-seconds 60   allow longer searches

The page plays any game and options with any mix of humans and agents (``human``,
``az:baseline``, ``mcts:sims=200``, a checkpoint in a served folder), each seat seeing only what
it may; replays the records files, ladders and tournaments found in the FOLDERs (and no file
outside them); and draws an agent's analysis of any position on the board. Finished games are
written as records (``savanna replay`` reads them) to ``--save``. The server listens on
127.0.0.1 only unless ``--host`` says otherwise (it has no login: anyone who reaches it can
play and read the served folders).
"""
import sys
from pathlib import Path

from savanna.experiments.arguments import count, number

__all__ = ["add_parser", "run"]


def add_parser(commands):
    serve = commands.add_parser(
        "serve", help="a board in the browser: play, replay and analyse every game",
        description=__doc__)
    serve.add_argument("folders", nargs="*", type=Path, metavar="FOLDER",
                       help="folders whose records, ladder and tournament files (and agent "
                            "checkpoints) the page may open; nothing outside them is read")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=count(65535), default=8000,
                       help="the port (default: 8000)")
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument("--save", type=Path, default=Path("runs") / "played",
                       help="where finished games are written as records (default: "
                            "runs/played; served with the folders)")
    serve.add_argument("--max-sims", type=count(10**7), default=2000,
                       help="the most simulated playouts an agent or analysis may search "
                            "(simulations x rollouts; default: 2000)")
    serve.add_argument("--max-seconds", type=number, default=20.0,
                       help="the longest an agent's move or an analysis may search, waiting "
                            "for a worker included; then it is stopped (default: 20)")
    serve.add_argument("--workers", type=count(64), default=2,
                       help="processes that run searches, one core each: at most this many "
                            "searches at once, the others wait their turn (default: 2)")
    serve.set_defaults(run=run)


def run(args, extra=None):
    """Check the folders, build the app and serve it until Ctrl-C."""
    try:
        import uvicorn

        from savanna.experiments.board.server import create_app
    except ImportError as err:
        raise ValueError(f"savanna serve needs the web extra ({err.name} is missing): pip "
                         "install 'savanna-games[web]'") from None
    from savanna.experiments.board.tables import Limits

    if not 0 < args.max_seconds <= 3600:
        raise ValueError(f"--max-seconds must be in (0, 3600], got {args.max_seconds:g}")
    for folder in args.folders:
        if not folder.is_dir():
            raise ValueError(f"{folder} is not a folder")
    if args.save.exists() and not args.save.is_dir():
        raise ValueError(f"--save {args.save} is not a folder")
    try:
        args.save.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"--save {args.save}: cannot make the folder ({err.strerror})") from None
    folders = tuple(dict.fromkeys(p.resolve() for p in [*args.folders, args.save]))
    limits = Limits(max_sims=args.max_sims, max_seconds=args.max_seconds, folders=folders,
                    save=args.save.resolve())
    app = create_app(limits, workers=args.workers)
    url = f"http://{'[' + args.host + ']' if ':' in args.host else args.host}:{args.port}/"
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {args.host}, not only this machine: anyone who reaches "
              "it can play and read the served folders", file=sys.stderr)
    print(f"savanna serve: {url} (Ctrl-C to stop); folders: "
          + ", ".join(map(str, folders)))
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, [url]).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
