"""A study played on Ray gives the numbers of one played in local processes, seed for seed."""
from savanna.agents.study import StudySettings, run_study
from tests.agents.study_games import CoinFlip
from tests.agents.tiny_games import Nim

SETTINGS = StudySettings(balance_sims=(2, 4), balance_games=32, network=False, chain_top=2,
                         chain_games=32, upset_sims=2, upset_games=32, chance_games=32,
                         review_games=1, review_sims=8, reference="")


def test_a_study_on_ray_gives_the_local_numbers(two_nodes, tmp_path):
    games = [CoinFlip(60)]
    local = run_study(games, tmp_path / "local", SETTINGS, seed=4, workers=2, progress=False,
                      reference=Nim())
    ray = run_study(games, tmp_path / "ray", SETTINGS, seed=4, backend="ray", progress=False,
                    reference=Nim())
    assert ray.to_json() == local.to_json()
    assert (tmp_path / "ray" / "report.html").read_text() == (
        tmp_path / "local" / "report.html").read_text()
