"""One local Ray cluster of two nodes (one CPU each) shared by every test in this folder: it
takes seconds to start. The tests skip when Ray is not installed, and run in one pytest-xdist
worker (``xdist_group``, ``make test``'s ``--dist loadgroup``)."""
import pytest

# Short health checks: a removed node is declared dead in about a second, not fifteen.
SYSTEM_CONFIG = {"health_check_period_ms": 200, "health_check_failure_threshold": 5,
                 "health_check_initial_delay_ms": 0}


@pytest.fixture(scope="session")
def cluster():
    """A head node and a second node, each of one CPU, with this process as the driver."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "include_dashboard": False, "_system_config": SYSTEM_CONFIG})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    yield cluster
    ray.shutdown()
    cluster.shutdown()


@pytest.fixture
def two_nodes(cluster):
    """The cluster with two live nodes again (a test may have removed one)."""
    import ray

    alive = [n for n in ray.nodes() if n["Alive"]]
    for _ in range(2 - len(alive)):
        cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    return cluster
