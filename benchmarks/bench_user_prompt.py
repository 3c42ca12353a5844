"""UserPromptSubmit hook cost on a memory that looks like a user's, at 18,000 and 100,000 entries,
against a bare start of the same interpreter; and `lh memory search` at 100,000 (time and memory).

The memory (tests/support/realistic_memory.py): words drawn with a Zipf distribution from the
standard library's docstrings, so each of the prompt's words is in hundreds or thousands of entries;
10:5:3 decisions:failures:learnings, each with tags and three cues; 50 open handoff items; one
decision about the prompt. Learnings come from three projects. The index is built and every entry
embedded first (by the index's writer, as the worker and ``lh memory reindex`` do; its time is printed),
then the command Claude Code runs (``lh hooks install``'s) is timed with the JSON payload on stdin:

  similarity      the default: the prompt's vector from the static model, the candidates' kept
                  vectors; answered by the resident answerer (ADR 0029), started by the first prompt.
                  Every run is the same session, so from the second on its match was shown already
                  and the hook prints nothing ("nothing new" in hooks.log): the search without the
                  printing
  shown           as ``similarity``, each run a new session: the match is printed, and the hook
                  records what it showed and the usage line (what a prompt that gets a note costs)
  similarity alone  the same with ``recall.resident_minutes = 0``: the hook does the work itself
                  (what the first prompt after an idle exit costs)
  words           ``recall.semantic = false``: the strength bar alone (resident)
  after 5 new     before each run, 5 new decisions are appended and indexed by the writer (untimed,
                  as the worker does after it writes): the hook finds them in the index. Run after
                  the others, each beside a bare start (in turns first and second after the write),
                  which joins the baseline
  varied prompts  as ``similarity``, but each run sends another prompt, as a session does: the
                  three of realistic_memory.PROMPTS, then sentences of 5 to 14 words drawn as the
                  memory's are (so each word is in hundreds or thousands of entries). They hold a
                  median 6 search terms (9 at the 90th percentile), against 4 (6) for the 313
                  prompts people wrote for the evaluation sets (tests/eval/*prompts.py): heavier
                  than typed prompts, not lighter. Each prompt reaches other entries than the last;
                  the answerer has read every entry's words and vectors ahead by then (up to 20,000
                  entries, in about 0.3 s after it starts: ``answerer.AHEAD``), and it sits idle
                  between runs, as between a person's prompts
  short prompt    under recall.min_prompt_chars: answered before the index is opened

interleaved with ``python -c pass``. The CPU time printed is the hook process's own: with the
answerer, the wall time is what counts (it includes the answer). Also printed: the answerer's
resident set, and what ``import socket`` costs against ``import _socket`` (the client's choice).
Goals (issue 29): at most 2x a bare start at 18,000 entries, 3x at 100,000; ``lh memory search`` at
most 5x and 100 MB at 100,000; an answerer of at most 100 MB at 100,000.

    BENCH_SIZES=18000,100000 python benchmarks/bench_user_prompt.py [--runs 21] [--check]
"""

import json
import os
import subprocess
import sys
import time

import harness
from harness import Case

from lazy_harness import paths
from lazy_harness.memory import files
from tests.support import memory_samples as ms
from tests.support import realistic_memory as rm

GOALS = {18_000: 2.0, 100_000: 3.0}
VARIED = 60  # prompts of the "varied prompts" case, taken in turn
SEARCH_GOAL, SEARCH_MB = 5.0, 100


def config(root: str, name: str, semantic: bool, resident_minutes: int = 30) -> str:
    """A config as ``lh hooks install`` leaves it (the loop on: the hook also tells the sweep about the
    session), with the similarity bar on or off, the resident answerer on or off."""
    path = os.path.join(root, f"{name}.toml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"[compound_loop]\nenabled = true\n\n[recall]\nsemantic = {'true' if semantic else 'false'}\n"
                 f"resident_minutes = {resident_minutes}\n")
    return path


def answerer_ready(hook: list[str], stdin: bytes, env: dict) -> int:
    """Run the hook once (it starts the answerer for a memory this large) and wait until the answerer
    answers; its pid."""
    from lazy_harness.recall.resident import client

    subprocess.run(hook, input=stdin, env=env, capture_output=True)
    deadline = time.monotonic() + 60
    while not (client.running(env) and os.path.exists(os.path.join(client.folder(env), client.SOCKET_NAME))):
        if time.monotonic() > deadline:
            sys.exit("the resident answerer did not start: see logs/resident.log")
        time.sleep(0.05)
    return client.pid(env)


