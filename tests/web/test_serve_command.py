"""``savanna serve`` on the command line: where it listens, what it warns, which folders it
serves (uvicorn replaced by a stand-in that records its arguments)."""
import pytest
import uvicorn

from savanna.experiments.cli import main


@pytest.fixture
def served(monkeypatch, tmp_path):
    """The arguments uvicorn.run would get, and the browser opened (none in these tests)."""
    calls = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.update(app=app, **kw))
    monkeypatch.chdir(tmp_path)
    return calls


def test_it_listens_on_this_machine_by_default_and_serves_the_played_games(served, capsys,
                                                                           tmp_path):
    (tmp_path / "runs").mkdir()
    assert main(["serve", "runs"]) == 0
    out, err = capsys.readouterr()
    assert served["host"] == "127.0.0.1" and served["port"] == 8000 and err == ""
    assert out.startswith("savanna serve: http://127.0.0.1:8000/")
    assert (tmp_path / "runs" / "played").is_dir()  # --save's default, made and served
    limits = served["app"].state.limits
    assert limits.folders == ((tmp_path / "runs").resolve(),
                              (tmp_path / "runs" / "played").resolve())


def test_it_warns_in_one_line_when_told_to_listen_elsewhere(served, capsys):
    assert main(["serve", "--host", "0.0.0.0", "--port", "8080", "--max-sims", "50"]) == 0
    err = capsys.readouterr().err
    assert served["host"] == "0.0.0.0" and served["port"] == 8080
    assert err.count("\n") == 1 and err.startswith("warning: listening on 0.0.0.0")
    assert served["app"].state.limits.max_sims == 50
