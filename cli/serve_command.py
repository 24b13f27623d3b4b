"""``savanna serve [FOLDER ...]``: a board in the browser to play, replay and analyse every game.

    savanna serve                      play at http://127.0.0.1:8000 (games saved in runs/played)
    savanna serve runs --open          and replay every records file under runs/, open a browser
    savanna serve runs --max-sims 5000 --max-seconds 60   allow longer searches
    savanna serve --agent mypkg.agents:MyAgent             offer an agent of one's own

The page plays any game and options with any mix of humans and agents (``human``,
``az:baseline``, ``mcts:sims=200``, a checkpoint in a served folder), each seat seeing only what
it may; replays the records files, ladders and tournaments found in the FOLDERs (and no file
outside them); and draws an agent's analysis of any position on the board. Finished games are
written as records (``savanna replay`` reads them) to ``--save``. The server listens on
127.0.0.1 only unless ``--host`` says otherwise, and answers only whoever shows its token
(the printed address carries it; ``SAVANNA_TOKEN`` or ``--token`` sets it) at an address of
this machine (more with ``--allow-host``). An agent named by an import path runs its module's
code, so the page may seat only those offered with ``--agent`` (a request never imports one).
"""
import os
import secrets
import sys
import tempfile
from pathlib import Path

from savanna.cli.arguments import count, number

__all__ = ["add_parser", "run"]


def add_parser(commands):
    serve = commands.add_parser(
        "serve", description=__doc__)
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
    serve.add_argument("--agent", action="append", default=[], metavar="MODULE:CLASS",
                       dest="offered", help="an agent class the page may seat, by its import "
                                            "path (mypkg.agents:MyAgent, ./my_agent.py:MyAgent); "
                                            "repeat for more")
    serve.add_argument("--workers", type=count(64), default=2,
                       help="processes that run searches, one core each: at most this many "
                            "searches at once, the others wait their turn (default: 2)")
    serve.add_argument("--token", default=None,
                       help="the token the page and API calls must show (default: the "
                            "environment variable SAVANNA_TOKEN, which other users cannot "
                            "read in the process list, else a new random one; either way in "
                            "the printed address); '' turns the check off")
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME[:PORT]",
                       help="one more name the Host header may carry (a name this server is "
                            "reached by, at any port or at PORT only; repeat for more; '*' "
                            "for any)")
    serve.add_argument("--public-url", default=None, metavar="URL",
                       help="the address other machines reach this server at (a proxy, a "
                            "tunnel: https://board.example/), printed and used for every "
                            "invitation and spectator link; default: listening beyond this "
                            "machine, its own network address")
    serve.add_argument("--idle-minutes", type=number, default=60.0,
                       help="a game nobody asked about for this long is freed (default: 60)")
    serve.set_defaults(run=run)


def run(args, extra=None):
    """Check the folders, build the app and serve it until Ctrl-C."""
    try:
        from savanna.board.network import (
            HeaderDeadline,
            ReadyServer,
            free_socket,
            is_loopback,
            server_config,
            shared_url,
        )
        from savanna.board.server import create_app
    except ImportError as err:
        raise ValueError(f"savanna serve needs the web extra ({err.name} is missing): pip "
                         "install 'savanna-games[web]'") from None
    import threading
    import webbrowser

    from savanna.agents.play.registry import agent_class, is_import_path
    from savanna.board.guard import LOCAL_HOSTS, TOKEN, url_host
    from savanna.board.tables import Limits
    from savanna.errors import clip
    from savanna.files import make_folders

    if not 0 < args.max_seconds <= 3600:
        raise ValueError(f"--max-seconds must be in (0, 3600], got {args.max_seconds:g}")
    for folder in args.folders:
        if not folder.is_dir():
            raise ValueError(f"{folder} is not a folder")
    if not 0 < args.idle_minutes <= 10**6:
        raise ValueError(f"--idle-minutes must be in (0, 1000000], got {args.idle_minutes:g}")
    if args.save.exists() and not args.save.is_dir():
        raise ValueError(f"--save {args.save} is not a folder")
    try:  # refused now, not at a game's end
        make_folders(args.save)
        with tempfile.TemporaryFile(dir=args.save):
            pass
    except (OSError, ValueError) as err:
        raise ValueError(f"--save {args.save} cannot be written: "
                         f"{getattr(err, 'strerror', None) or err}") from None
    folders = tuple(dict.fromkeys(p.resolve() for p in [*args.folders, args.save]))
    for path in args.offered:
        if not is_import_path(path) or path.count(":") != 1:
            raise ValueError(f"--agent {path}: give a class by its import path, "
                             "mypkg.agents:MyAgent or ./my_agent.py:MyAgent")
        agent_class(path)  # imported now, once: a mistake is found before serving
    limits = Limits(max_sims=args.max_sims, max_seconds=args.max_seconds, folders=folders,
                    save=args.save.resolve(), idle_minutes=args.idle_minutes,
                    agents=tuple(args.offered))
    token, given = args.token, "--token"
    if token is None and os.environ.get("SAVANNA_TOKEN"):  # out of sight of ps
        token, given = os.environ["SAVANNA_TOKEN"], "SAVANNA_TOKEN"
    token = secrets.token_urlsafe(32) if token is None else token
    if not TOKEN.fullmatch(token):
        raise ValueError(f"{given} must be at most 256 letters, digits and . _ ~ -, got "
                         f"{clip(token)}")
    shared_url(args.host, 0, args.public_url)  # a malformed --public-url refused now
    if not token:
        print("warning: --token '' turns the token off: any program or user of this machine "
              "that reaches the port can play and read the served folders", file=sys.stderr)
    elif args.host not in LOCAL_HOSTS:
        print(f"warning: listening on {args.host}, not only this machine: whoever reaches it "
              "and has the token can play and read the served folders (no TLS)",
              file=sys.stderr)
    sock = free_socket(args.host, args.port)
    port = sock.getsockname()[1]
    if port != args.port:
        print(f"savanna serve: port {args.port} is in use, so port {port}", file=sys.stderr)
    shared = shared_url(args.host, port, args.public_url)
    if shared is None and not is_loopback(args.host):
        print("warning: no address of this machine that others reach was found: the "
              "invitation links work on this machine only (savanna serve --public-url URL "
              "names the address)", file=sys.stderr)
    app = create_app(limits, workers=args.workers, token=token, host=args.host,
                     allow_hosts=args.allow_host, public_url=shared,
                     say=lambda text: print(f"savanna serve: {text}", file=sys.stderr,
                                            flush=True))
    url = (shared or f"http://{url_host(args.host)}:{port}/") + (f"?token={token}" if token
                                                                 else "")

    def ready():  # the address is printed, and the page opened, once the server answers
        print(f"savanna serve: {url} (Ctrl-C to stop); folders: "
              + ", ".join(map(str, folders)), flush=True)
        if args.open:  # a browser command may wait until it is closed: on a thread
            threading.Thread(target=webbrowser.open, args=[url], daemon=True).start()

    config = server_config(app, timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024,
                           http=HeaderDeadline,
                           timeout_graceful_shutdown=2)  # the pages' push connections never end
    with sock:
        ReadyServer(config, ready, stopping=app.state.hub.close).run(sockets=[sock])
