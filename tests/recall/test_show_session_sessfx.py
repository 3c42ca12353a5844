"""``lh memory show --prompt --session ID`` takes a whole session id or a unique prefix of one this
machine knows (the 8-character form every memory label and ``lh status`` print); an unknown id or
an ambiguous prefix is one line on stderr, exit 2, and nothing else."""

import os

from lazy_harness import paths
from lazy_harness.cli import sessions
from tests.cli.lhrun import invoke
from tests.recall.test_show_prompt_session_whyfx import PROMPTS, S, _hook, _ids, _project, _show

TWIN = S[:9] + "ffff-4fff-8fff-ffffffffffff"  # shares S's first 9 characters


def _refused(root: str, ident: str) -> str:
    out = invoke("memory", "show", "--project", root, "--prompt", PROMPTS[2], "--session", ident)
    assert out.code == 2, (out.code, out.out, out.err)
    assert out.out == "", out.out
    lines = out.err.splitlines()
    assert len(lines) == 1 and ident in lines[0], out.err
    return lines[0]


def test_a_short_id_predicts_the_hooks_next_answer_as_the_whole_id_does(tmp_path):
    root = _project(tmp_path)
    first, second = _hook(root, PROMPTS[0]), _hook(root, PROMPTS[1])
    head_full, full = _show(root, PROMPTS[2], S)
    head_short, short = _show(root, PROMPTS[2], S[:8])
    assert head_short == head_full and S in head_short, head_short
    hook = _hook(root, PROMPTS[2])
    assert hook is not None and short == hook == full
    assert not _ids(short) & (_ids(first) | _ids(second)), short


def test_an_unknown_id_is_one_line_naming_it(tmp_path):
    root = _project(tmp_path)
    _hook(root, PROMPTS[0])
    said = _refused(root, "no-such-session")
    assert "no session" in said, said
    _refused(root, "0" * 8)  # a prefix no known session has


def test_an_ambiguous_prefix_is_one_line_naming_it_and_a_longer_one_works(tmp_path):
    root = _project(tmp_path)
    _hook(root, PROMPTS[0])
    _hook(root, PROMPTS[0], TWIN)
    said = _refused(root, S[:8])
    assert S in said and TWIN in said, said
    head, _ = _show(root, PROMPTS[2], S[:10])
    assert S in head and TWIN not in head, head


def test_a_prefix_of_a_session_known_by_its_transcript_alone(tmp_path):
    root = _project(tmp_path)
    folder = os.path.join(paths.projects_dir(), "-proj")
    os.makedirs(folder)
    with open(os.path.join(folder, TWIN + ".jsonl"), "w", encoding="utf-8") as fh:
        fh.write("{}\n")
    head, text = _show(root, PROMPTS[2], TWIN[:12])
    assert TWIN in head and " 0 entries" in head, head
    assert text == _show(root, PROMPTS[2])[1]  # shown nothing yet, as a new session


def test_an_exact_id_wins_over_the_longer_ids_it_starts():
    assert sessions.pick("ab", {"ab", "abc", "abd"}) == ["ab"]
    assert sessions.pick("a", {"ab", "abc", "x"}) == ["ab", "abc"]
    assert sessions.pick(" ", {"ab"}) == []
