"""One local Ray cluster of two nodes (one CPU each) shared by the tests of this folder that a
pytest process runs (it takes seconds to start; pytest-xdist's ``loadgroup``, which would keep
them in one worker, does not group them with pytest 9.2 and xdist 3.8). The tests skip when Ray
is not installed."""
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
    """The cluster with two live nodes again (a test may have removed one: the cluster's own
    list knows at once, Ray's only after its health checks)."""
    for _ in range(2 - len(cluster.list_all_nodes())):
        cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    return cluster
