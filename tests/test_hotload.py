"""The hooks' modules loaded from one compiled file (lazy_harness/hotload.py): the same hook output
with it and without it, and anything wrong with it (a changed source, a damaged file, another Python)
costing the speed only. Each test works on a copy of the package in its own folder."""

import json
import marshal
import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

import lazy_harness
from lazy_harness import hotload
from lazy_harness import paths
from lazy_harness import settings
from tests.support import memory_samples as ms

PACKAGE = os.path.dirname(os.path.abspath(lazy_harness.__file__))

# prints, for every module of ours the process holds, whether the bundle served it
REPORT = ("import json, sys; print(json.dumps({n: type(m.__spec__.loader).__name__ for n, m in sys.modules.items() "
          "if n.startswith('lazy_harness')}))")


@pytest.fixture
def copy(tmp_path) -> str:
    """A copy of the installed package: the folder holding it (``parent``)."""
    parent = tmp_path / "site"
    shutil.copytree(PACKAGE, parent / "lazy_harness", ignore=shutil.ignore_patterns("__pycache__"))
    return str(parent)


def loaders(parent: str, *imports: str) -> tuple[dict[str, str], set[str]]:
    """The loader of each of our modules after the launcher's start and ``imports``, in a new interpreter
    run as the hook command runs (``-S -P``), and those of ours loaded before the bundle's finder."""
    code = (f"import sys; sys.path.append({parent!r}); from lazy_harness import hotload; "
            "before = sorted(n for n in sys.modules if n.startswith('lazy_harness')); hotload.install(); "
            + "".join(f"import {m}; " for m in imports) + "print(json.dumps(before)); " + REPORT.split("; ", 1)[1])
    p = subprocess.run([sys.executable, "-S", "-P", "-c", "import json; " + code], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    before, got = p.stdout.splitlines()
    return json.loads(got), set(json.loads(before))


def parts(path: str) -> tuple[bytes, int, dict]:
    """A bundle's bytes, where its code starts, and its header."""
    data = open(path, "rb").read()
    start = len(hotload.MAGIC) + 4 + int.from_bytes(data[len(hotload.MAGIC):len(hotload.MAGIC) + 4], "little")
    return data, start, marshal.loads(data[len(hotload.MAGIC) + 4:start])


def with_header(header: dict, code: bytes) -> bytes:
    head = marshal.dumps(header)
    return hotload.MAGIC + len(head).to_bytes(4, "little") + head + code


def session_start(parent: str, project: str) -> subprocess.CompletedProcess:
    """The SessionStart hook as lh hooks install registers it, with the package of ``parent``."""
    payload = json.dumps({"session_id": "5f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f", "cwd": project, "source": "startup",
                          "hook_event_name": "SessionStart", "transcript_path": os.path.join(project, "t.jsonl")})
    argv = shlex.split(settings.command_for("SessionStart", sys.executable, parent=parent))
    return subprocess.run(argv, input=payload.encode(), capture_output=True, timeout=60, cwd=project)


@pytest.fixture
def project(tmp_path) -> str:
    project = ms.make_project(str(tmp_path), "shop")
    mdir = paths.memory_dir(project)
    os.makedirs(mdir)
    now = time.time()
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [
        ms.decision(now - 60, "Money amounts are stored as integer cents", "floats lost a cent on refunds",
                    project="shop")])
    ms.write_jsonl(os.path.join(mdir, "failures.jsonl"), [
        ms.failure(now - 30, "The webhook arrived before the order row was committed", "commit first", project="shop")])
    return project


def test_every_module_of_the_list_is_in_the_package():
    for name in hotload.HOT:
        src, _ = hotload._source(os.path.dirname(PACKAGE), name)
        assert os.path.isfile(src), name


def test_a_hook_loads_its_modules_from_the_bundle_and_says_the_same(copy, project):
    without = session_start(copy, project)
    assert without.returncode == 0 and b"integer cents" in without.stdout, without.stderr
    assert hotload.build(copy) == len(hotload.HOT)
    with_it = session_start(copy, project)
    assert with_it.stdout == without.stdout
    # why the digest named: a start whose kept read-back holds loads none of it (ADR 0084)
    got, before = loaders(copy, "lazy_harness.hooks.session_start", "lazy_harness.hooks.user_prompt",
                          "lazy_harness.recall.readback.digest")
    # what the launcher imports to find the bundle (the package, hotload, paths, private) comes before
    # it; every other module from it
    served = {n for n, loader in got.items() if loader == "_Finder"}
    assert served == set(got) - before and len(before) <= 4, before
    assert {"lazy_harness.recall.readback.digest", "lazy_harness.recall.readback.prepared",
            "lazy_harness.memory.held"} <= served


