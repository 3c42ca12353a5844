"""The sync's secret scan reads added lines in blocks, one redactor pass for many lines, and still
names the same ``path:line`` a pass per line named (docs/how/sync.md, "What the scan reads"); a long
scan says so now and then, a quick one says nothing.

The reference below is the scan as it was, one pass per line: the new one must agree with it on
every line the redactor's own tests hold, each among lines of memory like a user's."""

import ast
import glob
import json
import os

import pytest

from lazy_harness import sync
from lazy_harness.redact import redact
from lazy_harness.sync import scan
from tests.test_sync import KEY, Machine, _git

HERE = os.path.dirname(os.path.abspath(__file__))


def _reference(diff: str) -> list[str]:
    """The scan as it was: every added line read alone, then each run of added lines with no match
    read together, named by its first line."""
    found: list[str] = []
    path, line_no, header = "?", 0, False
    run: list[str] = []

    def end_run() -> None:
        first = line_no - len(run)
        if len(run) > 1 and not any(f.startswith(f"{path}:") and int(f.rsplit(":", 1)[1]) >= first for f in found) \
                and redact("\n".join(run))[1]:
            found.append(f"{path}:{first}")
        run.clear()

    for line in diff.splitlines():
        if not (not header and line.startswith("+")) and run:
            end_run()
        if line.startswith("diff "):
            header = True
        elif header and line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else line[4:]
        elif line.startswith("@@"):
            header = False
            line_no = int(line.split("+", 1)[1].split(",", 1)[0].split(" ", 1)[0])
        elif not header and line.startswith("+"):
            if scan._holds_secret(line[1:], (), redact):
                found.append(f"{path}:{line_no}")
            run.append(line[1:])
            line_no += 1
    if run:
        end_run()
    return found


def _usage_line(k: int) -> str:
    return json.dumps({"ts": f"2026-05-{1 + k % 28:02d}T10:{k % 60:02d}:00+02:00", "op": "shown",
                       "session": f"5f0c{k:08x}-aa41-4c1e-9f0e-{k:012x}", "id": f"d-{k * 7919 % 99991:08x}",
                       "chars": 100 + k % 300}, separators=(", ", ": "))


def _diff(files: dict[str, list[str]]) -> str:
    """A ``--unified=0`` diff adding each file's lines (one hunk from line 1)."""
    out = []
    for name, lines in files.items():
        out += [f"diff --git a/{name} b/{name}", "new file mode 100644", "--- /dev/null", f"+++ b/{name}",
                f"@@ -0,0 +1,{len(lines)} @@", *("+" + ln for ln in lines)]
    return "\n".join(out) + "\n"


def _redactor_test_lines() -> list[str]:
    """Every line of every string the redactor's tests hold, and each string as a JSONL line."""
    texts: set[str] = set()
    for path in sorted(glob.glob(os.path.join(HERE, "test_redact*.py"))):
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        texts |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                  and 4 < len(n.value) < 3000}
    lines = {ln for t in texts for ln in t.splitlines()} | {json.dumps({"summary": t}) for t in texts}
    return sorted(ln for ln in lines if ln)


def test_scanfx_blocks_name_every_line_a_pass_per_line_names():
    lines = _redactor_test_lines()
    mixed = [x for k, ln in enumerate(lines) for x in (_usage_line(k), ln)]
    assert len("\n".join(mixed)) > 3 * scan.BLOCK  # several blocks, some with a match and some without
    diff = _diff({"projects/p/decisions.jsonl": mixed, "knowledge/learnings/a.md": lines})
    want = _reference(diff)
    assert len(want) > 100  # the redactor's tests hold many secrets
    assert scan._added_secrets(diff) == want


def test_scanfx_each_secret_alone_among_clean_lines_is_named_as_a_pass_per_line_names():
    # why each in a run of its own: in a run with no match read together, only the lines read alone
    # anyway can be named (a value cut where a line ends matches only in the line read alone)
    secrets = [ln for ln in _redactor_test_lines() if scan._holds_secret(ln, (), redact)]
    clean = [_usage_line(k) for k in range(40)]
    diff = _diff({f"projects/p{k}/decisions.jsonl": [*clean[:20], ln, *clean[20:]] for k, ln in enumerate(secrets)})
    want = _reference(diff)
    assert len(want) == len(secrets)
    assert scan._added_secrets(diff) == want


