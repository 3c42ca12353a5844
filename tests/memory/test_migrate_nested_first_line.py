"""memory/migrate.py: whose a path-keyed folder is, read from the first line of its decisions and
failures. A first line nested deeper than the JSON parser goes (damaged, or edited by hand) is an
unreadable line like a torn one: skipped, never a traceback of every command and start of the project."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import aliases, files, migrate
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import add_origin
from tests.support import memory_samples as ms

NOW = time.time()


def test_a_first_line_nested_past_the_parsers_depth_is_skipped_like_a_torn_one(tmp_path):
    root = ms.make_project(tmp_path / "work", "api")
    by_path = paths.memory_dir(root)
    os.makedirs(by_path)
    with open(os.path.join(by_path, files.DECISIONS), "w", encoding="utf-8") as fh:
        fh.write("[" * 5000 + "\n")
    ms.write_jsonl(os.path.join(by_path, files.FAILURES), [ms.decision(NOW - 60, "The api pins psycopg 3.1",
                                                                       project="api", type="failure")])
    add_origin(root)
    mdir = paths.memory_dir(root)
    assert mdir != by_path

    key = os.path.basename(by_path)
    assert migrate.unrecorded_alias(root, mdir) == key
    assert migrate.earlier_folder(root, mdir) == by_path
    shown = invoke("memory", "show", "--project", root)
    assert shown.code == 0, shown.out + shown.err
    assert key in aliases.owned(mdir).keys
