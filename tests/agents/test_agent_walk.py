"""The way from an agent spec to its network stays short (``savanna.benchmarks.agent_walk``)."""
from savanna.benchmarks.agent_walk import Walk, walk

# A declared budget: ``python -m savanna.benchmarks.agent_walk`` on the code before the search
# engine and the network loader were straightened (main at 8509ae1) counted this walk.
BEFORE = Walk(calls=137, files=18, returns=60)


def test_az_baseline_reaches_its_network_in_half_the_calls_and_returns_it_took():
    found = walk("az:baseline", "zebres")
    assert found.calls <= BEFORE.calls // 2, found
    assert found.returns <= BEFORE.returns // 2, found
