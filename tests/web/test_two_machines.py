"""Links for other machines: the host's page at 127.0.0.1, the server told that others reach it
at 127.0.0.2 (``--public-url``, a second loopback address standing for the colleague's view of
the host), and a guest's browser that opens the link copied from the host's page there and
plays to the end. A server reached only at a loopback address says so beside its links."""
import socket
import threading
import time

import pytest

from savanna.board.network import ReadyServer, server_config
from savanna.board.server import create_app
from savanna.board.tables import Limits
from tests.web.browser import needs_chromium, serving
from tests.web.test_live import move, open_page, to_move

pytestmark = needs_chromium
TOKEN = "a-two-machines-token"
GUEST_HOST = "127.0.0.2"


def two_sockets():
    """Sockets at 127.0.0.1 and 127.0.0.2 on one port."""
    for _ in range(20):
        first = socket.socket()
        first.bind(("127.0.0.1", 0))
        port = first.getsockname()[1]
        second = socket.socket()
        try:
            second.bind((GUEST_HOST, port))
            return port, [first, second]
        except OSError:
            first.close()
            second.close()
    pytest.skip(f"no port free at both 127.0.0.1 and {GUEST_HOST}")


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    port, sockets = two_sockets()
    limits = Limits(max_sims=100, max_seconds=60, save=tmp_path_factory.mktemp("played"))
    app = create_app(limits, workers=1, token=TOKEN,
                     public_url=f"http://{GUEST_HOST}:{port}")
    server = ReadyServer(server_config(app, timeout_graceful_shutdown=2),
                         ready=lambda: None, stopping=app.state.hub.close)
    thread = threading.Thread(target=server.run, kwargs={"sockets": sockets}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield port, app
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_guest_opens_the_copied_link_at_the_public_address_and_plays_to_the_end(browser,
                                                                                  public):
    port, app = public
    host = open_page(browser, f"http://127.0.0.1:{port}/?token={TOKEN}")
    host.select_option("#game", "zebres")
    host.fill("#options", "")
    host.fill("#seats", "human,human")
    host.click("#start")
    host.wait_for_selector("#invite-1")
    links = [host.locator(f"#invite-{k}").input_value() for k in ("1", "spectate")]
    assert all(link.startswith(f"http://{GUEST_HOST}:{port}/?token={TOKEN}#play/")
               for link in links), links
    assert host.locator("#invite-local").count() == 0  # these links work elsewhere
    host.click("[data-copy=invite-1]")
    guest = open_page(browser, links[0])
    assert guest.evaluate("location.hostname") == GUEST_HOST
    table = app.state.tables[host.locator("#play-panel").get_attribute("data-table")]
    pages = {0: host, 1: guest}
    deadline = time.monotonic() + 600
    while not table.over:
        assert time.monotonic() < deadline
        mover = pages[table.to_move]
        if not to_move(mover):
            time.sleep(0.02)  # the push on its way
            continue
        version = len(table.events)
        move(mover)
        mover.wait_for_function(f"Number(document.querySelector('#board').dataset.state) > "
                                f"{version}")
    for page in pages.values():
        page.wait_for_selector("#winner")
        assert page.errors == []
        page.context.close()


def test_links_of_a_server_reached_at_loopback_only_say_they_work_here_only(browser,
                                                                            tmp_path):
    app = create_app(Limits(save=tmp_path), workers=1, token=TOKEN)
    with serving(app) as address:
        host = open_page(browser, f"{address}?token={TOKEN}")
        host.select_option("#game", "zebres")
        host.fill("#options", "")
        host.fill("#seats", "human,human")
        host.click("#start")
        host.wait_for_selector("#invite-local")
        assert "this computer only" in host.locator("#invite-local").text_content()
        host.context.close()
