"""Run metadata (``savanna.metadata``): full game options that rebuild the game, rules versions
that name the specification they implement, a git commit only when there is one."""
import hashlib
from pathlib import Path

import pytest

from savanna import metadata
from savanna.registry import GAMES, game_class, make_game

ROOT = Path(__file__).resolve().parents[1]
# the rules specifications live beside the project (../shared/rules, README); absent on a clone
RULES = next((p / "shared" / "rules" for p in ROOT.parents if (p / "shared" / "rules").is_dir()),
             None)


def test_full_options_rebuild_the_game(game):
    options = metadata.game_options(game)
    again = make_game(game.name, **options)
    assert again.base_state().tobytes() == game.base_state().tobytes()
    assert metadata.game_options(again) == options


def test_run_metadata_names_everything():
    meta = metadata.run_metadata(make_game("banjooli", num_players=3, course=["T1", "K2"]))
    assert meta["options"] == {"num_players": 3, "terrain": 2, "special": None,
                               "berries": False, "course": ["T1", "K2"]}
    assert meta["rules_version"].startswith("v0 banjooli.md@")
    assert meta["package_version"] == metadata.package_version()


@pytest.mark.parametrize("name", sorted(set(GAMES) - {"connect_four"}))
def test_the_rules_version_names_the_specification_implemented(name):
    """When a spec changes, this fails until the game's rules_version names the new one."""
    cls = game_class(name)
    assert cls.rules_version.startswith(f"v{cls.version} {name}.md@")
    if RULES is None:
        pytest.skip("the rules specifications are not beside the project")
    digest = hashlib.sha256((RULES / f"{name}.md").read_bytes()).hexdigest()
    assert cls.rules_version == f"v{cls.version} {name}.md@{digest[:12]}"


def test_the_git_commit_is_none_outside_a_checkout_or_without_git(tmp_path, monkeypatch):
    metadata.git_commit.cache_clear()
    monkeypatch.setattr(metadata, "SOURCE", tmp_path)  # not a checkout
    assert metadata.git_commit() is None
    metadata.git_commit.cache_clear()
    monkeypatch.setattr(metadata, "SOURCE", ROOT)
    monkeypatch.setenv("PATH", str(tmp_path))  # no git
    assert metadata.git_commit() is None
    metadata.git_commit.cache_clear()
