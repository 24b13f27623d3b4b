"""Run metadata (``savanna.metadata``): full game options that rebuild the game, rules versions
that name the specification they implement, a git commit only when there is one."""
import hashlib
import re
import tomllib
from pathlib import Path

import pytest

from savanna import metadata
from savanna.registry import GAMES, game_class, make_game

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][
    "savanna.games"]
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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_version_names_the_specification_implemented(name):
    """``v<version> <rules>``: a specification of ours, ``<name>.md@<its sha256, 12 hex>``
    (beside the project, in shared/rules), or published rules in words (connect four's).
    When a spec changes, this fails until the game's rules_version names the new one."""
    cls = game_class(name)
    assert cls.rules_version.startswith(f"v{cls.version} ")
    spec = re.fullmatch(rf"v{cls.version} (\w+\.md)@[0-9a-f]{{12}}", cls.rules_version)
    if spec is None:
        return
    assert spec[1] == f"{name}.md"
    if RULES is None or not (RULES / spec[1]).is_file() and name not in SHIPPED:
        pytest.skip(f"the rules specification {spec[1]} is not beside the project")
    digest = hashlib.sha256((RULES / spec[1]).read_bytes()).hexdigest()
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
