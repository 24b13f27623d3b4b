"""Arrays inside checkpoints (savanna.agents.training.packing): any dtype, a game's state rows
included,
comes back byte for byte through torch.save/torch.load(weights_only=True)."""
import io

import numpy as np
import pytest
import torch

from savanna import make_game
from savanna.agents.training.packing import pack, unpack


def _through_a_file(value):
    buffer = io.BytesIO()
    torch.save(value, buffer)
    buffer.seek(0)
    return torch.load(buffer, weights_only=True)


@pytest.mark.parametrize("array", [
    make_game("zebres").init(5, np.random.default_rng(0)),       # structured state rows
    np.random.default_rng(1).random((3, 4)).astype(np.float32),
    np.arange(12, dtype=np.uint64).reshape(2, 6) << np.uint64(60),
    np.zeros((0, 3), np.int8),
])
def test_an_array_comes_back_byte_for_byte(array):
    back = unpack(_through_a_file(pack(array)), np.empty_like(array))
    assert back.dtype == array.dtype and back.shape == array.shape
    assert back.tobytes() == array.tobytes()


def test_other_values_pass_as_they_are():
    state = np.random.default_rng(0).bit_generator.state
    assert pack(state) is state and unpack(state, state) is state


def test_an_array_of_another_size_is_refused():
    saved = pack(np.zeros(4, np.int64))
    with pytest.raises(ValueError, match="environment arrays differ"):
        unpack(saved, np.zeros(5, np.int64))
