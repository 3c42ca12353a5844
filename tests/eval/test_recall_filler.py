"""The evaluation's filler (``--filler``): the same prompts on a bigger memory, in other projects or
in the set's own."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.index import lookup, store
from tests.eval import recall_eval, recall_tiny


def texts_file(tmp_path, lines: list[str]) -> str:
    path = tmp_path / "texts.tsv"
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def numbered(n: int, word: str = "widget") -> list[str]:
    return [f"pkg{k}\t1.0\tthe {word} number {k} does one small thing well" for k in range(n)]


def test_filler_texts_are_the_long_last_fields_shuffled_the_same_way_every_time(tmp_path):
    path = texts_file(tmp_path, ["name\tsummary", "short\ttoo short to use", *numbered(12)])
    first = recall_eval.load_filler(path, 2)
    assert len(first) == 8 and first == recall_eval.load_filler(path, 2)
    assert all(t.startswith("the widget number ") for t in first)
    order = [int(t.split()[3]) for t in first]
    assert order != sorted(order)  # shuffled: not the file's first lines in their order


def test_too_few_texts_is_one_line_naming_the_file_and_exit_2(tmp_path, capsys):
    path = texts_file(tmp_path, numbered(7))
    code = recall_eval.main(["--set", "tests.eval.recall_tiny", "--filler", path, "--filler-entries", "2"])
    err = capsys.readouterr().err
    assert code == 2 and err == f"recall_eval: {path}: 7 lines of 6+ words, 8 needed for 2 filler entries\n"
    missing = str(tmp_path / "nope.tsv")
    assert recall_eval.main(["--set", "tests.eval.recall_tiny", "--filler", missing]) == 2
    assert capsys.readouterr().err.startswith(f"recall_eval: {missing}: cannot read")


def _memory(tmp_path, texts: list[str], inside: bool):
    root = str(tmp_path / "eval")
    env = {"HOME": os.path.join(root, "home")}
    os.makedirs(env["HOME"])
    now = time.time()
    dirs = recall_eval.build(root, env, recall_tiny.ENTRIES, recall_tiny.PROJECTS, now)
    extra = recall_eval.add_filler(root, env, dirs, texts, inside, now)
    recall_eval.index_all({**dirs, **extra}, env)
    return env, dirs, extra


def _decisions(folder: str, env: dict) -> list[dict]:
    path = os.path.join(paths.memory_dir(folder, env), files.DECISIONS)
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def _visible(env: dict, folder: str, project: str, word: str) -> int:
    conn = store.connect(paths.recall_index_file(env))
    try:
        mdir = paths.memory_dir(folder, env)
        where, args = lookup.scope_sql([mdir], project)
        return len(lookup.candidates(conn, [[word]], [mdir, ""], where, args, 10_000)[0])
    finally:
        conn.close()


def test_filler_in_other_projects_grows_the_index_and_no_project_of_the_set_sees_it(tmp_path, monkeypatch):
    monkeypatch.setattr(recall_eval, "FILLER_PER_PROJECT", 4)
    env, dirs, extra = _memory(tmp_path, [t.split("\t")[-1] for t in numbered(40)], inside=False)
    assert sorted(extra) == ["filler-000", "filler-001", "filler-002"]
    assert [len(_decisions(extra[p], env)) for p in sorted(extra)] == [4, 4, 2]
    assert all(d["project"] == p for p in extra for d in _decisions(extra[p], env))
    conn = store.connect(paths.recall_index_file(env))
    try:
        assert conn.execute("SELECT df FROM lex_total WHERE key='widget'").fetchone()[0] == 10
    finally:
        conn.close()
    assert [_visible(env, dirs[p], p, "widget") for p in recall_tiny.PROJECTS] == [0, 0]


def test_filler_inside_is_split_evenly_over_the_sets_projects(tmp_path):
    env, dirs, extra = _memory(tmp_path, [t.split("\t")[-1] for t in numbered(24)], inside=True)
    assert extra == {}
    assert [_visible(env, dirs[p], p, "widget") for p in recall_tiny.PROJECTS] == [3, 3]
    for p in recall_tiny.PROJECTS:
        fill = [d for d in _decisions(dirs[p], env) if "widget" in d["summary"]]
        assert len(fill) == 3 and all(d["project"] == p and len(d["cues"]) == 2 for d in fill)


@pytest.mark.parametrize("value", ["0", "-3"])
def test_filler_entries_must_be_positive(tmp_path, value, capsys):
    with pytest.raises(SystemExit) as stop:
        recall_eval.main(["--set", "tests.eval.recall_tiny", "--filler", "x", "--filler-entries", value])
    assert stop.value.code == 2 and "--filler-entries must be at least 1" in capsys.readouterr().err