def varied_prompts() -> list[str]:
    """The "varied prompts" case's prompts: realistic_memory.PROMPTS, then sentences drawn from the
    memory's vocabulary (so each shares words with thousands of entries), of prompt length."""
    w = rm.Writer(seed=99)
    return list(rm.PROMPTS) + [w.sentence(5, 14) for _ in range(VARIED - len(rm.PROMPTS))]


def build(root: str, env: dict, size: int, now: float) -> tuple[str, str]:
    project = ms.make_project(root, f"project-{size}", branch="main")
    started = time.perf_counter()
    facts = rm.build(project, env, now, entries=size, name=f"project-{size}")
    print(f"{size:,} entries written in {time.perf_counter() - started:.1f} s")
    from lazy_harness.recall.index import writer

    started = time.perf_counter()
    done = writer.update(paths.recall_index_file(env), [facts["memory_dir"]], facts["learnings_dir"])
    print(f"{size:,} entries: index built, {done[0]:,} entries and {done[1]:,} texts embedded, in "
          f"{time.perf_counter() - started:.1f} s ({os.path.getsize(paths.recall_index_file(env)) / 1e6:.0f} MB)")
    return project, facts["memory_dir"]


# why: a child of this (large) process reports this process's peak as its own ru_maxrss (the forked
# memory counts until exec); a small launcher spawns the command and reports its child's peak
PEAK = ("import os, sys\n"
        "quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]\n"
        "pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=quiet)\n"
        "_, status, used = os.wait4(pid, 0)\n"
        "print(used.ru_maxrss, os.waitstatus_to_exitcode(status))")


def search_cost(env: dict, project: str, runs: int) -> tuple[list[float], list[float], float]:
    """Wall times of ``lh memory search``, of a bare start run beside each (why: the hook cases' bare
    starts ran minutes before, and a machine's bare start moved from 11 to 17 ms within minutes), and
    the largest resident set of one search, in MB."""
    argv = [sys.executable, "-m", "lazy_harness", "memory", "search", "connection", "pool", "socket",
            "--project", project]
    walls, bare, peak = [], [], 0.0
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=env, capture_output=True)
        bare.append(time.perf_counter() - started)
        started = time.perf_counter()
        proc = subprocess.run(argv, env=env, capture_output=True)
        walls.append(time.perf_counter() - started)
        if proc.returncode != 0:
            sys.exit(f"lh memory search failed: {proc.stderr.decode(errors='replace')[-500:]}")
        kb, _ = subprocess.run([sys.executable, "-c", PEAK, *argv], env=env, capture_output=True,
                               text=True).stdout.split()
        peak = max(peak, int(kb) / 1024)
    return walls, bare, peak


def main() -> int:
    opts = harness.parse_args(__doc__)
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "18000,100000").split(",")]
    print(harness.interpreter_note())
    ok = True
    for size in sizes:
        with harness.temp_home(opts.keep) as (root, env):
            ok = run_size(opts, root, env, size) and ok
    return 1 if opts.check and not ok else 0


