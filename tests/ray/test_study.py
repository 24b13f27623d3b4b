"""A study played on Ray gives the numbers of one played in local processes, seed for seed
(all but how it ran: its backend, workers and times)."""
from savanna.studies import StudySettings, run_study
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
    assert ray.run["backend"] == "ray" and local.run["backend"] == "local"
    assert measured(ray.to_json()) == measured(local.to_json())
    assert measured_lines(tmp_path / "ray") == measured_lines(tmp_path / "local")


def measured(found):
    return {key: value for key, value in found.items() if key != "run"}


def measured_lines(folder):
    """The report's lines less the one that says how long the study ran, and on what."""
    return [line for line in (folder / "report.html").read_text().splitlines()
            if "of wall time" not in line]
