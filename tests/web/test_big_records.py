"""A large records file is read as a stream: the server keeps an index of where each record's
line starts and parses only the lines a page or a game needs, so that its memory stays bounded
whatever the file's size and ``/api/info`` answers at once while the file is listed and its last
game opened. The index agrees with ``savanna.records.read_records`` line for line."""
import json
import threading
import time
import tracemalloc

import pytest

from savanna.board import served_files
from savanna.board.refusals import Refused
from savanna.board.served_files import Replays
from savanna.board.server import create_app
from savanna.board.tables import Limits
from savanna.records import make_record, read_records
from savanna.registry import make_game
from tests.web.browser import serving
from tests.web.push import TOKEN, call

LINES = 100_000


def record_line(k):
    """A record of Zèbres after two moves, numbered ``k`` in its info."""
    game = make_game("zebres")
    start = game.init(1, rng=0)
    row, events = start.copy(), []
    for _ in range(2):
        action = int(game.legal_actions(row[0])[0])
        events.append((int(game.current_player(row)[0]), action))
        row, _ = game.step(row, [action])
    line = make_record(game, start, events, ["random", "random"], info={"n": 0}).to_json()
    return json.dumps(line, separators=(",", ":")).replace('"n":0', f'"n":{k}')


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A folder with ``big.jsonl``: ``LINES`` records, a blank line among them."""
    folder = tmp_path_factory.mktemp("records")
    template = record_line(0)
    with open(folder / "big.jsonl", "w") as f:
        for k in range(LINES):
            f.write(template.replace('"n":0', f'"n":{k}') + ("\n\n" if k == 10 else "\n"))
    return folder


def test_the_index_agrees_with_read_records_across_chunks_and_blank_lines(tmp_path,
                                                                        monkeypatch):
    monkeypatch.setattr(served_files, "CHUNK", 97)  # lines cross the chunks' ends
    lines = [record_line(k) for k in range(6)]
    text = (lines[0] + "\n\n" + lines[1] + "\n   \n" + lines[2] + "\r\n" + lines[3] + "\n\n\n"
            + lines[4] + "\n" + lines[5])  # the last line without its newline
    (tmp_path / "r.jsonl").write_text(text)
    expected = read_records(tmp_path / "r.jsonl")
    records = Replays((tmp_path,)).records("r.jsonl")
    assert len(records) == len(expected) == 6
    assert [r.info for r in records.read(0, 6)] == [r.info for r in expected]
    assert records[5].info == {"n": 5} and records.read(2, 4)[1].info == {"n": 3}
    assert list(records.lines) == [1, 3, 5, 6, 9, 10]  # the file's line numbers
    (tmp_path / "bad.jsonl").write_text(lines[0] + "\n" + "\n" + "{not json\n")
    bad = Replays((tmp_path,)).records("bad.jsonl")
    assert bad[0].info == {"n": 0}
    with pytest.raises(Refused, match="bad.jsonl' line 3 is not JSON"):
        bad[1]
    (tmp_path / "blank.jsonl").write_text("\n  \n")
    with pytest.raises(Refused, match="holds no records"):
        Replays((tmp_path,)).records("blank.jsonl")


def test_a_large_records_file_is_listed_with_bounded_memory(big):
    size = (big / "big.jsonl").stat().st_size
    replays = Replays((big,))
    tracemalloc.start()
    try:
        page = replays.listing("big.jsonl", LINES - 500)
        last = replays.game("big.jsonl", LINES - 1)[0]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert page["total"] == LINES and page["next"] is None and len(page["games"]) == 500
    assert page["games"][-1]["info"] == {"n": LINES - 1} and last.info == {"n": LINES - 1}
    assert peak < size / 8, (peak, size)  # 16 bytes a record and a page, not the file


def test_info_answers_at_once_while_a_large_records_file_is_read(big):
    app = create_app(Limits(folders=(big,)), workers=1, token=TOKEN)
    with serving(app) as address:
        answers = []

        def read():
            answers.append(call(address, "GET", f"/api/records?file=big.jsonl&offset={LINES - 3}"))
            answers.append(call(address, "GET", f"/api/record?file=big.jsonl&game={LINES - 1}"))

        call(address, "GET", "/api/info")  # its first answer, untimed
        reader = threading.Thread(target=read)
        reader.start()
        slowest = 0.0
        while reader.is_alive():
            started = time.perf_counter()
            call(address, "GET", "/api/info")
            slowest = max(slowest, time.perf_counter() - started)
        reader.join()
        assert answers[0]["total"] == LINES and len(answers[0]["games"]) == 3
        assert json.loads(json.dumps(answers[1]["record"]))["info"] == {"n": LINES - 1}
        assert slowest < 0.5, slowest  # read whole, the file held every answer 1.8 s
