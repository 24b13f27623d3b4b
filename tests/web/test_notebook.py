"""``savanna.board.show`` and the ``%savanna`` magic: one server per set of folders,
started once; an IFrame that shows a recorded game at its ply, a new game or a position, working
inside a page of another origin (as a notebook embeds it); one-line errors for a bad file,
index, ply, game, position or seat. ``SAVANNA_SCREENSHOTS=docs/images`` takes the tutorials'
picture of the embedded board."""
import html
import http.server
import os
import threading
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from savanna.board import show
from savanna.records import read_records
from tests.agents.test_review import write_tournament_game

SHOTS = os.environ.get("SAVANNA_SCREENSHOTS")  # a folder: the docs' picture is taken there
POSITION = "z...../..G.../....../.l..../...... g 21 - move"


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    return write_tournament_game(tmp_path_factory.mktemp("match"), "zebres")


def token_and_view(frame):
    """The token and the view (``play``, ``play/TABLE/KEY``, ...) the frame's address brings in
    its fragment (``#token=TOKEN&VIEW``)."""
    login, _, view = urlsplit(frame.src).fragment.partition("&")
    return parse_qs(login)["token"][0], view


def get(frame, path=""):
    """``GET path`` of the server of ``frame`` with its token: the answer."""
    address = urlsplit(frame.src)
    request = urllib.request.Request(f"{address.scheme}://{address.netloc}/{path}")
    request.add_header("Authorization", f"token {token_and_view(frame)[0]}")
    return urllib.request.urlopen(request)


def notebook_page(output, code, host="localhost"):
    """A page of another origin at ``host`` showing ``code`` and ``output`` (the IFrame's HTML)
    as a notebook does; its address (served on a thread) and server."""
    body = f"""<!doctype html><meta charset=utf-8><title>notebook</title><style>
body {{ font: 14px system-ui, sans-serif; margin: 16px 24px; }} .cell {{ display: flex; gap: 8px; }}
.prompt {{ width: 64px; color: #307fc1; font-family: monospace; text-align: right; }}
.out .prompt {{ color: #bf5b3d; }} .cell > :last-child {{ flex: 1; margin: 4px 0; }}
pre {{ background: #f5f5f5; border: 1px solid #e0e0e0; padding: 8px; }}</style>
<div class="cell"><div class="prompt">In [1]:</div><pre>{html.escape(code)}</pre></div>
<div class="cell out"><div class="prompt">Out[1]:</div><div>{output}</div></div>"""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://{host}:{server.server_address[1]}/", server  # as Jupyter prints it


def embedded(browser, output, code, host="localhost"):
    """The board's frame (``output``: its HTML) inside a notebook-like page at ``host``, once
    the board is ready."""
    address, server = notebook_page(output, code, host)
    page = browser.new_page(viewport={"width": 1200, "height": 740})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(address)
    board = page.frame_locator("iframe")
    board.locator("body[data-ready=true]").wait_for(timeout=60_000)
    return page, board, errors, server


def test_one_server_per_folders_started_once(tmp_path):
    first, again = show(folders=[tmp_path]), show(folders=[tmp_path])
    assert first.src == again.src and token_and_view(first)[1] == "play"
    assert "?" not in first.src  # the token is in no address a server sees
    other = show(folders=[tmp_path, tmp_path.parent])
    assert urlsplit(other.src).port != urlsplit(first.src).port
    with get(first) as answer:
        assert answer.status == 200 and b"<title>Savanna board</title>" in answer.read()


def test_a_record_at_its_ply_in_a_page_of_another_origin(browser, records):
    record = read_records(records)[1]
    frame = show(records, index=1, ply=24, height=640)
    assert unquote(token_and_view(frame)[1]) == f"replay/{records.name}/1/24"
    code = ('from savanna.board import show\n'
            'show("runs/match-zebres/records.jsonl", index=1, ply=24)')
    page, board, errors, server = embedded(browser, frame._repr_html_(), code)
    board.locator(f"#board[data-state='{record.ply_index(24)}']").wait_for(timeout=60_000)
    assert errors == []
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "notebook-board.png"))
    page.close()
    server.shutdown()


