"""The way from an agent spec to its network stays short (``savanna.benchmarks.agent_walk``),
counted in a fresh process as the script counts it (a test process's earlier tests would leave
agents, caches and plug-ins loaded on the way)."""
import re
import subprocess
import sys

from savanna.benchmarks.agent_walk import Walk, first_decision

# A declared budget: ``python -m savanna.benchmarks.agent_walk`` on the code before the search
# engine and the network loader were straightened (main at 8509ae1) counted this walk (the
# generated template modules beside numba's cache not counted, as today).
BEFORE = Walk(calls=136, files=17, returns=60)


def test_az_baseline_reaches_its_network_in_half_the_calls_and_returns_it_took():
    out = subprocess.run([sys.executable, "-m", "savanna.benchmarks.agent_walk"],
                         capture_output=True, text=True, check=True).stdout
    calls, files, returns = map(int, re.search(
        r"(\d+) calls in (\d+) files, (\d+) of them returning", out).groups())
    found = Walk(calls, files, returns)
    assert found.calls <= BEFORE.calls // 2, found
    assert found.returns <= BEFORE.returns // 2, found


def test_the_walk_starts_at_the_first_decision_of_every_game(game):
    assert game.current_player(first_decision(game))[0] >= 0


def test_the_walk_runs_on_a_game_that_starts_with_chance_nodes():
    """Banjooli's first states are dice rolls: the walk starts after them."""
    out = subprocess.run([sys.executable, "-m", "savanna.benchmarks.agent_walk", "--game",
                          "banjooli"], capture_output=True, text=True, check=True).stdout
    assert re.match(r"az:baseline on banjooli: \d+ calls in \d+ files", out), out
