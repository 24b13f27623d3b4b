"""The sparse first layer is ``nn.Linear`` on the dense observation: same values, same
gradients, for binary observations, counts above 1, empty rows and a scale."""
import numpy as np
import pytest
import torch

from savanna.agents.models.features import active_features, sparse_linear, stack_features
from savanna.agents.models.inference import BLAS_ROWS, network_evaluator
from savanna.agents.models.networks import AZNet


def observations(rng, n, size, high):
    obs = (rng.random((n, size)) < 0.1) * rng.integers(1, high + 1, (n, size))
    obs[0] = 0  # a row with no active feature
    return obs.astype(np.uint8)


def test_active_features_list_each_entry_as_often_as_its_value():
    obs = np.array([[0, 1, 0, 2], [0, 0, 0, 0], [3, 0, 0, 1]], np.uint8)
    assert active_features(obs).tolist() == [[1, 3, 3, 4, 4], [4, 4, 4, 4, 4],
                                             [0, 0, 0, 3, 4]]


@pytest.mark.parametrize("high, scale", [(1, 1.0), (3, 0.25)])
@pytest.mark.parametrize("rows", [BLAS_ROWS - 1, BLAS_ROWS])  # the numba loop, torch's product
def test_the_search_evaluator_is_the_torch_network(high, scale, rows):
    """``inference.network_evaluator`` against the network's own forward pass, on
    observations with counts above 1 and a trunk of three layers."""
    rng = np.random.default_rng(high)
    obs = observations(rng, rows, 30, high)
    mask = rng.random((rows, 9)) < 0.5
    mask[:, 0] = True
    torch.manual_seed(high)
    net = AZNet(30, 9, 3, (16, 8, 8), scale).eval()
    priors, values = network_evaluator(net)(obs, mask)
    with torch.no_grad():
        logits, expected = net.from_features(torch.from_numpy(active_features(obs)))
    logits[torch.from_numpy(~mask)] = -torch.inf
    assert values == pytest.approx(expected.numpy(), abs=1e-5)
    assert priors == pytest.approx(torch.softmax(logits, dim=1).numpy(), abs=1e-6)


@pytest.mark.parametrize("high, scale", [(1, 1.0), (3, 1.0), (3, 0.25)])
def test_sparse_linear_is_the_dense_layer_values_and_gradients(high, scale):
    rng = np.random.default_rng(high)
    obs = observations(rng, 300, 50, high)
    layer = torch.nn.Linear(50, 7)
    upstream = torch.from_numpy(rng.normal(size=(300, 7)).astype(np.float32))

    dense = layer(torch.from_numpy(obs).float() * scale)
    dense.backward(upstream)
    expected = layer.weight.grad.clone(), layer.bias.grad.clone()
    layer.zero_grad()
    sparse = sparse_linear(torch.from_numpy(active_features(obs)), layer.weight, layer.bias,
                           scale)
    sparse.backward(upstream)
    assert torch.allclose(sparse, dense, atol=1e-5)
    assert torch.allclose(layer.weight.grad, expected[0], atol=1e-4)
    assert torch.allclose(layer.bias.grad, expected[1], atol=1e-4)


def test_stacked_blocks_keep_their_rows():
    rng = np.random.default_rng(0)
    blocks = [observations(rng, 20, 30, 1), observations(rng, 5, 30, 4)]
    stacked = stack_features([active_features(b) for b in blocks], 30)
    layer = torch.nn.Linear(30, 4)
    with torch.no_grad():
        assert torch.allclose(sparse_linear(torch.from_numpy(stacked), layer.weight, layer.bias),
                              layer(torch.from_numpy(np.concatenate(blocks)).float()), atol=1e-5)