def run_size(opts, root: str, env: dict, size: int) -> bool:
    now = time.time()
    project, mem = build(root, env, size, now)

    def payload(prompt: str, session: str = "7d2f4c1a-0b3e-4f5a-9c8d-1e2f3a4b5c6d") -> bytes:
        return json.dumps({"session_id": session, "cwd": project,
                           "transcript_path": f"{root}/t.jsonl", "hook_event_name": "UserPromptSubmit",
                           "permission_mode": "default", "prompt": prompt}).encode()

    def expect(case_env: dict, *words: str):
        log = os.path.join(paths.logs_dir(case_env), "hooks.log")

        def check(proc) -> None:
            with open(log, encoding="utf-8") as fh:
                last = fh.read().splitlines()[-1]
            if not all(w in last for w in words) or " error " in last:
                sys.exit(f"unexpected hook run: {last}")
        return check

    hook = harness.hook_command("UserPromptSubmit")
    words_env = dict(env, LH_CONFIG=config(root, "words", False), CLAUDE_CONFIG_DIR=os.path.join(root, "claude-words"))
    sem_env = dict(env, LH_CONFIG=config(root, "semantic", True))
    alone_env = dict(env, LH_CONFIG=config(root, "alone", True, resident_minutes=0),
                     CLAUDE_CONFIG_DIR=os.path.join(root, "claude-alone"))
    prompt = rm.PROMPTS[0]
    answerer = answerer_ready(hook, payload(prompt), sem_env)
    cases = harness.bare_cases(env) + [
        Case(f"{size:,}: similarity", hook, payload(prompt), sem_env,
             check=expect(sem_env, "passed=", "semantic=", "(resident)")),
        # why as many sessions as runs and warm-up rounds: each run's match is new to its session
        Case(f"{size:,}: shown", hook, env=sem_env,
             inputs=tuple(payload(prompt, f"5e0c9b2a-0000-4000-8000-{n:012d}") for n in range(opts.runs + 4)),
             check=expect(sem_env, "injected 1 ", "(resident)")),
        Case(f"{size:,}: similarity alone", hook, payload(prompt), alone_env,
             check=expect(alone_env, "passed=", "semantic=")),
        Case(f"{size:,}: varied prompts", hook, env=sem_env, inputs=tuple(map(payload, varied_prompts())),
             check=expect(sem_env, "semantic=", "(resident)")),
        Case(f"{size:,}: words", hook, payload(prompt), words_env,
             check=expect(words_env, "passed=", "semantic=off", "(resident)")),
        Case(f"{size:,}: short prompt", hook, payload("fix the typo"), sem_env,
             check=expect(sem_env, "skipped: prompt under")),
        Case("import socket", [sys.executable, "-S", "-c", "import socket"], env=env),
        Case("import _socket", [sys.executable, "-S", "-c", "import _socket"], env=env),
    ]
    cpu: dict = {}
    times = harness.measure(cases, opts.runs, cpu=cpu)
    bare = next(c for c in cases if c.name == harness.BARE)
    catch = Case(f"{size:,}: after 5 new", hook, payload(prompt), sem_env,
                 check=expect(sem_env, "passed=", "semantic=", "(resident)"))
    times[catch.name], cpu[catch.name] = [], []
    new = rm.Writer(seed=size)
    from lazy_harness.recall.index import writer

    for r in range(opts.runs):
        ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
            ms.decision(now + r * 10 + i, new.sentence(7, 14), new.sentence(15, 30), project=f"project-{size}",
                        tags=new.tags(), cues=new.cues()) for i in range(5)])
        writer.update(paths.recall_index_file(env), [mem], paths.learnings_dir(None, env))  # untimed: the worker
        # why a bare start beside each run: this loop runs after the interleaved ones, minutes later
        # on a busy machine, so the baseline of the same moments joins the others; in turns first
        # and second, as the writer's work just before slows whichever process starts next
        for case in (catch, bare) if r % 2 == 0 else (bare, catch):
            wall, used = harness.run_once_cpu(case)
            times[case.name].append(wall)
            cpu[case.name].append(used)
    goal = GOALS.get(size, 3.0)
    goals = {n: goal for n in times if n.startswith(f"{size:,}:") and "short" not in n and "alone" not in n}
    ok = harness.report(times, goals=goals, title=f"UserPromptSubmit, {size:,} entries")
    harness.cpu_report(cpu)
    from lazy_harness.recall.resident import client

    kb = client.resident_kb(answerer) if client.pid(sem_env) == answerer else None
    if kb is None:
        print("the resident answerer left during the runs")
        ok = False
    else:
        print(f"resident answerer at {size:,} entries: {kb / 1024:.0f} MB resident (goal 100 MB)")
        ok = ok and kb / 1024 <= 100
    client.stop(sem_env)
    if size >= 100_000:
        import statistics

        walls, bare, peak = search_cost(env, project, max(5, opts.runs // 3))
        ratio = statistics.median(walls) / statistics.median(bare)
        met = ratio <= SEARCH_GOAL and peak <= SEARCH_MB
        ok = ok and met
        print(f"lh memory search at {size:,}: median {statistics.median(walls) * 1000:.0f} ms = {ratio:.1f}x the bare "
              f"start run beside each ({statistics.median(bare) * 1000:.1f} ms) "
              f"(goal {SEARCH_GOAL:g}x), peak resident {peak:.0f} MB (goal {SEARCH_MB} MB): "
              f"{'met' if met else 'MISSED'}")
    return ok


if __name__ == "__main__":
    sys.exit(main())
