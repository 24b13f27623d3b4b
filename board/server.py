"""The web application of ``savanna serve``: the page and its JSON API, on Starlette.

Routes (every answer JSON; every error a 4xx with ``{"error": "<one line>"}`` that leaves
every game as it was, and the server goes on answering)::

    GET  /                         the page (static/board.html, board.css, board.js, its modules)
    GET  /api/info                 games and their options, agents, limits, served folders
    POST /api/tables               a new game {game, options, seats, seed, paused, delay}; its
                                   view, the keys of its human seats, its control key and
                                   the invitation links (only here)
    GET  /api/tables/{id}          the game as the seat of the X-Seat-Key header sees it (no
                                   key: a spectator, who sees what is public)
    GET  /api/tables/{id}/events   the same, pushed after every change (``board.hub``)
    POST /api/tables/{id}/move     {action, version, agents}: the key's seat moves; the answer
                                   comes once the agents replied (agents: false: at once)
    POST /api/tables/{id}/pace     {paused, delay}: the agents' pace (a key of the game)
    POST /api/tables/{id}/advance  {}: pause, and one agent move now (a key of the game)
    POST /api/tables/{id}/undo     {}: take back the key's seat's move, the last human one
    GET  /api/tables/{id}/record   the game as a record (``match --records``' line) and the
                                   board spot of each decision: once public (perfect
                                   information, or the game over), without its seed until
                                   the end
    POST /api/analyses             {agent, table | file+game+ply | game+options+position}
    GET  /api/analyses/{id}        progress and the latest result; DELETE cancels
    POST /api/reviews              {file, game | table, agent, threshold, seed}: a game review;
                                   {file, game | table, kept}: a review kept in --save
    GET  /api/reviews/{id}         progress and the decisions reviewed so far; DELETE cancels
    GET  /api/reviews/{id}/puzzles?player=P   that player's marked moves as positions to retry
    GET  /api/files                records, ladder and tournament files in the served folders
    GET  /api/records?file=F&offset=K&limit=N   a page of the games of a records file (at
                                   most ``served_files.PAGE``; ``next``: the next page's offset)
    GET  /api/replay?file=F&game=N&ply=K&seat=P   one position of a recorded game
    GET  /api/record?file=F&game=N  one record of a records file, with its decisions' spots
    GET  /api/ratings?file=F       a ladder's or a tournament's table
    GET  /api/position?game=G&option=K=V&position=TEXT&then=MOVE   a pasted position (after
                                   the moves named by then, if any: their spots in played): its
                                   picture, the player to move, its moves and their spots

Every request passes ``board.guard`` first (the token, the Host, the Origin of a change or a
push connection). Every change of a table goes through ``board.master``: it journals the table
(``board.journal``: the unfinished tables resume after a restart), pushes each change to every
page of the table (``board.hub``) and lets the server play the agents' moves itself
(``board.referee``). The board's modules refuse a request with ``refusals.Refused``, whose kind
this module answers as an HTTP status (``STATUS``). A seat is a capability: the
``X-Seat-Key`` header decides which seat a request speaks for, and table and analysis ids are
128-bit secrets. Searches (agents' moves, analyses, reviews) run in worker processes
(``board.workers``), never in the server's process, bounded by ``Limits``: their size checked
when an agent is named, each given at most ``max_seconds`` (then stopped: the game is paused
at that move with the reason as its "notice", a 503 from /advance). Files are read on
threads, their size checked before they are read (``board.served_files``).
"""
import asyncio
import contextlib
import json
import math
import mimetypes
import secrets
import time
from pathlib import Path
from urllib.parse import urlsplit

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from savanna.agents import AGENTS
from savanna.argument_types import option_names
from savanna.board.analysis_jobs import AnalysisJob
from savanna.board.guard import Guard, allowed_names
from savanna.board.hidden_paths import Unplaced
from savanna.board.hub import Hub
from savanna.board.journal import Journal
from savanna.board.lobby import Lobby
from savanna.board.master import Master
from savanna.board.readying import Readying
from savanna.board.refusals import Refused
from savanna.board.review_jobs import FIELDS, Reviews
from savanna.board.seating import parse_options
from savanna.board.served_files import PAGE, Replays, list_files, read_table
from savanna.board.tables import MAX_SEATS, Table
from savanna.board.workers import SearchPool
from savanna.errors import clip, is_int
from savanna.files import parse_json
from savanna.number_parsing import parse_int
from savanna.registry import GAMES

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
# The page's ES modules load only as JavaScript (nosniff): a system table that maps .js elsewhere
# (a Windows registry can say text/plain) must not break the page. Jupyter Server does the same.
mimetypes.add_type("text/javascript", ".js")
MAX_BODY = 2**16
MAX_JOBS = 64
# the games the page offers: every registered game but connect four, the benchmarks' yardstick
# (API only)
PLAYED = tuple(name for name in GAMES if name != "connect_four")
# what each kind of refusal (refusals.Refused) is answered as
STATUS = {"invalid": 400, "forbidden": 403, "missing": 404, "conflict": 409, "too_large": 413,
          "busy": 429, "failed": 500, "unavailable": 503}


