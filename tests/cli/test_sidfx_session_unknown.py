"""``lh memory show --prompt --session ID`` with a whole session id: one this machine knows (its recall
state, a Claude Code transcript or a Codex rollout) is read as before, a session with a transcript
and no recall state as one shown nothing yet; a whole id it has nothing for is one line naming it on
stderr and exit 2 (a typo is not "shown 0 entries"). Prefixes keep their rule, and so does
``lh knowledge handoff-now --session``."""

import os

from lazy_harness import paths, queue
from lazy_harness.cli import sessions
from lazy_harness.memory import lineage
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop, worker_lock_held
from tests.recall.test_show_prompt_session_whyfx import PROMPTS, S, _hook, _project, _show
from tests.support.sessions import place, place_rollout

UNKNOWN = "0d5c2b1a-7e6f-4a3b-9c8d-1f2e3d4c5b6a"
TRANSCRIPT_ONLY = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d"


def _refused(root: str, ident: str) -> str:
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[2], "--session", ident)
    assert out.code == 2, (out.code, out.out, out.err)
    assert out.out == "", out.out
    lines = out.err.splitlines()
    assert len(lines) == 1, out.err
    return lines[0]


def _transcript(sid: str, key: str = "-proj") -> str:
    folder = os.path.join(paths.projects_dir(), key)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, sid + ".jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("{}\n")
    return path


def test_an_unknown_whole_id_is_one_line_naming_it_and_exit_2(tmp_path):
    root = _project(tmp_path)
    _hook(root, PROMPTS[0])  # S has recall state; UNKNOWN has nothing
    _transcript(TRANSCRIPT_ONLY)
    place_rollout(tmp_path / "proj")
    said = _refused(root, UNKNOWN)
    assert said.startswith(f"lh: --session: no session '{UNKNOWN}' on this machine"), said
    assert paths.projects_dir() in said, said  # it says where it looked


def test_an_unknown_whole_id_is_refused_with_no_folder_to_look_in(tmp_path):
    root = _project(tmp_path)
    assert not os.path.exists(paths.projects_dir())
    said = _refused(root, " " + UNKNOWN + " ")
    assert UNKNOWN in said and "no session" in said, said


def test_resolve_names_an_unknown_whole_id(tmp_path):
    _transcript(TRANSCRIPT_ONLY)
    sid, wrong = sessions.resolve(UNKNOWN, os.environ)
    assert sid == "" and wrong is not None and UNKNOWN in wrong and "\n" not in wrong, wrong
    assert sessions.resolve(TRANSCRIPT_ONLY, os.environ) == (TRANSCRIPT_ONLY, None)


def test_a_whole_id_known_by_its_transcript_alone_is_a_session_shown_nothing_yet(tmp_path):
    root = _project(tmp_path)
    _transcript("not-this-one", key="-elsewhere")
    _transcript(TRANSCRIPT_ONLY, key="-proj-sub")
    head, text = _show(root, PROMPTS[2], TRANSCRIPT_ONLY)
    assert TRANSCRIPT_ONLY in head and " 0 entries" in head, head
    assert text == _show(root, PROMPTS[2])[1]  # what a new session's first prompt gets


def test_a_whole_id_known_by_its_codex_rollout_alone_is_accepted(tmp_path):
    root = _project(tmp_path)
    sid, _ = place_rollout(tmp_path / "proj")
    head, text = _show(root, PROMPTS[2], sid)
    assert sid in head and " 0 entries" in head, head
    assert text == _show(root, PROMPTS[2])[1]


def test_a_whole_id_known_by_its_recall_state_alone_reads_that_state(tmp_path):
    root = _project(tmp_path)
    first = _hook(root, PROMPTS[0])
    assert first and not os.path.exists(paths.projects_dir())  # no transcript: state only
    head, predicted = _show(root, PROMPTS[2], S)
    assert S in head and " 0 entries" not in head, head
    assert predicted == _hook(root, PROMPTS[2])


def test_a_whole_id_known_by_its_lineage_alone_is_accepted(tmp_path):
    root = _project(tmp_path)
    os.makedirs(paths.state_dir(), exist_ok=True)
    with open(lineage.state_file(None, UNKNOWN), "w", encoding="utf-8") as fh:
        fh.write(S + "\n")
    head, _ = _show(root, PROMPTS[2], UNKNOWN)
    assert UNKNOWN in head, head


def test_a_prefix_keeps_its_rule(tmp_path):
    root = _project(tmp_path)
    _transcript(TRANSCRIPT_ONLY)
    head, _ = _show(root, PROMPTS[2], TRANSCRIPT_ONLY[:8])
    assert TRANSCRIPT_ONLY in head, head
    said = _refused(root, UNKNOWN[:8])
    assert "no session" in said and UNKNOWN[:8] in said, said


def test_handoff_now_keeps_its_prefix_rule(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project, session_id=TRANSCRIPT_ONLY)
    monkeypatch.chdir(project)
    with worker_lock_held(paths.claude_dir()) as q:
        ok = invoke("knowledge", "handoff-now", "--session", TRANSCRIPT_ONLY[:8])
        assert ok.code == 0, ok.err
        [name] = queue.pending(q)
        task = queue.read_task(os.path.join(q, name))
    assert (task["session_id"], task["session_jsonl"]) == (TRANSCRIPT_ONLY, payload["transcript_path"])
    missing = invoke("knowledge", "handoff-now", "--session", UNKNOWN)
    assert missing.code == 1 and UNKNOWN in missing.err, missing.err
