"""One checker of checkpoint files and contents for PPO and AlphaZero (issue #21): the seal
covers every byte of the file, and the contents (types, ranges, finite values, network sizes,
the game and its options) are checked before any network is built."""
import copy
import io
import math

import numpy as np
import pytest
import torch

import savanna.agents.models.az_checkpoint as az_files
import savanna.agents.models.ppo_checkpoint as ppo_files
from savanna.agents.models.az_config import AZConfig
from savanna.agents.models.checkpoint import MAGIC, MAX_HEADER_BYTES
from savanna.agents.models.networks import AZNet, PolicyValueNet
from savanna.agents.play.registry import make_agent
from savanna.agents.training import alphazero, ppo
from tests.agents.test_alphazero import TINY
from tests.agents.test_ppo import tiny_config
from tests.agents.tiny_games import Nim

NIM = Nim((2, 3, 4))


def _save_ppo(path):
    ppo.Trainer(tiny_config(), game=NIM).save(path, full=False)


def _save_az(path):
    az_files.save_checkpoint(alphazero.Trainer(AZConfig(**{**TINY, "games": 8}), NIM).checkpoint(
        full=False), path)


# trainer: (write a network-only checkpoint, load_checkpoint, save contents, agent spec)
TRAINERS = {"ppo": (_save_ppo, ppo_files.load_checkpoint, ppo_files.save_atomically, "ppo:{}"),
            "az": (_save_az, az_files.load_checkpoint, az_files.save_checkpoint,
                   "az-policy:{}")}


@pytest.fixture(scope="module", params=list(TRAINERS))
def trainer(request, tmp_path_factory):
    save, load, resave, spec = TRAINERS[request.param]
    path = tmp_path_factory.mktemp(request.param) / "best.pt"
    save(path)
    return request.param, path, load, resave, spec


def _body(path):
    """The torch serialisation after the two header lines."""
    blob = path.read_bytes()
    return blob[: blob.index(b"\n", len(MAGIC)) + 1], blob[blob.index(b"\n", len(MAGIC)) + 1:]


def _refused(load, path, message, **kwargs):
    with pytest.raises(ValueError, match=message) as err:
        load(path, **kwargs)
    assert "\n" not in str(err.value) and path.name in str(err.value)


def test_the_seal_covers_every_byte_of_the_file(tmp_path, trainer):
    """1 KB appended, or a zip entry's timestamp changed: torch still reads the body (so only
    the seal can tell), and the file is refused."""
    _, path, load, _, _ = trainer
    header, body = _body(path)
    appended = body + bytes(1024)
    stamp = body.index(b"PK\x03\x04") + 10           # the first entry's modification time
    retimed = body[:stamp] + bytes([body[stamp] ^ 0x21]) + body[stamp + 1:]
    for label, changed in (("appended", appended), ("retimed", retimed)):
        torch.load(io.BytesIO(changed), weights_only=True)
        damaged = tmp_path / f"{label}.pt"
        damaged.write_bytes(header + changed)
        _refused(load, damaged, "is corrupt: its bytes do not match their SHA-256")
    load(path)  # the file itself is fine


def test_a_file_without_the_header_is_refused(tmp_path, trainer):
    _, path, load, _, _ = trainer
    _, body = _body(path)
    bare = tmp_path / "bare.pt"
    bare.write_bytes(body)   # the torch file alone, as checkpoints were before the seal
    _refused(load, bare, "no savanna-checkpoint header")
    other = tmp_path / "other.pt"
    other.write_bytes(MAGIC + b"savanna-other 1 00\n" + body)
    _refused(load, other, "expected format")


class CountingFile:
    """A binary file that counts the bytes read from it."""

    opened = []

    def __init__(self, path, mode):
        self.file, self.read_bytes = open(path, mode), 0
        CountingFile.opened.append(self)

    def read(self, size=-1):
        data = self.file.read(size)
        self.read_bytes += len(data)
        return data

    def readline(self, size=-1):
        data = self.file.readline(size)
        self.read_bytes += len(data)
        return data

    def tell(self):
        return self.file.tell()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()


