"""tests/eval sits behind the registered ``eval`` marker: ``-m "not eval"`` collects none of it, and
``-m eval`` collects every test module in it (the unit run and the evaluation run are apart)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVAL = os.path.join(ROOT, "tests", "eval")


def _collect(marker: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-n", "0",
                           "-m", marker, EVAL], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_not_eval_collects_nothing_of_tests_eval():
    p = _collect("not eval")
    assert p.returncode == 5, p.stdout + p.stderr  # pytest: no tests collected


def test_eval_collects_every_test_module_of_tests_eval():
    p = _collect("eval")
    assert p.returncode == 0, p.stdout + p.stderr
    modules = {line.split("::")[0].rsplit("/", 1)[-1] for line in p.stdout.splitlines() if "::" in line}
    assert modules == {n for n in os.listdir(EVAL) if n.startswith("test_") and n.endswith(".py")}
