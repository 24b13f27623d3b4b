"""The checked reader of distillation datasets (``savanna.agents.training.dataset_parts``, used by
``load_dataset``, ``load_datasets`` and ``distill --resume``): every corruption refused in one
line before anything large is allocated, nothing non-finite accepted; on Nim."""
import io
import json
import shutil
import tempfile
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from savanna.agents.training.dataset_parts import COLUMNS, MAX_ABS_VALUE, digest
from savanna.agents.training.distill import (
    DistillConfig,
    distill,
    load_dataset,
    load_datasets,
    part_file,
)
from savanna.agents.training.fit import visit_policy
from tests.agents.tiny_games import DiceRace, Nim

TINY = DistillConfig(game="nim", games=12, part_games=6, teacher="mcts:sims=16",
                     sample_decisions=2, seed=1)
MOST_ALLOCATED = 4 << 20  # bytes a refusal may allocate: a part here is about 6 KB


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny") / "data"
    distill(TINY, folder, progress=False, game=Nim())
    return folder


@pytest.fixture(scope="module")
def race_part(tmp_path_factory):
    """A part of another game (two players, 3 actions, chance nodes)."""
    folder = tmp_path_factory.mktemp("race") / "data"
    distill(DistillConfig(game="dice_race", games=6, part_games=6, teacher="mcts:sims=8",
                          seed=2), folder, progress=False, game=DiceRace())
    return part_file(folder, 0).read_bytes()


def copy(folder, parent):
    return Path(shutil.copytree(folder, Path(parent) / "copy"))


def columns_of(path):
    with np.load(path, allow_pickle=False) as f:
        return {key: f[key] for key in f.files}


def write_part(folder, k, data, record=True):
    """Replace part ``k``'s bytes; ``record``: its checksum in dataset.json too (an edit that
    the checksum cannot catch, so the column checks must)."""
    part_file(folder, k).write_bytes(data)
    if record:
        meta_path = folder / "dataset.json"
        meta = json.loads(meta_path.read_text())
        meta["parts"][part_file(folder, k).name] = digest(data)
        meta_path.write_text(json.dumps(meta))


def saved(columns):
    buffer = io.BytesIO()
    np.savez(buffer, **columns)
    return buffer.getvalue()


# ----- the reproductions of issue 34 --------------------------------------------------------
@pytest.mark.parametrize("edit, message", [
    (lambda c: c["child_visits"].__setitem__(0, -5), "column child_visits holds -5, below"),
    (lambda c: c["root_value"].__setitem__((0, 0), 1e30), r"column root_value holds 1e\+30"),
    (lambda c: c["child_q"].__setitem__(1, np.nan), "column child_q holds nan"),
    (lambda c: c["action"].__setitem__(2, 40), "column action holds 40, above its most 11"),
    (lambda c: c["child_count"].__setitem__(0, c["child_count"][0] + 1),
     "child_count adds up to"),
    (lambda c: c.pop("child_q"), r"missing columns \['child_q'\]"),
    (lambda c: c.__setitem__("player", c["player"].astype(np.int64)),
     "column player has dtype 'int64', expected 'int8'"),
    (lambda c: c.__setitem__("game_returns", c["game_returns"][:, :1].copy()),
     "one per player"),
    (lambda c: c.__setitem__("game_decisions", np.zeros(0, np.int32)), "column game_decisions"),
])
def test_a_part_edited_behind_its_checksum_is_refused_naming_the_column(
        tiny, tmp_path, edit, message):
    folder = copy(tiny, tmp_path)
    columns = columns_of(part_file(folder, 1))
    edit(columns)
    write_part(folder, 1, saved(columns))
    with pytest.raises(ValueError, match=f"part-00001.npz.*{message}"):
        load_dataset(folder, game=Nim())


def test_damaged_foreign_and_empty_parts_are_refused_in_one_line(tiny, tmp_path, race_part):
    folder = copy(tiny, tmp_path)
    good = part_file(folder, 0).read_bytes()
    npy = io.BytesIO()
    np.save(npy, np.zeros(10))
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x10
    cases = [(good[:-100], False, "does not match the SHA-256"),
             (good[:-100], True, "not a readable part"),
             (bytes(flipped), True, "not a readable part|column"),
             (b"", True, "not a readable part"),
             (npy.getvalue(), True, "not a readable part"),
             (race_part, True, "column state has dtype")]
    for data, record, message in cases:
        write_part(folder, 0, data, record)
        with pytest.raises(ValueError, match=message) as err:
            load_dataset(folder, game=Nim())
        assert "\n" not in str(err.value) and "part-00000.npz" in str(err.value)


def test_a_header_declaring_a_huge_array_is_refused_before_it_is_allocated(tiny, tmp_path):
    folder = copy(tiny, tmp_path)
    header = io.BytesIO()  # a well-formed member (its CRC right) whose header lies
    np.lib.format.write_array_header_1_0(header, {"descr": "<f4", "fortran_order": False,
                                                  "shape": (10**12,)})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for key, values in columns_of(part_file(folder, 0)).items():
            member = io.BytesIO()
            np.lib.format.write_array(member, values)
            archive.writestr(f"{key}.npy", header.getvalue() + bytes(64) if key == "child_q"
                             else member.getvalue())
    data = buffer.getvalue()
    write_part(folder, 0, bytes(data))
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="child_q has 1,000,000,000,000 rows"):
            load_dataset(folder, game=Nim())
        assert tracemalloc.get_traced_memory()[1] < MOST_ALLOCATED
    finally:
        tracemalloc.stop()


