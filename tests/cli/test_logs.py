from lazy_harness import logfile
from tests.cli.lhrun import invoke


def test_logs_merge_hooks_and_worker_by_time(isolated_home):
    logfile.write(logfile.HOOKS, "Stop session=a queued x", now=1000.0)
    logfile.write(logfile.WORKER, "task x: processed", now=1001.0)
    logfile.write(logfile.HOOKS, "SessionEnd session=a queued y", now=1002.0)
    result = invoke("logs")
    lines = result.out.splitlines()
    assert [ln.split(" ", 1)[1] for ln in lines] == ["Stop session=a queued x", "task x: processed",
                                                     "SessionEnd session=a queued y"]
    assert invoke("logs", "--worker").out.count("\n") == 1
    assert invoke("logs", "--hooks", "-n", "1").out.split(" ", 1)[1] == "SessionEnd session=a queued y\n"


def test_log_rotates_by_size(isolated_home, monkeypatch):
    monkeypatch.setattr(logfile, "MAX_BYTES", 200)
    for i in range(20):
        logfile.write(logfile.HOOKS, f"line {i}")
    path = logfile.log_path(logfile.HOOKS)
    assert open(path).read().count("\n") < 20
    assert open(path + ".1").read().count("\n") >= 1
