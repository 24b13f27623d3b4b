"""The interop libraries are optional: the core and the games never import them."""
import subprocess
import sys

OPTIONAL = ("pettingzoo", "pyspiel", "open_spiel", "stable_baselines3", "sb3_contrib", "pgx", "jax")


def test_core_envs_and_games_import_no_interop_library():
    code = ("import sys, savanna, savanna.env, savanna.vector_env, savanna.batch_play; "
            "from savanna.registry import make_game; "
            "[make_game(n) for n in ('zebres', 'bonobo', 'banjooli')]; "
            f"print(sorted(m for m in {OPTIONAL!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
