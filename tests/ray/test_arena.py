"""Matches and tournaments sharded into Ray tasks give the files of the local backend, byte
for byte (but the wall time in the JSON), and survive a worker or a node dying mid-match."""
import builtins
import csv
import io
import json
import threading
import time

from savanna.agents.arena.matches import play_match, tournament
from savanna.agents.play.random_agent import RandomAgent
from savanna.agents.play.registry import make_agent
from tests.agents.coin_game import CoinGame
from tests.ray.agents import DiesOnce, HangsOnNode


def coin_table(choices):
    return [40 + 10 * choices[0], 30, 30 - 10 * choices[0]]


def assert_same_files(local, distributed, tmp_path):
    """The two results saved give the same files; the JSON differs only in wall time."""
    assert_same_folders(local.save(tmp_path / "local"), distributed.save(tmp_path / "ray"))


def assert_same_folders(a, b):
    """Folders ``a`` and ``b`` hold the same files; the JSON and CSV differ only in times."""
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        if name.endswith(".json"):
            assert _timeless(json.loads((a / name).read_text())) == _timeless(
                json.loads((b / name).read_text())), name
        elif name.endswith(".csv"):
            assert _timeless(list(csv.DictReader(io.StringIO((a / name).read_text())))) == \
                _timeless(list(csv.DictReader(io.StringIO((b / name).read_text())))), name
        else:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def _timeless(data):
    if isinstance(data, dict):
        return {k: _timeless(v) for k, v in data.items()
                if k not in ("seconds", "seconds_per_decision")}
    if isinstance(data, list):
        return [_timeless(v) for v in data]
    return data


def test_a_sharded_match_gives_the_local_files(two_nodes, tmp_path):
    from savanna.zebres.game import ZebresGame

    game, agents = ZebresGame(), [make_agent("greedy"), RandomAgent()]
    local = play_match(game, agents, games=12, seed=7, workers=1, progress=False,
                       batch_size=3)
    sharded = play_match(game, agents, games=12, seed=7, progress=False, batch_size=3,
                         backend="ray")
    assert_same_files(local, sharded, tmp_path)


def test_a_sharded_tournament_gives_the_local_files(two_nodes, tmp_path):
    game = CoinGame(coin_table)
    field = [RandomAgent(), make_agent("greedy"), RandomAgent()]
    local = tournament(game, field, games_per_pair=20, seed=3, workers=1, progress=False)
    sharded = tournament(game, field, games_per_pair=20, seed=3, progress=False,
                         backend="ray")
    assert_same_files(local, sharded, tmp_path)


def test_a_worker_dying_mid_match_is_survived_with_the_same_results(two_nodes, tmp_path):
    game, print_before = CoinGame(coin_table), builtins.print
    marker = tmp_path / "died"
    local = play_match(game, [RandomAgent(), RandomAgent()], games=16, seed=5, workers=1,
                       progress=False)
    sharded = play_match(game, [DiesOnce(marker), RandomAgent()], games=16, seed=5,
                         progress=False, backend="ray")
    assert marker.exists()  # a worker did die
    assert_same_files(local, sharded, tmp_path)
    # Ray's notice of the death left print alone: numba still compiles code that prints
    assert builtins.print is print_before


def test_a_node_dying_mid_match_is_survived_with_the_same_results(two_nodes, tmp_path):
    node = next(iter(two_nodes.worker_nodes))  # not the head, where the driver is
    game = CoinGame(coin_table)
    marker = tmp_path / "started"

    def remove_node_once_a_task_runs_there():
        deadline = time.monotonic() + 120
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        two_nodes.remove_node(node, allow_graceful=False)

    killer = threading.Thread(target=remove_node_once_a_task_runs_there)
    killer.start()
    sharded = play_match(game, [HangsOnNode(node.node_id, marker), RandomAgent()],
                         games=16, seed=6, progress=False, backend="ray")
    killer.join()
    assert marker.exists()  # a task was running on the node when it went
    local = play_match(game, [RandomAgent(), RandomAgent()], games=16, seed=6, workers=1,
                       progress=False)
    assert_same_files(local, sharded, tmp_path)
