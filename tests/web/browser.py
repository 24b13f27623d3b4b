"""What the board's browser tests share: Debian's chromium driven by Playwright (its own
browser download is never used), and a board served by uvicorn on a free port in a thread."""
import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager

import pytest
from playwright.sync_api import sync_playwright

from savanna.board.network import ReadyServer, server_config

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
needs_chromium = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason="no chromium: the browser tests need Debian's chromium (make test installs it)")
# Headless, and nothing reaching out.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def chromium():
    """A headless Chromium, closed at the end."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def serving(app):
    """``app`` served on 127.0.0.1 at a free port while the block runs: its address."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = ReadyServer(server_config(app, timeout_graceful_shutdown=2), ready=lambda: None,
                         stopping=app.state.hub.close)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def opened(browser, address, viewport, expected_console_errors=(), timeout=120_000):
    """A new page of ``viewport``'s size on the board at ``address``, ready, closed at the end;
    a console error (but those starting with one of ``expected_console_errors``) or an
    uncaught exception on it fails the test."""
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(timeout)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith(expected_console_errors) else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(address)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    assert errors == []
    page.close()


def start_game(page, game, options, seats, watch=False):
    """A new game on the board's page, through its form; ``watch``: the agents' moves shown
    one by one (slower). Returns once the page shows the new table."""
    page.select_option("#game", game)
    page.set_checked("#watch", watch)
    page.fill("#options", options)
    page.fill("#seats", seats)
    before = page.locator("#play-panel").get_attribute("data-table") or ""
    page.click("#start")
    page.wait_for_function("document.querySelector('#play-panel').dataset.table "
                           f"&& document.querySelector('#play-panel').dataset.table !== '{before}'")


def save_tournament(folder):
    """A recorded round robin of random and greedy at Zèbres in ``folder``/tour (its
    tournament.json and records.jsonl), as ``savanna tournament --records`` writes it."""
    from savanna import make_game
    from savanna.agents import make_agent, tournament

    result = tournament(make_game("zebres"), [make_agent("random"), make_agent("greedy")],
                        games_per_pair=1, seed=0, workers=1, record=True, progress=False)
    result.save(folder / "tour")
