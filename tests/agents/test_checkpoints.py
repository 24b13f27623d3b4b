"""PPO checkpoint files (issue #11): every malformed, damaged or mismatched file is a one-line
ValueError naming the file, nothing is allocated from unchecked sizes, and saving never leaves
a partial file or loses the previous checkpoint."""
import copy
import errno

import numpy as np
import pytest
import torch

import savanna.agents.models.checkpoint
from savanna.agents.models.checkpoint import MAGIC
from savanna.agents.models.networks import PolicyValueNet, network_shapes
from savanna.agents.models.ppo_checkpoint import CHECKPOINT, load_checkpoint, save_atomically
from savanna.agents.models.ppo_config import PPOConfig
from savanna.agents.play.registry import make_agent
from savanna.agents.training.ppo import Trainer
from tests.agents.test_ppo import tiny_config
from tests.agents.tiny_games import Nim


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A full checkpoint and a network-only one of a tiny Nim run."""
    folder = tmp_path_factory.mktemp("checkpoints")
    trainer = Trainer(tiny_config(), game=Nim())
    trainer.save(folder / "last.pt")
    trainer.save(folder / "best.pt", full=False)
    return folder


def refused(path, message, **kwargs):
    """The one-line ValueError ``load_checkpoint`` gives, checked to name the file."""
    with pytest.raises(ValueError, match=message) as err:
        load_checkpoint(path, **kwargs)
    text = str(err.value)
    assert "\n" not in text and path.name in text
    return text


def test_flipped_bytes_anywhere_are_refused(tmp_path, saved):
    good = (saved / "best.pt").read_bytes()
    for start in np.linspace(0, len(good) - 64, 9).astype(int):
        damaged = bytearray(good)
        damaged[start : start + 64] = bytes(b ^ 0xFF for b in damaged[start : start + 64])
        path = tmp_path / f"flipped-{start}.pt"
        path.write_bytes(bytes(damaged))
        refused(path, "corrupt|not a readable PPO checkpoint|not a Savanna PPO checkpoint")
        with pytest.raises(ValueError, match=f"agent 'ppo': .*{path.name}"):
            make_agent(f"ppo:{path}")


def test_a_single_changed_byte_fails_the_hash(tmp_path, saved):
    damaged = bytearray((saved / "best.pt").read_bytes())
    damaged[len(damaged) // 2] ^= 1
    path = tmp_path / "one-bit.pt"
    path.write_bytes(bytes(damaged))
    refused(path, "corrupt: its bytes do not match their SHA-256")


def test_truncated_and_foreign_files_are_refused(tmp_path, saved):
    good = (saved / "last.pt").read_bytes()
    for size in (0, 100, len(good) // 2, len(good) - 1):
        path = tmp_path / f"truncated-{size}.pt"
        path.write_bytes(good[:size])
        refused(path, "not a Savanna PPO checkpoint|corrupt")
    header_only = tmp_path / "header.pt"
    header_only.write_bytes(MAGIC + f"{CHECKPOINT.format} {CHECKPOINT.version}".encode())
    refused(header_only, "not a Savanna PPO checkpoint")
    future = tmp_path / "future.pt"
    future.write_bytes(MAGIC + f"{CHECKPOINT.format} 99 0\n".encode())
    refused(future, "checkpoint version 99")


def _contents(saved, name="last.pt"):
    return copy.deepcopy(load_checkpoint(saved / name))


def _drop(key, where=None):
    def change(data):
        del (data[where] if where else data)[key]
    return change


def _set(key, value, where=None):
    def change(data):
        (data[where] if where else data)[key] = value
    return change


def _set_weight(key, value):
    def change(data):
        data["trainer"]["model"][key] = value
    return change


@pytest.mark.parametrize("change, message", [
    (_drop("num_actions"), "'num_actions' is missing"),
    (_drop("optimizer", "trainer"), "'optimizer' is missing from 'trainer'"),
    (_set("config", "hidden=16"), "'config' is 'hidden=16', expected a dict"),
    (_set("obs_shape", "3"), "'obs_shape' is '3', expected a list"),
    (_set("obs_shape", [0]), "obs_shape is .*expected positive ints"),
    (_set("num_players", 2.0), "'num_players' is 2.0, expected an int"),
    (_set("trainer", [1]), "'trainer' must be a dict, got list"),
    (_set("hidden", [2**20, 2**20], "config"), "hidden must be 1 to 8 layer widths"),
    (_set("hidden", [16] * 9, "config"), "hidden must be 1 to 8 layer widths"),
    (_set("hidden", [32], "config"), r"the network does not fit its settings .*trunk\.0\.weight"),
    (_set("lr", "fast", "config"), "lr must be a finite number"),
    (_set("bogus", 1, "config"), r"unknown PPO settings \['bogus'\]"),
    (_set_weight("policy.bias", "zeros"), "policy.bias is str, expected a float tensor"),
    (_set_weight("value.bias", torch.zeros(2)), r"value.bias is \(2,\), expected"),
    (_set_weight("extra.weight", torch.zeros(2)), r"unexpected \['extra.weight'\]"),
    (_set_weight("value.bias", torch.full((1,), float("inf"))), "NaN or infinite weights"),
])
def test_malformed_contents_are_refused_before_anything_is_built(tmp_path, saved, monkeypatch,
                                                                 change, message):
    data = _contents(saved)
    change(data)
    path = tmp_path / "malformed.pt"
    save_atomically(data, path)  # a valid hash: the contents themselves are wrong
    monkeypatch.setattr(PolicyValueNet, "for_game", None)  # nothing may be built
    refused(path, message)


def test_a_snapshot_of_the_wrong_size_is_refused(tmp_path, saved):
    data = _contents(saved)
    data["trainer"]["pool"][0]["trunk.0.weight"] = torch.zeros(3, 3)
    save_atomically(data, tmp_path / "pool.pt")
    refused(tmp_path / "pool.pt", r"snapshot 0 does not fit its settings")


def test_a_checkpoint_of_another_run_shape_is_a_value_error(saved):
    with pytest.raises(ValueError, match=r"does not fit this run \(") as err:
        Trainer.load(saved / "last.pt", game=Nim(), num_envs=64)
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="holds a network only"):
        Trainer.load(saved / "best.pt", game=Nim())


def test_network_shapes_are_those_of_the_network():
    net = PolicyValueNet.for_game(Nim(), (8, 5))
    assert network_shapes(3, Nim().num_actions, (8, 5)) == {
        k: tuple(v.shape) for k, v in net.state_dict().items()}


# ----- saving ------------------------------------------------------------------------------
class FullDisk:
    """A file whose ``write`` stores half the bytes, then fails as a full disk does."""

    def __init__(self, path, mode):
        self.file = open(path, mode)

    def write(self, data):
        self.file.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()


def test_a_save_that_fails_midway_keeps_the_previous_file(tmp_path, monkeypatch):
    trainer = Trainer(tiny_config(), game=Nim())
    path = tmp_path / "last.pt"
    trainer.save(path)
    before = path.read_bytes()
    trainer.step()
    monkeypatch.setattr(savanna.agents.models.checkpoint, "open", FullDisk, raising=False)
    with pytest.raises(OSError, match="No space left on device.*previous file, if any, is kept"
                       ) as err:
        trainer.save(path)
    assert err.value.errno == errno.ENOSPC and "\n" not in str(err.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["last.pt"]
    monkeypatch.undo()
    trainer.save(path)
    assert Trainer.load(path, game=Nim())[0].global_step == trainer.global_step


def test_stale_temporary_files_are_removed_by_the_next_save(tmp_path):
    path = tmp_path / "last.pt"
    stale = [tmp_path / ".last.pt.12345.tmp", tmp_path / ".last.pt.99999999.tmp"]
    others = [tmp_path / ".best.pt.12345.tmp", tmp_path / "notes.tmp"]
    for p in stale + others:
        p.write_bytes(b"half a checkpoint")
    Trainer(tiny_config(), game=Nim()).save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["last.pt"] + [p.name for p in others])
    assert PPOConfig.from_dict(load_checkpoint(path)["config"]) == tiny_config()
