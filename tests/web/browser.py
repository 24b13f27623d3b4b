"""What the board's browser tests share: Debian's chromium driven by Playwright (its own
browser download is never used), and a board served by uvicorn on a free port in a thread."""
import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager

import pytest
import uvicorn
from playwright.sync_api import sync_playwright

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
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning",
                                           timeout_graceful_shutdown=2))  # push connections
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(10)
