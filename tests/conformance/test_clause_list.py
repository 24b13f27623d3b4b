"""The adding-a-game guide lists every clause ``savanna check`` runs, by the name a failing
clause's line prints: the table and the suite cannot drift apart. And the suite, collected
from a checkout, is imported once, as ``savanna.conformance``, each test collected once."""
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from savanna.conformance.plugin import clause_name

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guides" / "adding-a-game.md"


def listed_clauses():
    """The first column of the guide's table under "The clauses"."""
    section = GUIDE.read_text().partition("### The clauses")[2].partition("\n## ")[0]
    return re.findall(r"^\| `([^`]+)` \|", section, re.M)


def collected(*args):
    """What ``pytest --collect-only`` prints from the checkout's root (one -q: node ids)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider",
         "-o", "addopts=-q -p savanna.conformance.plugin", *args],
        cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    return done.stdout


def test_the_guide_lists_every_clause_the_check_runs_once():
    nodeids = [line for line in collected("conformance").splitlines() if "::" in line]
    listed = listed_clauses()
    assert [name for name, count in Counter(listed).items() if count > 1] == []
    assert sorted(listed) == sorted({clause_name(nodeid) for nodeid in nodeids})


def test_a_clause_is_named_by_its_module_and_test_in_words():
    assert clause_name("conformance/test_protocol.py::test_batch_equals_single[zebres]") == \
        "protocol: batch equals single"


CHECK_ONCE = """
import sys
import pytest
pytest.main(["--collect-only", "-p", "no:cacheprovider", "conformance"])
import savanna.conformance
print(sys.modules["conformance"] is savanna.conformance)
"""


def test_the_suite_is_imported_once_and_each_test_collected_once():
    nodeids = [line for line in collected("conformance", "tests/conformance").splitlines()
               if "::" in line]
    assert nodeids and len(nodeids) == len(set(nodeids))
    assert not [n for n in nodeids if not n.startswith(("conformance/", "tests/conformance/"))]
    done = subprocess.run([sys.executable, "-c", CHECK_ONCE], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.stdout.strip().splitlines()[-1] == "True", done.stdout[-2000:] + done.stderr