def create_app(limits, workers=2, *, token, host="127.0.0.1", allow_hosts=(),
               frame_ancestors="'self'", clock=time.monotonic, public_url=None, journal=None,
               say=None):
    """The Starlette application for ``limits`` (``board.limits.Limits``), with ``workers``
    processes for searches, behind ``board.guard.Guard(token, host, allow_hosts, frame_ancestors)``
    (the pages that may frame it); ``clock`` times the idle tables. ``public_url``: the
    address other machines reach the server at (``http://192.0.2.7:8000/``), which every
    invitation and spectator link is built on; None: links relative to the page's own
    address. ``journal``: where the unfinished tables are kept (``board.journal.Journal``;
    default: in ``limits.save``, or in memory without one); its tables resume at start.
    ``say``: the server's terminal (``say(text)``): given, the games it resumed are told
    there, and every played game and the agents' searches are got ready in the search workers
    at start (``board.readying``), how it goes told there too and in ``/api/info``; None:
    each game compiles at its first table, each search at its first move."""
    jobs = {}
    journal = Journal.in_folder(limits.save) if journal is None else journal
    lobby = Lobby(limits, clock, freed=journal.forget)
    replays = Replays(limits.folders)
    pool = SearchPool(workers)
    reviews = Reviews(replays, lobby.tables, limits, pool)
    unplaced = Unplaced(limits.folders)
    hub = Hub(lambda table, seat: as_json(table.view(seat)), lambda table: lobby.get(table.id))
    master = Master(lobby, hub, journal, pool, limits, unplaced)
    readying = None if say is None else Readying(pool, limits, PLAYED, say)
    master.readying = readying
    base = public_url.rstrip("/") + "/" if public_url else "/"

    def table_of(request):
        return lobby.get(request.path_params["id"])

    def invitation(table, key):
        """The address that opens ``table`` at ``key``'s seat, or as a spectator (no key), in
        another browser, on ``public_url`` (or from the server's root): the token's login,
        then the game."""
        login = f"?token={token}" if token else ""
        return f"{base}{login}#play/{table.id}/{key or ''}"

    # ----- the page ---------------------------------------------------------------------
    async def page(request):
        return FileResponse(STATIC / "board.html")

    async def info(request):
        games = {name: {"options": option_names(name)} for name in GAMES}
        return reply({"games": games, "played": list(PLAYED),
                      "agents": [*sorted(AGENTS), *limits.agents],
                      "limits": {"max_sims": limits.max_sims,
                                 "max_seconds": limits.max_seconds},
                      "folders": [f.name for f in map(Path, limits.folders)],
                      "public_url": public_url,
                      "readying": None if readying is None else readying.status()})

    # ----- play ---------------------------------------------------------------------------
    # Each route checks everything it was sent (body, key) before it changes the game, so
    # that an error means nothing changed; a search past its time after a change that stands
    # is said in the answer's "notice", the game waiting at that agent's move.
    async def new_table(request):
        body = await json_body(request, {"game", "options", "seats", "seed", "paused",
                                         "delay"})
        table = await master.create(body)
        keys = {str(p): key for p, key in table.keys.items()}
        invitations = {str(p): invitation(table, key) for p, key in table.keys.items()}
        return reply({**table.view(first_human(table)), "keys": keys, "control": table.control,
                      "invitations": invitations, "spectate": invitation(table, None)})

    async def ready_ahead(request):  # the page's form names a game and seats: compile them next
        body = await json_body(request, {"game", "seats"})
        game, seats = body.get("game"), body.get("seats", [])
        if game not in PLAYED:
            raise Refused(f"unknown game {clip(game)}; the board plays: {', '.join(PLAYED)}")
        if not (isinstance(seats, list) and len(seats) <= MAX_SEATS
                and all(isinstance(seat, str) for seat in seats)):
            raise Refused(f"seats must be a list of at most {MAX_SEATS} seats (human or an "
                          f"agent's spec), got {clip(seats)}")
        if readying is not None:
            readying.ahead(game, seats)
        return reply({"readying": None if readying is None else readying.status()})

    async def view(request):
        table = table_of(request)
        if "seat" in request.query_params:
            raise Refused("the seat is the X-Seat-Key header's, not a query parameter")
        return reply(table.view(table.seat_of(seat_key(request))))

    async def move(request):
        table = table_of(request)
        body = await json_body(request, {"action", "version", "agents"})
        if not isinstance(body.get("agents", True), bool):
            raise Refused(f"agents must be true (the agents reply at once, the default) or "
                          f"false (one at a time with /advance), got {clip(body['agents'])}")
        key = seat_key(request)
        await master.move(table, key, body.get("action"), body.get("version"),
                          body.get("agents", True))
        return reply(table.view(table.seat_of(key)))

    async def advance(request):
        table = table_of(request)
        await json_body(request, set())
        await master.advance(table, seat_key(request))
        return reply(table.view(table.seat_of(seat_key(request))))

    async def pace(request):
        table = table_of(request)
        body = await json_body(request, {"paused", "delay"})
        await master.pace(table, seat_key(request), body.get("paused"), body.get("delay"))
        return reply(table.view(table.seat_of(seat_key(request))))

    async def events(request):
        table = table_of(request)
        key = seat_key(request)
        seat = table.seat_of(key)
        keyed = None if key is None or not table.holds_key(key) else \
            ("control" if seat is None else seat)
        return hub.stream(table, seat, keyed)

    async def undo(request):
        table = table_of(request)
        await json_body(request, set())
        await master.undo(table, seat_key(request))
        return reply(table.view(table.seat_of(seat_key(request))))

    async def table_record(request):
        table = table_of(request)
        if not table.game.perfect_information and not table.over:
            raise Refused("this game has secrets: its record is public once it ends",
                          "conflict")
        return reply(await anyio.to_thread.run_sync(record_with_spots, table.record()))

    # ----- analysis -----------------------------------------------------------------------
    async def new_analysis(request):
        body = await json_body(request, {"agent", "table", "file", "game", "ply",
                                         "options", "position", "seed"})
        seed = body.get("seed", 0)
        if not is_int(seed) or not 0 <= seed < 2**63:
            raise Refused(f"seed must be an int in 0..2**63-1, got {clip(seed)}")
        key = seat_key(request)
        source = source_position(body, key) if "table" in body else None  # the table, now

        def prepared():  # reads a records file, a checkpoint: off the event loop
            game, row, hide, seat = source or source_position(body, key)
            job = AnalysisJob(game, row, body.get("agent"), limits, seed=seed,
                              hide_position=hide)
            return game, row, hide, seat, job

        game, row, hide, seat, job = await anyio.to_thread.run_sync(prepared)
        if sum(not j.done for j in jobs.values()) >= MAX_JOBS:
            raise Refused(f"{MAX_JOBS} analyses are running; cancel one or wait", "busy")
        for key in [k for k, j in jobs.items() if j.done][: max(0, len(jobs) - MAX_JOBS)]:
            del jobs[key]
        key = secrets.token_urlsafe(16)
        jobs[key] = job
        job.start(pool)
        svg = game.render_svg(row, seat if hide else None)
        return reply({"id": key, "svg": svg, **unplaced.status(job.status())})

    def source_position(body, key):
        """(game, row, whether it hides secrets, the seat that asks: ``key``'s) of an analysis
        request."""
        if "table" in body:
            table = lobby.get(body["table"])
            hidden = not table.game.perfect_information and not table.over
            seat = table.seat_of(key)
            if hidden and (not is_int(seat) or seat != table.to_move
                           or table.seats[table.to_move] is not None):
                raise Refused("in a game with secrets, only the human to move may "
                                 "analyse the position before the end", "conflict")
            return table.game, table.state.copy(), hidden, seat
        if "file" in body:
            _, game, states, plies = replays.game(body["file"], body.get("game"))
            ply = body.get("ply")
            if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply < len(plies):
                raise Refused(f"ply must be in 0..{len(plies) - 1}, got {clip(ply)}")
            return game, states[plies[ply]: plies[ply] + 1], False, None
        if "position" in body:
            game, row = pasted_position(body.get("game"), body.get("options"), body["position"])
            return game, row, False, None
        raise Refused("say what to analyse: table (with its seat's key), file (game, ply), "
                         "or game "
                         "(options) and position")

    async def analysis(request):
        job = jobs.get(request.path_params["id"])
        if job is None:
            raise Refused(f"no analysis {clip(request.path_params['id'])}", "missing")
        if request.method == "DELETE":
            job.cancel()
        return reply(unplaced.status(job.status()))

    async def new_review(request):
        body = await json_body(request, FIELDS)
        job = await anyio.to_thread.run_sync(reviews.job, body)  # reads a file, a checkpoint
        return reply(unplaced.status(reviews.add(job)))

    async def review(request):
        return reply(unplaced.status(reviews.status(request.path_params["id"],
                                                     request.method == "DELETE")))

    async def puzzles(request):  # a reviewed player's mistakes to retry
        job = reviews.find(request.path_params["id"])
        player = query_int(request, "player")
        return reply({"player": player, "puzzles": await job.puzzles_of(player, pool)})

    # ----- files: read, and their answers serialised, on worker threads --------------------
    async def files(request):
        return await replied(lambda: {"files": list_files(limits.folders)})

    async def records(request):
        file = query(request, "file")
        offset = query_int(request, "offset", optional=True)
        limit = query_int(request, "limit", optional=True)
        return await replied(replays.listing, file, offset or 0, PAGE if limit is None else limit)

    async def replay(request):
        file = query(request, "file")
        game, ply = query_int(request, "game"), query_int(request, "ply")
        seat = query_int(request, "seat", optional=True)
        return await replied(replays.frame, file, game, ply, seat)

    async def file_record(request):
        file, index = query(request, "file"), query_int(request, "game")
        return await replied(lambda: record_with_spots(replays.game(file, index)[0]))

    async def position(request):
        game, row = pasted_position(request.query_params.get("game"),
                                    request.query_params.getlist("option"),
                                    request.query_params.get("position"))
        row, played = moves_played(game, row, request.query_params.getlist("then"))
        player = int(game.current_player(row)[0])
        spots = game.move_spots(row) if player >= 0 else {}
        moves = [{"action": a, "name": game.action_to_string(row[0], a), "spot": spots.get(a)}
                 for a in (game.legal_actions(row[0]) if player >= 0 else [])]
        return reply({"game": game.name, "title": repr(game), "svg": game.render_svg(row),
                      "position": game.to_text(row), "to_move": player, "moves": moves,
                      "played": played})

    def moves_played(game, row, names):
        """``row`` after the decisions ``names`` (a line of moves), and where each was played:
        ``(row, [{"action", "name", "spot"}, ...])``; a 400 for a move that is not legal where
        it comes (a chance node or the end included)."""
        if len(names) > game.max_plies:
            raise Refused(f"then must name at most {game.max_plies} moves, got {len(names)}")
        played = []
        for k, name in enumerate(names):
            if int(game.current_player(row)[0]) < 0:
                raise Refused(f"then: move {k + 1} ({clip(name)}) comes where no one is to "
                                 "move (a chance outcome or the end)")
            try:
                action = game.string_to_action(row[0], name)
            except ValueError as err:
                raise Refused(f"then: move {k + 1}: {one_line(err)}") from None
            played.append({"action": action, "name": game.action_to_string(row[0], action),
                           "spot": game.move_spots(row).get(action)})
            row, _ = game.step(row, [action])
        return row, played

    def pasted_position(name, options, text):
        """(game, row) of a position in game ``name``'s notation, with ``options``."""
        if not isinstance(text, str) or len(text) > limits.max_text:
            raise Refused(f"position must be a text of at most {limits.max_text} "
                             f"characters in the game's notation, got {clip(text)}")
        if name not in GAMES:
            raise Refused(f"game must be one of {', '.join(GAMES)}, got {clip(name)}")
        _, game = parse_options(name, options or [], limits)
        try:
            return game, game.from_text(text)
        except ValueError as err:
            raise Refused(f"malformed position: {err}") from None

    async def ratings(request):
        return await replied(read_table, query(request, "file"), limits.folders)

    # ----- errors: one line each, without the server's own paths ------------------------
    async def refused(request, err):
        return reply({"error": unplaced(one_line(err))}, STATUS[err.kind])

    async def http_error(request, err):
        message = {404: f"no such route {request.url.path!r}; see GET /api/info",
                   405: f"{request.method} is not allowed on {request.url.path}"}
        return reply({"error": unplaced(message.get(err.status_code, one_line(err.detail)))},
                     err.status_code)

    async def server_error(request, err):  # a bug: its traceback goes to the server's log
        return reply({"error": "internal error (the server's log has the details)"}, 500)

    routes = [
        Route("/", page),
        Route("/api/info", info),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/readying", ready_ahead, methods=["POST"]),
        Route("/api/tables/{id}", view),
        Route("/api/tables/{id}/move", move, methods=["POST"]),
        Route("/api/tables/{id}/events", events),
        Route("/api/tables/{id}/pace", pace, methods=["POST"]),
        Route("/api/tables/{id}/advance", advance, methods=["POST"]),
        Route("/api/tables/{id}/undo", undo, methods=["POST"]),
        Route("/api/tables/{id}/record", table_record),
        Route("/api/analyses", new_analysis, methods=["POST"]),
        Route("/api/analyses/{id}", analysis, methods=["GET", "DELETE"]),
        Route("/api/reviews", new_review, methods=["POST"]),
        Route("/api/reviews/{id}", review, methods=["GET", "DELETE"]),
        Route("/api/reviews/{id}/puzzles", puzzles),
        Route("/api/files", files),
        Route("/api/records", records),
        Route("/api/replay", replay),
        Route("/api/record", file_record),
        Route("/api/ratings", ratings),
        Route("/api/position", position),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        started = time.perf_counter()
        found = await anyio.to_thread.run_sync(  # reads the agents' checkpoints
            journal.restore, limits, lambda snapshot: Table.restore(snapshot, limits))
        if found and say is not None:
            say(f"resumed {len(found)} unfinished games ({time.perf_counter() - started:.2f} s)")
        await pool.start()  # the search workers warm before the first request
        master.restore(found)
        warming = None if readying is None else asyncio.create_task(readying.run())
        try:
            yield
        finally:
            await pool.close()  # first: a search cancelled then starts no fresh worker
            if warming is not None:
                warming.cancel()
            await master.referee.close()
            journal.close()

    if public_url:  # the name others reach the server by (a proxy's) is its own
        allow_hosts = (*allow_hosts, urlsplit(public_url).netloc)
    allowed_names(allow_hosts)  # a mistake refused now, not at the first request
    guard = Middleware(Guard, token=token, host=host, allow_hosts=allow_hosts,
                       frame_ancestors=frame_ancestors)
    app = Starlette(routes=routes, middleware=[guard], lifespan=lifespan, exception_handlers={
        Refused: refused, HTTPException: http_error,
        Exception: server_error})
    app.state.lobby, app.state.tables, app.state.jobs = lobby, lobby.tables, jobs
    app.state.limits, app.state.pool = limits, pool
    app.state.hub, app.state.master, app.state.journal = hub, master, journal
    return app


def record_with_spots(record):
    """``{"record": the record's JSON line, "spots": [x, y] or None per event}``: where each
    decision sits on the board (a chance outcome has no spot), for the last-move marker."""
    game = record.game()
    states = record.states(game)
    spots = [game.move_spots(states[k: k + 1]).get(m["action"]) if "action" in m else None
             for k, m in enumerate(record.moves)]
    return {"record": record.to_json(), "spots": spots}


async def replied(make, *args):
    """The answer ``reply(make(*args))``, made on a worker thread: reading a file and
    serialising a big answer keep no other request waiting."""
    return await anyio.to_thread.run_sync(lambda: reply(make(*args)))


def first_human(table):
    return next((p for p, agent in enumerate(table.seats) if agent is None), None)


async def json_body(request, allowed):
    """The request's JSON object, with only ``allowed`` keys, at most ``MAX_BODY`` bytes."""
    body = b""
    async for chunk in request.stream():  # read no more than allowed
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(f"the request body is larger than {MAX_BODY} bytes", "too_large")
    try:
        data = parse_json(body or b"{}", "the request body")
    except ValueError as err:
        raise Refused(f"{err}; it must be a JSON object") from None
    if not isinstance(data, dict):
        raise Refused(f"the request body must be a JSON object, got {clip(data)}")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise Refused(f"unknown field {clip(unknown[0])}; allowed: "
                         f"{', '.join(sorted(allowed)) or 'none'}")
    return data


def query(request, name):
    value = request.query_params.get(name)
    if value is None:
        raise Refused(f"missing query parameter {name}")
    return value


def seat_key(request):
    return request.headers.get("x-seat-key")


def query_int(request, name, optional=False):
    value = request.query_params.get(name)
    if value is None or (optional and value in ("", "none")):
        if optional:
            return None
        raise Refused(f"missing query parameter {name} (an int)")
    try:
        return parse_int(value)
    except ValueError:
        raise Refused(f"{name} must be an int, got {clip(value)}") from None


def one_line(err):
    return str(err).replace("\n", " ")[:2000]


def reply(data, status=200):
    """A JSON response (NaN and infinities as null)."""
    return Response(as_json(data), status, media_type="application/json")


def as_json(data):
    """``data`` as compact JSON text, NaN and infinities as null."""
    return json.dumps(_finite(data), ensure_ascii=False, separators=(",", ":"))


def _finite(x):
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_finite(v) for v in x]
    return x
