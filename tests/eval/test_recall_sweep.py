"""The evaluation's options: extra prompt files (``--prompts``) and the bar sweep (``--sweep``)."""

import os
import subprocess
import sys

import pytest

from tests.eval import prompt_files, recall_eval, recall_tiny

TINY = "tests.eval.recall_tiny"


def prompts_file(tmp_path, text: str, name: str = "extra_v1.py") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run_main(capsys, *argv) -> tuple[int, str]:
    code = recall_eval.main(["--set", TINY, *argv])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("text, says", [
    ("X = 1\n", "defines no PROMPTS"),
    ("PROMPTS = []\n", "PROMPTS: expected a non-empty list"),
    ("PROMPTS = [('shop', 'a prompt', ['s-d1']), ('nowhere', 'a prompt', [])]\n",
     "PROMPTS[1]: project 'nowhere' is not in PROJECTS (shop, pipes)"),
    ("PROMPTS = [('shop', 'a prompt', ['s-d1', 'no-such-key'])]\n",
     "PROMPTS[0]: expected key 'no-such-key' is not an entry key"),
    ("PROMPTS = [('shop', 'a prompt', []), ('pipes', 'a prompt', ['s-d1'])]\n",
     "PROMPTS[1]: expected entry 's-d1' is not visible from 'pipes'"),
    ("PROMPTS = [('shop', 'a prompt')]\n", "PROMPTS[0]: expected (project, prompt, [expected keys])"),
    ("PROMPTS = [\n", "cannot be loaded: SyntaxError"),
])
def test_a_bad_prompt_file_is_one_line_naming_the_file_and_exit_2(tmp_path, capsys, text, says):
    path = prompts_file(tmp_path, text)
    code, err = run_main(capsys, "--prompts", path)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"recall_eval: {path}: ")
    assert says in err, err


def test_a_missing_prompt_file_is_named(tmp_path, capsys):
    good = prompts_file(tmp_path, "PROMPTS = [('shop', 'a prompt', [])]\n")
    missing = str(tmp_path / "nope.py")
    code, err = run_main(capsys, "--prompts", good, "--prompts", missing)
    assert (code, err) == (2, f"recall_eval: {missing}: no such file\n")


def test_a_general_learning_is_visible_from_every_project_and_a_project_learning_only_from_its_own(tmp_path):
    ok = prompts_file(tmp_path, "PROMPTS = [('shop', 'a prompt', ['g-l1']), ('pipes', 'b prompt', ['p-l1'])]\n")
    assert prompt_files.load(ok, recall_tiny) == ("extra_v1", [("shop", "a prompt", ["g-l1"]),
                                                               ("pipes", "b prompt", ["p-l1"])])
    bad = prompts_file(tmp_path, "PROMPTS = [('shop', 'a prompt', ['p-l1'])]\n", "other.py")
    with pytest.raises(prompt_files.PromptFileError, match=r"PROMPTS\[0\]: expected entry 'p-l1' is not visible"):
        prompt_files.load(bad, recall_tiny)


def test_a_part_name_is_used_once(tmp_path):
    one = prompts_file(tmp_path, "PROMPTS = [('shop', 'a prompt', [])]\n", "dev.py")
    with pytest.raises(prompt_files.PromptFileError, match="part name 'dev' is already used"):
        prompt_files.load_all([one], recall_tiny)
    (tmp_path / "b").mkdir()
    two = prompts_file(tmp_path, "PROMPTS = [('shop', 'a prompt', [])]\n", "v2.py")
    again = prompts_file(tmp_path / "b", "PROMPTS = [('shop', 'a prompt', [])]\n", "v2.py")
    with pytest.raises(prompt_files.PromptFileError, match=f"{again}: part name 'v2' is already used"):
        prompt_files.load_all([two, again], recall_tiny)


def test_the_command_exits_2_on_a_bad_file(tmp_path):
    path = prompts_file(tmp_path, "PROMPTS = [('shopfront', 'a prompt', ['zz'])]\n")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p = subprocess.run([sys.executable, "-m", "tests.eval.recall_eval", "--prompts", path], cwd=root,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == f"recall_eval: {path}: PROMPTS[0]: expected key 'zz' is not an entry key\n"


def test_the_sweep_at_the_default_bar_reports_what_the_plain_evaluation_does(tmp_path):
    assert recall_eval.DEFAULT_BAR in recall_eval.BARS and len(recall_eval.BARS) == 24
    path = prompts_file(tmp_path, "PROMPTS = [('pipes', 'the airflow run lands in the wrong daily partition', "
                                  "['p-l1']), ('shop', 'suggest a name for the team mascot', [])]\n")
    extra = prompt_files.load_all([path], recall_tiny)
    plain = recall_eval.evaluate(TINY, extra=extra)
    swept = recall_eval.sweep(TINY, extra=extra, bars=[recall_eval.DEFAULT_BAR, (3, 6.0)])

    def numbers(res):
        return {part: (r["hook"]["hits"], r["hook"]["labelled"], r["hook"]["noise"], r["hook"]["empty"],
                       r["hook"]["injected"], r["grep"]["hits"], r["grep"]["noise"])
                for part, r in [*res["parts"].items(), ("all", res)]}

    assert list(plain["parts"]) == ["dev", "extra_v1"]
    assert plain["parts"]["extra_v1"]["hook"]["labelled"] == 1 and plain["parts"]["extra_v1"]["hook"]["empty"] == 1
    assert numbers(swept[recall_eval.DEFAULT_BAR]) == numbers(plain)
    assert plain["hook"]["hits"] > 0 and plain["hook"]["noise"] > 0  # the comparison is not between zeros
    # the bar is read from the config.toml the sweep writes: a stricter one gives other numbers
    assert numbers(swept[(3, 6.0)]) != numbers(plain)
    assert swept[(3, 6.0)]["hook"]["noise"] <= plain["hook"]["noise"]


def test_the_sweep_prints_every_bar_and_marks_the_default(tmp_path, capsys):
    results = {bar: recall_eval.evaluate(TINY) for bar in [(1, 1.5)]}
    results[recall_eval.DEFAULT_BAR] = results[(1, 1.5)]
    recall_eval.print_sweep(results)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["min_terms", "min_score", "dev", "all"]
    assert lines[2].split()[:2] == ["1", "1.5"]
    assert lines[3].split()[:3] == ["*", "2", "2.4"]
    assert lines[4].split()[0] == "grep"