def test_a_big_file_that_starts_like_a_checkpoint_is_refused_by_its_header(tmp_path, trainer,
                                                                           monkeypatch):
    """1 GiB (sparse) behind another version's header, another format's, or a header line
    without end: refused after reading at most the header, never the body."""
    _, path, load, _, _ = trainer
    header, _ = _body(path)
    format, _, seal = header[len(MAGIC):].partition(b" ")
    digest = seal.partition(b" ")[2]
    cases = {"version": (MAGIC + format + b" 999 " + digest,
                         "has checkpoint version 999; this code reads version"),
             "format": (MAGIC + b"savanna-other " + seal, "expected format"),
             "endless": (MAGIC + b"x" * 10_000, "expected format")}
    monkeypatch.setattr("savanna.agents.models.checkpoint.open", CountingFile, raising=False)
    for label, (start, message) in cases.items():
        big = tmp_path / f"{label}.pt"
        with open(big, "wb") as f:
            f.write(start)
            f.truncate(1 << 30)
        CountingFile.opened.clear()
        _refused(load, big, message)
        read = [f.read_bytes for f in CountingFile.opened]
        assert read and max(read) <= len(MAGIC) + MAX_HEADER_BYTES, (label, read)
    load(path)  # the file itself is fine


def _config(key, value):
    def change(data):
        data["config"][key] = value
    return change


def _drop_config(key):
    def change(data):
        del data["config"][key]
    return change


def _nan_weight(data):
    data["model"]["policy.bias"][0] = math.nan


def _set(key, value):
    def change(data):
        data[key] = value
    return change


COMMON_CHANGES = [
    (_config("hidden", [100000, 100000]), "hidden must be 1 to 8 layer widths"),  # 40 GB
    (_config("hidden", ["x"]), "hidden must be 1 to 8 layer widths"),
    (_config("hidden", [-5]), "hidden must be 1 to 8 layer widths"),
    (_drop_config("hidden"), r"the network does not fit its settings \(hidden=\[128, 128\]\)"),
    (_nan_weight, "policy.bias holds NaN or infinite weights"),
    (_set("obs_shape", [2**40]), "obs_shape is .* of product at most"),
    (_set("num_actions", 10**9), "num_actions is 1000000000, expected 1..65536"),
    (_set("game_options", "heaps=2,3,4"), "'game_options' is 'heaps=2,3,4', expected a dict"),
    (lambda data: data.pop("game_options"), "'game_options' is missing"),
]
AZ_CHANGES = [
    (_config("rollout_weight", math.nan), "rollout_weight must be a finite number"),
    (_config("value_range", -1.0), "value_range must be >= 0"),
    (_config("sims", "many"), "sims must be an int"),
    (_config("ladder", [3]), "ladder must be agent specs"),
]


@pytest.mark.parametrize("change, message, only", [(c, m, None) for c, m in COMMON_CHANGES]
                         + [(c, m, "az") for c, m in AZ_CHANGES])
def test_malformed_contents_are_refused_before_a_network_is_built(tmp_path, trainer, monkeypatch,
                                                                  change, message, only):
    name, path, load, resave, _ = trainer
    if only not in (None, name):
        pytest.skip(f"a setting of {only} only")
    data = copy.deepcopy(load(path))
    change(data)
    changed = tmp_path / "changed.pt"
    resave(data, changed)     # sealed anew: the contents themselves are wrong
    monkeypatch.setattr(PolicyValueNet, "for_game", None)  # nothing may be built
    monkeypatch.setattr(AZNet, "for_game", None)
    _refused(load, changed, message)


def test_a_network_of_the_same_game_with_other_options_is_refused(trainer):
    """Like a Zèbres network trained on board=president offered to the standard board: the
    observation and actions have the same sizes, only the options differ."""
    _, path, load, _, spec = trainer
    other = Nim((1, 3, 4))
    assert other.obs_shape == NIM.obs_shape and other.num_actions == NIM.num_actions
    _refused(load, path, r"trained on nim with other options: heaps=\[2, 3, 4\] "
                         r"\(here: \[1, 3, 4\]\)", game=other)
    load(path, game=Nim((2, 3, 4)))
    with pytest.raises(ValueError, match=r"heaps=\[2, 3, 4\] \(here: \[1, 3, 4\]\)"):
        make_agent(spec.format(path)).act(other, other.init(1), np.random.default_rng(0))