def test_a_dataset_given_twice_or_sharing_games_is_refused(tiny, tmp_path):
    with pytest.raises(ValueError, match="is given twice"):
        load_datasets([tiny, Path(str(tiny) + "/")], game=Nim())
    other = copy(tiny, tmp_path)
    with pytest.raises(ValueError, match="share games"):
        load_datasets([tiny, other], game=Nim())
    meta = json.loads((other / "dataset.json").read_text())  # a copy under another seed
    meta["config"]["seed"] = 99
    (other / "dataset.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="are the same part"):
        load_datasets([tiny, other], game=Nim())


def test_a_dataset_of_another_game_is_refused_by_name(tiny):
    with pytest.raises(ValueError, match="holds games of 'nim'.*not of dice_race"):
        load_dataset(tiny, game=DiceRace())


def test_resume_checks_the_parts_it_keeps(tiny, tmp_path):
    folder = copy(tiny, tmp_path)
    part = part_file(folder, 1)
    part.write_bytes(part.read_bytes()[:-50])
    with pytest.raises(ValueError, match="part-00001.npz' does not match.*delete it and resume"):
        distill(TINY, folder, progress=False, game=Nim())
    part.unlink()  # deleted: played again, the same bytes
    distill(TINY, folder, progress=False, game=Nim())
    assert part.read_bytes() == part_file(tiny, 1).read_bytes()


def test_a_part_written_after_the_last_manifest_is_checked_and_recorded(tiny, tmp_path):
    folder = copy(tiny, tmp_path)
    meta = json.loads((folder / "dataset.json").read_text())
    del meta["parts"]["part-00001.npz"]  # stopped between the part and the manifest
    (folder / "dataset.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="part-00001.npz' is not recorded"):
        load_dataset(folder, game=Nim())
    distill(TINY, folder, progress=False, game=Nim())
    assert load_dataset(folder, game=Nim()).size == load_dataset(tiny, game=Nim()).size


# ----- random corruptions --------------------------------------------------------------------
HOSTILE = [-1, 0, 1, 2, 11, 12, 127, -128, 2**15 - 1, 2**31 - 1, 1e30, -1e30, np.nan, np.inf,
           -np.inf, MAX_ABS_VALUE * 2, 0.5]
DTYPES = ["int8", "int16", "int32", "int64", "float32", "float64", "uint8", "bool"]


@st.composite
def corruptions(draw):
    """``(kind, arguments, record)``: one corruption of a part, and whether the manifest's
    checksum is updated to match (so that the column checks, not the checksum, must catch
    it)."""
    kind = draw(st.sampled_from(["truncate", "flip", "value", "rows", "dtype", "drop", "extra",
                                 "foreign"]))
    column = draw(st.sampled_from(sorted(COLUMNS)))
    args = {"column": column, "at": draw(st.floats(0, 1)),
            "value": draw(st.sampled_from(HOSTILE)), "dtype": draw(st.sampled_from(DTYPES)),
            "bit": draw(st.integers(0, 7)), "rows": draw(st.integers(-3, 3))}
    return kind, args, draw(st.booleans())


def corrupt(data, kind, args, race_part):
    if kind == "truncate":
        return data[: int(args["at"] * len(data))]
    if kind == "flip":
        out = bytearray(data)
        out[min(int(args["at"] * len(out)), len(out) - 1)] ^= 1 << args["bit"]
        return bytes(out)
    if kind == "foreign":
        return race_part
    columns = columns_of(io.BytesIO(data))
    values = columns[args["column"]]
    if kind == "value" and values.dtype.names is None and values.size:
        flat = values.reshape(-1)
        i = min(int(args["at"] * flat.size), flat.size - 1)
        with np.errstate(invalid="ignore", over="ignore"):
            flat[i] = np.array(args["value"]).astype(values.dtype)
    elif kind == "rows":
        n = len(values) + args["rows"]
        columns[args["column"]] = np.resize(values, (max(n, 0), *values.shape[1:]))
    elif kind == "dtype" and values.dtype.names is None:
        with np.errstate(invalid="ignore", over="ignore"):
            columns[args["column"]] = values.astype(args["dtype"])
    elif kind == "drop":
        del columns[args["column"]]
    elif kind == "extra":
        columns["extra"] = np.zeros(3)
    return saved(columns)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=corruptions())
def test_random_corruptions_are_refused_in_one_line_or_keep_every_value_finite(
        tiny, race_part, case):
    kind, args, record = case
    with tempfile.TemporaryDirectory() as parent:
        folder = copy(tiny, parent)
        k = int(args["at"] * 2) % 2
        original = part_file(folder, k).read_bytes()
        data = corrupt(original, kind, args, race_part)
        write_part(folder, k, data, record)
        tracemalloc.start()
        try:
            data_set = load_dataset(folder, game=Nim())
        except ValueError as err:
            event(f"refused: {kind}")  # --hypothesis-show-statistics counts them
            assert tracemalloc.get_traced_memory()[1] < MOST_ALLOCATED
            message = str(err)
            assert "\n" not in message and len(message) < 400
            assert part_file(folder, k).name in message, message
            with pytest.raises(ValueError, match=part_file(folder, k).name):  # --resume too
                distill(TINY, folder, progress=False, game=Nim())
            return
        finally:
            tracemalloc.stop()
    event(f"accepted: {kind}")
    assert record or data == original  # without its checksum no changed byte passes
    for values in (data_set.root_value, data_set.collected, data_set.child_q,
                   data_set.game_returns, data_set.value_targets(0.5),
                   visit_policy(data_set, np.arange(data_set.size), 12)):
        assert np.isfinite(values).all()
    assert (data_set.child_visits >= 0).all()


def test_parts_are_stored_uncompressed_with_one_member_per_declared_column(tiny):
    with zipfile.ZipFile(part_file(tiny, 0)) as archive:
        assert {i.filename for i in archive.infolist()} == {f"{k}.npy" for k in COLUMNS}
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
