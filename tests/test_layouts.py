"""Every game's observation layout: contiguous parts that fill the observation, documented from
the same declaration."""
import importlib
import importlib.util

import pytest

from savanna.layout import Layout
from savanna.registry import GAMES

# the games whose spec module declares the observation layout (spec is optional, see
# docs/guides/adding-a-game.md)
SPECS = [entry.package + ".spec" for entry in GAMES.values()
         if importlib.util.find_spec(entry.package + ".spec")]


def test_the_games_with_a_spec_are_found():
    assert {"savanna.zebres.spec", "savanna.bonobo.spec", "savanna.banjooli.spec"} <= set(SPECS)


@pytest.mark.parametrize("name", SPECS)
def test_parts_are_contiguous_and_fill_the_observation(name):
    spec = importlib.import_module(name)
    parts = spec.OBS.parts
    assert parts[0].offset == 0
    assert all(a.offset + a.size == b.offset for a, b in zip(parts, parts[1:]))
    assert sum(part.size for part in parts) == spec.OBS.size


@pytest.mark.parametrize("name", SPECS)
def test_spec_docstring_shows_the_layout_table(name):
    spec = importlib.import_module(name)
    rows = [row.strip() for row in spec.__doc__.splitlines()]
    assert [row.strip() for row in spec.OBS.table().splitlines()] == \
        rows[rows.index(f"Observation layout (``uint8[{spec.OBS.size}]``)::") + 2:][
            :len(spec.OBS.parts) + 1]


def test_offsets_and_table():
    layout = Layout(("a", 2, "first"), ("bb", 3, "second"))
    assert (layout.offset("a"), layout.offset("bb"), layout.size) == (0, 2, 5)
    assert layout.table().splitlines() == ["part  offset  size  description",
                                           "a          0     2  first",
                                           "bb         2     3  second"]


@pytest.mark.parametrize("parts, match", [
    ((("a", 0, "empty"),), "size of layout part 'a' must be a positive int, got 0"),
    ((("a", 1.5, "half"),), "size of layout part 'a' must be a positive int, got 1.5"),
    ((("a", 1, "x"), ("a", 2, "y")), "layout part names must be unique, got 'a' twice"),
])
def test_bad_parts_are_rejected(parts, match):
    with pytest.raises(ValueError, match=match):
        Layout(*parts)


def test_unknown_part_is_rejected():
    with pytest.raises(ValueError, match="layout part must be one of a, b, got 'c'"):
        Layout(("a", 1, "x"), ("b", 1, "y")).offset("c")