def test_a_new_game_is_made_and_shown_at_its_human_seat(browser):
    frame = show(game="zebres", seats=["random", "human"], seed=4)
    table, seat = token_and_view(frame)[1].removeprefix("play/").split("/")
    with get(frame, f"api/tables/{table}") as answer:
        assert answer.status == 200
    assert seat  # seat 1, or its key where the server gives keys
    page, board, errors, server = embedded(browser, frame._repr_html_(), "show(game='zebres', ...)")
    assert board.locator("#board svg").count() == 1
    assert errors == []
    page.close()
    server.shutdown()


def test_a_position_goes_to_the_analysis_view_checked_first():
    frame = show(game="zebres", position=POSITION, options={"board": "standard"})
    assert unquote(token_and_view(frame)[1]) == f"analyse/zebres/board=standard/{POSITION}"
    assert html.escape(frame.src) in frame._repr_html_()


@pytest.mark.parametrize("kwargs, message", [
    ({"record": "none.jsonl"}, "cannot read records file"),
    ({"record": "{records}", "index": 5}, "--game must be in 0..1"),
    ({"record": "{records}", "ply": 10_000}, "ply must be in 0.."),
    ({"record": "{records}", "game": "zebres"}, "not several at once"),
    ({"game": "nosuch", "position": POSITION}, "nosuch"),
    ({"game": "zebres", "position": "nonsense"}, "position must have 5"),
    ({"position": POSITION}, "name the game"),
    ({"game": "zebres", "seats": ["human", "nosuch"]}, "unknown agent 'nosuch'"),
    ({"game": "zebres", "options": ["board"]}, "key=value"),
    ({"folders": ["/no/such/folder"]}, "is not a folder"),
])
def test_mistakes_are_one_line_errors(records, kwargs, message):
    kwargs = {k: str(records) if v == "{records}" else v for k, v in kwargs.items()}
    with pytest.raises(ValueError, match=message) as err:
        show(**kwargs)
    assert "\n" not in str(err.value)


def test_the_magic_shows_what_show_shows(records, capsys):
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "savanna.board")
    frame = shell.run_line_magic("savanna", f"{records} --index 1 --ply 3")
    assert frame.src == show(records, index=1, ply=3).src
    table = shell.run_line_magic("savanna", "--game bonobo -o num_players=3 "
                                            "--seats human,random,random --seed 2")
    assert token_and_view(table)[1].startswith("play/")
    assert shell.run_line_magic("savanna", f"{records} --index 9") is None
    assert capsys.readouterr().err.startswith("%savanna: error: --game must be in 0..1")


def test_a_game_against_an_agent_in_a_live_kernel_plays_to_the_end_in_a_page_at_127(
        browser, tmp_path):
    """The magic run by a real kernel (nbclient), its output in a page at 127.0.0.1 (the board
    is at localhost: another site, so no cookie reaches the frame); every move clicked inside
    the frame, the agent's replies pushed, to the end, with no reload."""
    import nbformat
    from nbclient import NotebookClient

    code = "%load_ext savanna.board\n" + \
        "%savanna --game bonobo --seats human,az:baseline -o num_players=2"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    with client.setup_kernel():  # the kernel, and the board's server in it, live meanwhile
        client.execute_cell(notebook.cells[0], 0)
        output = notebook.cells[0].outputs[-1]["data"]["text/html"]
        assert "<iframe" in output and "localhost" in output and "?token" not in output
        page, board, errors, server = embedded(browser, output, code, host="127.0.0.1")
        assert page.url.startswith("http://127.0.0.1:")
        for _ in range(400):
            if board.locator("#winner").count():
                break
            board.locator("#moves button[data-action]").first.wait_for(
                state="attached", timeout=60_000)
            before = board.locator("#board").get_attribute("data-state")
            spots = board.locator(".hot")
            if spots.count():
                spots.first.click()
                picked = board.locator("#moves button.picked")
                if picked.count():
                    picked.first.click()
            else:
                board.locator("#moves button[data-action]").first.click()
            board.locator(f"#board:not([data-state='{before}'])").wait_for(timeout=60_000)
            board.locator("#moves button[data-action], #winner").first.wait_for(
                state="attached", timeout=60_000)
        assert board.locator("#winner").count() == 1
        assert "Game over" in board.locator("#result").text_content()
        assert board.locator("#error").text_content() == ""
        assert errors == []
        page.close()
        server.shutdown()
