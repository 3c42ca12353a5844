"""Review: with a wrong ``[memory] path`` (``"$NOPE/mem"``, the variable not set) ``lh doctor`` failed the
config line, then said ``ok memory folder: ~/.local/share/lazy-harness/projects`` and ``ok memory
lines`` of the default folder: not the person's memory, which lh will not read until the key is
fixed. Those checks say they are not run, and why."""



from tests.cli.lhrun import invoke
from tests.test_config_review_fixes import _config


def test_doctor_does_not_call_the_default_memory_folder_ok_when_memory_path_is_wrong(monkeypatch):
    monkeypatch.delenv("NOPE", raising=False)
    path = _config('[memory]\npath = "$NOPE/mem"\n')
    lines = invoke("doctor").out.splitlines()
    assert not any(line.startswith("ok") and ("memory folder" in line or "memory lines" in line or
                                              "learnings folder" in line) for line in lines), lines
    said = next(line for line in lines if "  memory folder: " in line)
    assert said.startswith("warn") and "not checked" in said and f"{path}:2: memory.path" in said
    assert "lh config validate" in said


def test_a_wrong_knowledge_path_is_named_too(monkeypatch):
    monkeypatch.delenv("NOPE", raising=False)
    _config('[knowledge]\npath = "~other/k"\n')
    said = next(line for line in invoke("doctor").out.splitlines() if "  memory folder: " in line)
    assert said.startswith("warn") and "knowledge.path" in said


def test_a_wrong_key_elsewhere_still_checks_the_folders(tmp_path):
    _config(f'[memory]\npath = "{tmp_path}/mem"\n[compound_loop]\nmodel = 42\n')
    lines = invoke("doctor").out.splitlines()
    assert any(line.startswith("ok") and f"memory folder: {tmp_path}/mem" in line for line in lines), lines
