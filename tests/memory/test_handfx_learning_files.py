"""Learning files a person broke by hand: the frontmatter deleted (the text kept), the file emptied, a
status mistyped. ``lh memory check`` (and ``lh doctor``) say what every reader does with the file and
what to do; no reader offers such a file for an approval it cannot take."""


import pytest

from lazy_harness import paths
from lazy_harness.memory import held_review, learning_damage, state
from tests.cli.lhrun import invoke
from tests.hooks.test_trust import start
from tests.memory.test_frontmatter_duplicates import PHRASE, TITLE, learning_file, two_projects

BODY = f"# {TITLE}\n\nQueries on invoices must name the month partition.\n"


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


@pytest.fixture
def alpha_gamma(tmp_path):
    return (*two_projects(tmp_path), learning_file())


@pytest.mark.parametrize("text", [BODY, "", "\n  \n", "\ufeff"])
def test_a_learning_without_frontmatter_waits_for_no_approval(tmp_path, text):
    path = str(tmp_path / "2026-12-01-the-invoices-table-is-partitioned-by-month.md")
    _write(path, text)
    now = state.of_learning({"path": path})
    assert now[0] == state.DAMAGED and not state.reaches(now[0], True), now
    assert "lh memory check" in state.label(now)
    # with cross_projects = "auto" every learning crosses unasked: one with text is shown, an empty one not
    assert state.of_learning({"path": path}, state.AUTO)[0] == (state.ACTIVE if text.strip("\ufeff \n") else
                                                                  state.DAMAGED)
    # a minimal frontmatter written by hand still waits, and can be approved
    _write(path, "---\ntitle: mine\n---\n\n" + BODY)
    assert state.of_learning({"path": path})[0] == state.WAITING


@pytest.mark.parametrize("text, said", [(BODY, "no frontmatter"), ("", "empty")])
def test_check_tells_what_readers_do_and_what_to_do(alpha_gamma, text, said):
    alpha, gamma, path = alpha_gamma
    _write(path, text)
    why = learning_damage.learning_damage(path)
    assert why is not None and why.startswith(said), why
    assert "SessionStart shows it" not in why and "no session is shown it" in why, why
    assert ("restore its frontmatter" if text else "restore its text") in why and "delete" in why, why
    checked = invoke("memory", "check", "--project", alpha)
    assert checked.code == 1 and f"{path}: {why}" in checked.out, checked.out


@pytest.mark.parametrize("text", [BODY, ""])
def test_no_session_is_asked_to_approve_it(alpha_gamma, text):
    alpha, gamma, path = alpha_gamma
    _write(path, text)
    for root, sid in ((gamma, "s-g"), (alpha, "s-a")):
        shown, told = start(root, sid=sid)
        assert PHRASE not in shown and "approval" not in told, told
    assert not held_review.listing(paths.memory_dir(gamma), paths.learnings_dir())
    found = invoke("memory", "search", "invoices", "--project", gamma)
    assert "waiting: approve" not in found.out, found.out


def test_a_mistyped_status_is_named_with_its_line(alpha_gamma):
    alpha, _, path = alpha_gamma
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    number = next(n for n, line in enumerate(lines, 1) if line == "status: active")
    lines[number - 1] = "status: actve"
    _write(path, "\n".join(lines))
    why = learning_damage.learning_damage(path)
    expected = (f"line {number}: status 'actve' is not one of {', '.join(state.STATUSES)}: every reader hides "
                "it, as one not active")
    assert why is not None and why.startswith(expected), why
    checked = invoke("memory", "check", "--project", alpha)
    assert checked.code == 1 and f"{path}: {expected}" in checked.out, checked.out
    assert PHRASE not in start(alpha, sid="s-a")[0]  # still hidden: a mistyped "forgoten" must not show it
    doctor = invoke("doctor")
    assert f"{path}: {expected}" in doctor.out, doctor.out


@pytest.mark.parametrize("status", ["active", "Active", "deprecated", "forgotten", "held", "'active'"])
def test_a_status_the_readers_know_is_no_damage(alpha_gamma, status):
    _, _, path = alpha_gamma
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    _write(path, text.replace("status: active\n", f"status: {status}\n", 1))
    assert learning_damage.learning_damage(path) is None