def test_before_the_bundle_the_launcher_reads_four_modules_from_their_files_and_no_extension(copy):
    """What the launcher imports to find the bundle is read from its files, the slow way (about 0.2 ms a
    module): only the package, hotload and the two it needs; not atomic, whose fcntl is a shared library
    to load, nor project_identity (the bundle serves both to the hooks that use them)."""
    hotload.build(copy)
    code = (f"import sys; sys.path.append({copy!r}); from lazy_harness import hotload; import json; "
            "print(json.dumps(sorted(n for n in sys.modules if n.startswith('lazy_harness') or n == 'fcntl')))")
    p = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == [
        "lazy_harness", "lazy_harness.hotload", "lazy_harness.paths", "lazy_harness.private"]


def test_the_launcher_before_the_bundle_loads_the_events_modules_from_it(copy):
    """Settings written by earlier versions run ``hooks.entry.run`` directly: what it imports itself
    comes from the files, the event's modules from the bundle; the launcher's finder is not put twice."""
    hotload.build(copy)
    code = f"""
import json, sys
sys.path.append({copy!r})
from lazy_harness.hooks import entry

def main():
    import lazy_harness.hooks.session_start
    import lazy_harness.recall.readback.digest
    from lazy_harness import hotload
    hotload.install()
    found = sum(isinstance(f, hotload._Finder) for f in sys.meta_path)
    loaders = {{n: type(m.__spec__.loader).__name__ for n, m in sys.modules.items() if n.startswith("lazy_harness")}}
    print(json.dumps([found, loaders]))

entry.main = main
entry.run()
"""
    p = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout, p.stderr
    found, got = json.loads(p.stdout)
    assert found == 1
    assert got["lazy_harness.hooks.entry"] == "SourceFileLoader"
    assert got["lazy_harness.hooks.session_start"] == got["lazy_harness.memory.held"] == "_Finder"


def test_without_a_bundle_every_module_is_imported_from_its_file(copy):
    assert not os.path.exists(hotload.bundle_file(copy))
    got, _ = loaders(copy, "lazy_harness.hooks.session_start")
    assert "_Finder" not in got.values() and got["lazy_harness.hooks.session_start"] == "SourceFileLoader"


def test_a_module_changed_after_the_bundle_is_imported_from_its_file(copy):
    hotload.build(copy)
    held = os.path.join(copy, "lazy_harness", "memory", "held.py")
    with open(held, "a") as fh:
        fh.write("\nCHANGED_AFTER_THE_BUNDLE = True\n")
    code = (f"import sys; sys.path.append({copy!r}); from lazy_harness import hotload; hotload.install(); "
            "from lazy_harness.memory import held, marks; "
            "print(type(held.__spec__.loader).__name__, held.CHANGED_AFTER_THE_BUNDLE, "
            "type(marks.__spec__.loader).__name__)")
    p = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == ["SourceFileLoader", "True", "_Finder"], p.stderr
    assert hotload.stale(copy) == ["lazy_harness.memory.held"]


@pytest.mark.parametrize("damage", ["empty", "cut in the header", "cut in the code", "code overwritten",
                                    "another python"])
def test_a_damaged_bundle_costs_the_speed_and_never_the_hook(copy, project, damage):
    expected = session_start(copy, project).stdout
    hotload.build(copy)
    path = hotload.bundle_file(copy)
    data, start, header = parts(path)
    if damage == "empty":
        data = b""
    elif damage == "cut in the header":
        data = data[:start - 10]
    elif damage == "cut in the code":
        data = data[:start + 100]
    elif damage == "code overwritten":
        data = data[:start] + bytes(len(data) - start)  # zeros: no marshal type has code 0
    else:  # the same modules compiled by another interpreter
        data = with_header({**header, "python": "3.99.0 (elsewhere)"}, data[start:])
    with open(path, "wb") as fh:
        fh.write(data)
    got = session_start(copy, project)
    assert got.returncode == 0 and got.stdout == expected, got.stderr
    loaded, _ = loaders(copy, "lazy_harness.hooks.session_start")
    assert loaded["lazy_harness.hooks.session_start"] == "SourceFileLoader"


