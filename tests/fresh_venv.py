"""A fresh virtual environment that reuses this one's installed dependencies, for the tests that
install Savanna anew offline (tests/test_wheel.py, tests/test_guide_steps.py)."""
import subprocess
import sys
from pathlib import Path


def fresh_venv(home):
    """A virtual environment at ``home`` without pip, whose ``.pth`` lines name this
    environment's site-packages and any its own ``.pth`` files add (pip and every dependency
    are found there; paths, so that the editable install of this checkout that lives there is
    not activated); returns its python and its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", home], check=True)
    python = Path(home) / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    here = [path for path in sys.path if Path(path).name in ("site-packages", "dist-packages")]
    (site / "savanna-test-dependencies.pth").write_text("\n".join(here) + "\n")
    return python, site