def test_scanfx_a_run_with_a_secret_in_no_line_alone_is_named_by_its_first_line():
    clean = [ln for ln in _redactor_test_lines() if not scan._holds_secret(ln, (), redact)]
    lines = [_usage_line(k) for k in range(3000)] + clean
    diff = _diff({"projects/p/usage.jsonl": lines, "projects/p/failures.jsonl": clean})
    assert scan._added_secrets(diff) == _reference(diff)


def _big_usage(m: Machine, n: int, planted: dict[int, str]) -> str:
    """``n`` lines of usage.jsonl, the line numbered ``k`` (from 1) replaced by ``planted[k]``; its path
    in the data folder."""
    m.mdir.mkdir(parents=True, exist_ok=True)
    lines = [planted.get(k + 1, _usage_line(k)) for k in range(n)]
    (m.mdir / "usage.jsonl").write_text("".join(ln + "\n" for ln in lines))
    return f"projects/{KEY}/usage.jsonl"


def _used(evidence: str) -> str:
    return json.dumps({"ts": "2026-05-03T10:00:00+02:00", "op": "used", "session": "s9", "id": "d-00000001",
                       "evidence": evidence}, ensure_ascii=False, separators=(", ", ": "))


@pytest.mark.parametrize("planted", [
    _used("PGPASSWORD=" + "Hn4tR8eW2kP6 psql -h db"), _used("curl -H 'Authorization: Bearer " + "a" * 30 + "'"),
    # by hand, not JSON: the text ends inside the value (a quote left open, a URL cut before its "@")
    'export DB_PASSWORD="v7#Qm!2xL$9pK&4w', "psql postgres://app:" + "Hn4tR8eW2kP6"],
    ids=["assignment", "header", "open-quote-at-line-end", "url-password-cut"])
def test_scanfx_a_secret_in_a_big_usage_file_is_refused_naming_its_line(tmp_path, planted):
    m = Machine(tmp_path, tmp_path / "remote.git", "a")
    _git("init", "-q", "--bare", str(tmp_path / "remote.git"))
    m.add("decision", "Use SQLite for the index")
    m.sync()
    rel = _big_usage(m, 6000, {4321: planted})
    with pytest.raises(sync.SyncError) as err:
        m.sync()
    assert err.value.message == f"push refused: the redactor finds a secret in {rel}:4321"
    assert _git("status", "--porcelain", cwd=m.data).startswith("??")  # nothing left staged


def test_scanfx_a_long_scan_says_so_and_a_quick_one_says_nothing():
    diff = _diff({"projects/p/usage.jsonl": [_usage_line(k) for k in range(4000)]})
    ticks = iter(range(10**6))
    said: list[str] = []
    scan._added_secrets(diff, progress=said.append, clock=lambda: float(next(ticks)))  # a second a look
    assert said and all("for secrets" in line for line in said)
    assert f"{len(diff) / 1e6:.1f} MB" in said[0]
    quiet: list[str] = []
    scan._added_secrets(diff, progress=quiet.append, clock=lambda: 0.0)
    assert quiet == []


def test_scanfx_a_sync_round_passes_its_progress_to_the_scan(tmp_path, monkeypatch):
    m = Machine(tmp_path, tmp_path / "remote.git", "a")
    _git("init", "-q", "--bare", str(tmp_path / "remote.git"))
    _big_usage(m, 500, {})
    monkeypatch.setattr(scan, "PROGRESS_AFTER", 0.0)  # every look at the clock is a long scan's
    said: list[str] = []
    assert m.sync(progress=said.append)["pushed"]
    assert said and all("for secrets" in line for line in said)


def test_scanfx_lh_sync_prints_the_scans_progress_on_stderr(monkeypatch):
    from lazy_harness import sync as replication
    from tests.cli.lhrun import invoke

    def one_round(cfg, env=None, progress=None, **_):
        assert progress is not None, "lh sync gave the round no way to say how far its scan got"
        progress("scanning 12.0 MB for secrets before the push… 3.0 MB read")
        return {"committed": False, "merged": 0, "pushed": False, "repaired": [], "rewritten": False,
                "conflicts": [], "not_synced": ""}

    monkeypatch.setattr(replication, "run", one_round)
    r = invoke("sync")
    assert r.code == 0, r
    assert "scanning 12.0 MB for secrets before the push… 3.0 MB read" in r.err.splitlines(), r.err
    assert "scanning" not in r.out