def test_refresh_writes_only_when_a_module_changed(copy):
    assert hotload.refresh(copy) == len(hotload.HOT)
    path = hotload.bundle_file(copy)
    before = os.stat(path)
    assert hotload.refresh(copy) is None and hotload.stale(copy) == []
    after = os.stat(path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    paths_py = os.path.join(copy, "lazy_harness", "paths.py")
    st = os.stat(paths_py)
    os.utime(paths_py, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # an upgrade writes new files
    assert hotload.stale(copy) == ["lazy_harness.paths"]
    assert hotload.refresh(copy) == len(hotload.HOT) and hotload.stale(copy) == []


def test_a_header_with_a_damaged_entry_is_written_again(copy, project):
    """A header that reads but holds an entry of another shape: that module is stale (the worker's
    refresh writes the bundle again instead of failing) and the hook imports it from its file."""
    hotload.build(copy)
    path = hotload.bundle_file(copy)
    data, start, header = parts(path)
    header["modules"]["lazy_harness.memory.held"] = ("memory/held.py",)
    with open(path, "wb") as fh:
        fh.write(with_header(header, data[start:]))
    assert hotload.stale(copy) == ["lazy_harness.memory.held"]
    got, _ = loaders(copy, "lazy_harness.memory.held", "lazy_harness.memory.marks")
    assert (got["lazy_harness.memory.held"], got["lazy_harness.memory.marks"]) == ("SourceFileLoader", "_Finder")
    assert session_start(copy, project).returncode == 0
    assert hotload.refresh(copy) == len(hotload.HOT) and hotload.stale(copy) == []


def test_a_cache_folder_that_cannot_be_written_raises_and_leaves_no_bundle(copy):
    hooks_dir = os.path.dirname(hotload.bundle_file(copy))
    os.makedirs(os.path.dirname(hooks_dir))
    with open(hooks_dir, "w") as fh:  # why: a file where the folder goes fails for root too
        fh.write("")
    with pytest.raises(OSError):
        hotload.refresh(copy)
    assert not hotload.install(copy)


@pytest.mark.parametrize("unsafe", ["folder open to others", "file writable by others", "file is a link",
                                    "cache folder open to others"])
def test_a_bundle_another_user_could_have_written_is_not_used(copy, project, unsafe):
    """The bundle is code: in a folder or a file another local user could write, the hook imports its
    modules from their files, and says the same; lh hooks install refuses to write it there."""
    hotload.build(copy)
    path = hotload.bundle_file(copy)
    if unsafe == "folder open to others":
        os.chmod(os.path.dirname(path), 0o777)
    elif unsafe == "file writable by others":
        os.chmod(path, 0o666)
    elif unsafe == "file is a link":
        os.rename(path, path + ".real")
        os.symlink(path + ".real", path)
    else:
        os.chmod(paths.cache_dir(), 0o777)
    assert hotload.problem(path)
    assert hotload.stale(copy) == list(hotload.HOT)
    got, _ = loaders(copy, "lazy_harness.hooks.session_start")
    assert "_Finder" not in got.values()
    with_it = session_start(copy, project)
    os.unlink(path)
    # why against a run without the bundle: an unsafe cache folder also makes the hook skip (ADR 0031)
    assert with_it.returncode == 0 and with_it.stdout == session_start(copy, project).stdout
    if "folder" in unsafe:
        with pytest.raises(PermissionError):
            hotload.build(copy)


def test_another_installs_bundle_is_not_used(copy, tmp_path):
    """Two installs sharing a HOME keep a bundle each; one found under the other's name is not used."""
    hotload.build(copy)
    other = str(tmp_path / "other-site")
    shutil.copytree(os.path.join(copy, "lazy_harness"), os.path.join(other, "lazy_harness"))
    assert hotload.bundle_file(other) != hotload.bundle_file(copy)
    shutil.copy(hotload.bundle_file(copy), hotload.bundle_file(other))
    assert not hotload.install(other)
    assert hotload.stale(other) == list(hotload.HOT)


def test_lh_hooks_install_writes_the_bundle_once_and_says_so(copy, monkeypatch, isolated_home):
    from tests.cli.lhrun import invoke

    monkeypatch.setattr(hotload, "package_parent", lambda: copy)
    first = invoke("hooks", "install")
    assert first.code == 0, first.err
    assert f"hook modules: {len(hotload.HOT)} compiled into {hotload.bundle_file(copy)}" in first.out
    assert hotload.stale(copy) == []
    again = invoke("hooks", "install")
    assert again.code == 0 and "hook modules" not in again.out


def test_lh_hooks_install_in_a_folder_it_cannot_write_warns_and_installs_the_hooks(copy, monkeypatch, isolated_home):
    from tests.cli.lhrun import invoke

    monkeypatch.setattr(hotload, "package_parent", lambda: copy)
    hooks_dir = os.path.dirname(hotload.bundle_file(copy))
    os.makedirs(os.path.dirname(hooks_dir))
    with open(hooks_dir, "w") as fh:
        fh.write("")
    r = invoke("hooks", "install")
    assert r.code == 0, r.err
    assert "warning: hook modules not compiled (" in r.out
    data = json.loads((isolated_home / ".claude" / "settings.json").read_text())
    assert {o.event for o in settings.find_ours(data)} == set(settings.EVENTS)


def test_the_worker_writes_the_bundle_again_after_an_upgrade(copy, monkeypatch, isolated_home):
    from lazy_harness.worker import loop

    monkeypatch.setattr(hotload, "package_parent", lambda: copy)
    hotload.build(copy)
    entry = os.path.join(copy, "lazy_harness", "hooks", "entry.py")
    st = os.stat(entry)
    os.utime(entry, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert hotload.stale(copy) == ["lazy_harness.hooks.entry"]
    loop.run()
    assert hotload.stale(copy) == []


def test_the_worker_writes_the_first_bundle_of_a_plugins_user(copy, monkeypatch, isolated_home):
    """The plugin's user never runs lh hooks install: the first worker run writes it."""
    from lazy_harness.worker import loop

    monkeypatch.setattr(hotload, "package_parent", lambda: copy)
    assert not os.path.exists(hotload.bundle_file(copy))
    loop.run()
    assert hotload.stale(copy) == [] and hotload.problem(hotload.bundle_file(copy)) is None


def test_doctor_says_whether_the_hooks_load_from_the_bundle(copy, monkeypatch, isolated_home):
    from lazy_harness.cli.hooks_install import bundle_line

    monkeypatch.setattr(hotload, "package_parent", lambda: copy)
    status, _, detail, fix = bundle_line()
    assert status == "warn" and f"{len(hotload.HOT)} changed since" in detail and "lh hooks install" in fix
    hotload.build(copy)
    assert bundle_line() == ("ok", "hook modules", f"loaded from {hotload.bundle_file(copy)}", None)


def test_the_bundle_takes_a_modules_pyc_only_when_it_was_made_from_its_source(copy):
    import py_compile
    from importlib.util import cache_from_source

    held = os.path.join(copy, "lazy_harness", "memory", "held.py")
    marks = os.path.join(copy, "lazy_harness", "memory", "marks.py")
    for src in (held, marks):  # as pip install writes them
        py_compile.compile(src, cfile=cache_from_source(src),
                           invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    with open(held, "a") as fh:
        fh.write("\nEDITED_AFTER_ITS_PYC = True\n")
    st = os.stat(held)
    os.utime(held, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    hotload.build(copy)
    data, start, header = parts(hotload.bundle_file(copy))
    entry = header["modules"]["lazy_harness.memory.marks"]
    with open(cache_from_source(marks), "rb") as fh:
        assert data[start + entry[3]:start + entry[3] + entry[4]] == fh.read()[16:]  # its .pyc's code
    code = (f"import sys; sys.path.append({copy!r}); from lazy_harness import hotload; hotload.install(); "
            "from lazy_harness.memory import held; "
            "print(type(held.__spec__.loader).__name__, held.EDITED_AFTER_ITS_PYC)")
    p = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == ["_Finder", "True"], p.stderr  # compiled from the edited source, not the old .pyc
