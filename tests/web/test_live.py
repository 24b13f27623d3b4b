"""Live tables in real browsers: a host, a guest who came by the host's invitation link and a
spectator, each in a browser context of their own (their own cookies and storage), at one Bonobo
table with an AlphaZero agent. Nobody reloads; every page shows each move within a second of
the server making it; the spectator sees every move and nothing private; the agents play on
when the host's page is closed. (The notebook's frame is in test_notebook_live.py.)

With ``SAVANNA_SCREENSHOTS=folder`` the two seats and the spectator are photographed there (the
guide's pictures)."""
import os
import time
from pathlib import Path

import pytest

from savanna.board.server import create_app
from savanna.board.tables import Limits
from tests.web.browser import needs_chromium, serving

pytestmark = needs_chromium
SHOTS = os.environ.get("SAVANNA_SCREENSHOTS")
TOKEN = "a-live-test-token"
TIMEOUT_MS = int(os.environ.get("SAVANNA_BROWSER_TIMEOUT_MS", 120_000))
EXPECTED_ANSWER = "Failed to load resource: the server responded with a status of"
# each page notes when it first showed each position (the board's data-state: the version)
SEEN = """() => { window.seen = {}; const note = () => {
  const board = document.querySelector('#board');
  if (board && board.dataset.state && !(board.dataset.state in window.seen)) {
    window.seen[board.dataset.state] = Date.now(); } };
  new MutationObserver(note).observe(document.body, { subtree: true, attributes: true,
                                                      attributeFilter: ['data-state'] });
  note(); }"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    limits = Limits(max_sims=500, max_seconds=60, save=tmp_path_factory.mktemp("played"))
    app = create_app(limits, workers=1, token=TOKEN)
    published = []  # (version, time) of each change the server pushed

    def noted(table, publish=app.state.hub.publish):
        published.append((table.id, len(table.events), time.time()))
        publish(table)

    app.state.hub.publish = noted
    with serving(app) as address:
        yield address, app, published


def open_page(browser, url, script=None):
    """A page in a browser context of its own (a person at another computer), at ``url``
    (``script``: run before the page's own)."""
    context = browser.new_context(viewport={"width": 1300, "height": 860})
    page = context.new_page()
    if script:
        page.add_init_script(script)
    page.set_default_timeout(TIMEOUT_MS)
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error"
            and not m.text.startswith(EXPECTED_ANSWER) else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate(SEEN)
    page.opened = time.time()
    return page


def host_a_table(browser, address, seats, options):
    """The host's page with a new game of Bonobo, and its invitation links."""
    host = open_page(browser, f"{address}?token={TOKEN}")
    host.select_option("#game", "bonobo")
    host.set_checked("#watch", False)
    host.fill("#options", options)
    host.fill("#seats", seats)
    host.click("#start")
    host.wait_for_selector("#invite-spectate")
    links = {k: host.locator(f"#invite-{k}").input_value() for k in ("1", "spectate")}
    return host, links


def state(page):
    return int(page.locator("#board").get_attribute("data-state"))


def move(page):
    """Click the first lit spot (then the first move of that spot, if it has several), or the
    first move's button."""
    spots = page.locator(".hot")
    if spots.count():
        spots.first.click()
        picked = page.locator("#moves button.picked")
        if picked.count():
            picked.first.click()
    else:
        page.locator("#moves button[data-action]").first.click()


def to_move(page):
    """Whether the page's seat is to move: its moves are offered."""
    return page.locator("#moves button[data-action]").count() > 0


def test_host_guest_and_agent_play_a_whole_game_with_no_reload_and_a_spectator_sees_it(
        browser, served):
    address, app, published = served
    host, links = host_a_table(browser, address, "human,human,az:baseline", "num_players=3")
    table = app.state.tables[host.locator("#play-panel").get_attribute("data-table")]
    guest = open_page(browser, links["1"])
    spectator = open_page(browser, links["spectate"])
    pages = {"host": host, "guest": guest, "spectator": spectator}
    assert "You play Player 1" in guest.locator("#turn").text_content()
    assert "You are watching" in spectator.locator("#turn").text_content()
    host.wait_for_function("document.querySelector('#presence').textContent"
                           ".includes('Player 1') && document.querySelector('#presence')"
                           ".textContent.includes('1 watching')")
    shot = False
    deadline = time.monotonic() + 600
    while not table.over and time.monotonic() < deadline:
        mover = {0: host, 1: guest}.get(table.to_move)
        if mover is None or not to_move(mover):  # the agent's turn, or a push on its way
            time.sleep(0.02)
            continue
        for page in pages.values():  # the other seat has no move to make
            assert page is mover or not to_move(page)
        assert str(table.seed) not in spectator.content()
        if SHOTS and not shot and len(table.events) > 12:
            for name, page in pages.items():
                page.screenshot(path=str(Path(SHOTS) / f"board-live-{name}.png"))
            shot = True
        version = len(table.events)
        move(mover)
        mover.wait_for_function(f"Number(document.querySelector('#board').dataset.state) > "
                                f"{version}")
    assert table.over
    for page in pages.values():
        page.wait_for_selector("#winner")
    # every change the server pushed while the page was open was on it within a second
    changes = [(v, t) for table_id, v, t in published if table_id == table.id]
    assert len(changes) > 40
    for name, page in pages.items():
        seen = {int(k): v / 1000 for k, v in page.evaluate("window.seen").items()}
        late = [(v, min(s for k, s in seen.items() if k >= v) - t) for v, t in changes
                if t > page.opened]
        assert max(delay for _, delay in late) < 1.0, (name, sorted(late, key=lambda x: -x[1])[:5])
    # the spectator saw every move and nothing to play, no link, no seed before the end
    assert spectator.locator("#invitations").is_hidden()
    log = spectator.locator("#log li").count()
    assert log == len(table.log)
    for page in pages.values():
        assert page.errors == []
        page.context.close()


def test_the_agents_play_on_when_the_hosts_page_is_closed(browser, served):
    address, app, _ = served
    host, links = host_a_table(browser, address, "human,human,az:baseline", "num_players=3")
    table = app.state.tables[host.locator("#play-panel").get_attribute("data-table")]
    guest = open_page(browser, links["1"])
    spectator = open_page(browser, links["spectate"])
    move(host)
    guest.wait_for_selector("#moves button[data-action]", state="attached")
    host.context.close()  # the page that made the table is gone
    version = state(guest)
    move(guest)
    agent = version + 2  # the guest's move, then the agent's (and the tiles after it)
    for page in (guest, spectator):
        page.wait_for_function(f"Number(document.querySelector('#board').dataset.state) >= "
                               f"{agent}")
    assert any(e["who"] == 2 for e in table.log)  # the agent moved, nobody asking
    for page in (guest, spectator):
        assert page.errors == []
        page.context.close()


# notes the highest revision each push connection has delivered to the page's reader
PUSHED = """(() => {
  window.pushed = -1;
  const fetched = window.fetch;
  window.fetch = async (...args) => {
    const response = await fetched(...args);
    if (!String(args[0]).endsWith("/events") || !response.body) return response;
    const decoder = new TextDecoder();
    let text = "";  // the end of the last chunk too: a number cut in two is read whole
    const noted = new TransformStream({ transform(chunk, out) {
      text = text.slice(-40) + decoder.decode(chunk, { stream: true });
      for (const m of text.matchAll(/"revision":(\\d+)[,}]/g))
        window.pushed = Math.max(window.pushed, Number(m[1]));
      out.enqueue(chunk);
    } });
    return new Response(response.body.pipeThrough(noted),
                        { status: response.status, headers: response.headers });
  };
})()"""


def test_a_push_that_comes_while_a_move_is_pressed_never_swallows_its_click(browser, served):
    """The board drawn again under a press (a pace change pushed meanwhile) would take the
    pressed spot away before its release: the push waits for the click. The press lasts
    until the page's push connection has delivered that change (``PUSHED``) and the page's
    tasks have run."""
    address, app, _ = served
    host = open_page(browser, f"{address}?token={TOKEN}", PUSHED)
    host.select_option("#game", "zebres")
    host.set_checked("#watch", False)
    host.fill("#options", "")
    host.fill("#seats", "human,human")
    host.click("#start")
    host.wait_for_selector(".hot")
    table = app.state.tables[host.locator("#play-panel").get_attribute("data-table")]
    pressed = 0
    while pressed < 3:  # a lit spot of the board whose one move a click plays
        host.wait_for_selector(".hot")
        host.wait_for_function("Number(document.querySelector('#board').dataset.state) === "
                               f"{len(table.events)}")
        version, revision = len(table.events), table.revision
        spots = host.locator(".hot").evaluate_all("cs => cs.map(c => c.dataset.actions)")
        single = next((n for n, actions in enumerate(spots) if " " not in actions), None)
        if single is None:  # a spot of several moves: played as usual
            move(host)
            host.wait_for_function("Number(document.querySelector('#board').dataset.state) > "
                                   f"{version}")
            continue
        box = host.locator(".hot").nth(single).bounding_box()
        if box is None:  # drawn again meanwhile (the board turned to the other seat)
            continue
        pressed += 1
        host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        host.mouse.down()
        host.evaluate("""async (id) => {
            const keys = JSON.parse(localStorage.getItem(`savanna-keys/${id}`));
            await fetch(`/api/tables/${id}/pace`, { method: "POST", body: JSON.stringify(
              { delay: 0.5 }), headers: { "X-Seat-Key": keys.control,
                                          "Content-Type": "application/json" } }); }""",
                      table.id)
        assert table.revision > revision  # the pace changed (the fetch has its answer)
        host.wait_for_function(f"window.pushed >= {table.revision}")  # its push arrived,
        host.evaluate("() => new Promise((done) => setTimeout(() => setTimeout(done)))")
        host.mouse.up()  # and the page handled it, while the button is held
        host.wait_for_function(f"Number(document.querySelector('#board').dataset.state) > "
                               f"{version}")
        assert len(table.events) > version
    assert host.errors == []
    host.context.close()
