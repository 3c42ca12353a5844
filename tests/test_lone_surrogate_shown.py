"""A memory file may hold a lone surrogate: a JSON string escape ``\\ud800`` (a model's answer cut in
the middle of an emoji's pair, a hand edit, a line another machine synced) is valid JSON and decodes
to a character UTF-8 cannot encode. ``lh memory show`` stopped with a UnicodeEncodeError on one; every
command shows it as its escape instead, as SessionStart's context does, and the file is left as it is."""

import json
import os

from lazy_harness import logfile, paths
from lazy_harness.memory import files
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

LINE = ('{"summary": "Cache keys carry the \\ud800 locale", "rationale": "one key per locale", '
        '"ts": "2026-11-20T10:00:00Z"}')


def _project(tmp_path) -> tuple[str, str]:
    root = ms.make_project(tmp_path, "proj", branch="main")
    mdir = paths.memory_dir(root)
    os.makedirs(mdir, exist_ok=True)
    with open(os.path.join(mdir, files.DECISIONS), "w", encoding="utf-8") as fh:
        fh.write(LINE + "\n")
    return root, mdir


def test_terminal_safe_shows_a_lone_surrogate_as_its_escape_and_keeps_a_pair():
    assert logfile.terminal_safe("a\ud800b\udfffc") == "a\\ud800b\\udfffc"
    assert logfile.terminal_safe("ok \U0001F600") == "ok \U0001F600"  # a character past the plane, whole
    shown = logfile.terminal_safe("x\ud83d")
    shown.encode("utf-8")  # what a terminal is sent: encodable
    assert json.loads(f'"{shown}"') == "x\ud83d"  # the JSON escape: decodes back to the very character


def test_show_search_and_the_prompt_table_print_it_as_its_escape(tmp_path):
    root, mdir = _project(tmp_path)
    before = open(os.path.join(mdir, files.DECISIONS), "rb").read()
    for args in (["memory", "show"], ["memory", "show", "--all"], ["memory", "search", "locale"],
                 ["memory", "show", "--prompt", "which cache keys carry the locale"]):
        r = invoke(*args, "--project", root)
        assert r.code == 0, (args, r.err[-500:])
        assert "Traceback" not in r.err + r.out, args
        assert "Cache keys carry the" in r.out, (args, r.out[-800:])
        # show reads the file; search and the prompt's table the index, which keeps what its writer could encode
        if args[1] == "show" and "--prompt" not in args:
            assert "Cache keys carry the \\ud800 locale" in r.out, (args, r.out[-800:])
    assert open(os.path.join(mdir, files.DECISIONS), "rb").read() == before  # nothing rewritten
