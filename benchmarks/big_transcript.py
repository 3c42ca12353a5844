"""Large, realistic Claude Code transcripts for the benchmarks, generated once into a cache folder.

The records follow what the real CLI (2.1.328) writes (tests/fixtures/transcripts/README.md): typed
``user`` prompts, ``assistant`` records with text and ``tool_use`` blocks (one record per content
block), ``user`` records carrying ``tool_result`` blocks with big outputs (duplicated in
``toolUseResult``, as the CLI does), ``api-request-blob`` / ``api-request`` / ``api-request-shape``
request snapshots, attachments, ``system`` records, ``file-history-snapshot`` and ``cost-state``.
About one tool result in 400 is larger than the reader's 4 MB line cap, as a ``cat`` of a big log
would be. The content is deterministic (seeded), so a size always yields the same file.

Cache: ``$LH_BENCH_CACHE``, else ``<tmp>/lh-bench-cache``; ``transcript-<N>mb.jsonl`` (about N MB).
Written to a temporary name and renamed, so an interrupted run leaves no half file behind.

    python benchmarks/big_transcript.py 30 100 300     # make (or find) the files, print their paths
"""

import json
import os
import random
import sys
import tempfile
import time

PROJECT = "/home/user/billing"
SESSION = "3b1f6c52-8e0a-4d7e-9f21-6a5c0d4e7b18"
MB = 1024 * 1024
WORDS = ("the queue worker lock file rename atomic task session hook billing invoice postgres redis "
         "backup nightly retry timeout config value test fixture module function return error path "
         "commit branch merge review deploy staging build cache index table column migration schema "
         "request response header token client server latency memory budget prompt model answer "
         "über naïve café résumé").split()
TOOLS = ("Bash", "Read", "Edit", "Grep", "Glob", "Write")


def cache_dir() -> str:
    return os.environ.get("LH_BENCH_CACHE") or os.path.join(tempfile.gettempdir(), "lh-bench-cache")


class _Gen:
    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)
        self.n = 0
        self.clock = 1_795_000_000.0
        # why: drawing every word at random is slow; outputs are assembled from a pool of lines
        self.prose = [self.words(self.rnd.randint(8, 40)) for _ in range(400)]
        self.code = [self._code_line(i) for i in range(2000)]

    def words(self, n: int) -> str:
        return " ".join(self.rnd.choice(WORDS) for _ in range(n))

    def _code_line(self, i: int) -> str:
        r = self.rnd
        kind = r.randint(0, 4)
        if kind == 0:
            return (f"src/billing/module_{i % 97}.py:{r.randint(1, 900)}:    "
                    f"def {r.choice(WORDS)}_{i}(self, value): return \"{self.words(3)}\"")
        if kind == 1:
            return (f"FAILED tests/test_{r.choice(WORDS)}.py::test_{self.words(2).replace(' ', '_')} - "
                    f"AssertionError: {{'key': {i}}} != {{'key': {i + 1}}}")
        if kind == 2:
            return (f"{r.randint(1, 999):>6}\t    {r.choice(WORDS)} = {r.choice(WORDS)}({r.randint(0, 99)}, "
                    f"path='C:\\\\tmp\\\\{i}')  # {self.words(4)}")
        if kind == 3:
            return (f"2026-11-22T02:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z "
                    f"INFO worker[{r.randint(100, 999)}] {self.words(r.randint(4, 12))}")
        return f"drwxr-xr-x  {r.randint(1, 9)} user user {r.randint(100, 99999):>6} Nov 22 02:21 {r.choice(WORDS)}_{i}"

    def uid(self) -> str:
        h = f"{self.rnd.getrandbits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def ts(self) -> str:
        self.clock += self.rnd.uniform(0.05, 3.0)
        t = time.gmtime(self.clock)
        return time.strftime("%Y-%m-%dT%H:%M:%S", t) + f".{int(self.clock * 1000) % 1000:03d}Z"

    def output(self, size: int) -> str:
        out, n = [], 0
        while n < size:
            line = self.rnd.choice(self.code)
            out.append(line)
            n += len(line) + 1
        return "\n".join(out)

    def output_size(self) -> int:
        r = self.rnd.random()
        if r < 1 / 400:
            return self.rnd.randint(5 * MB, 6 * MB)  # past the reader's 4 MB line cap
        if r < 0.01:
            return self.rnd.randint(MB // 2, 2 * MB)
        if r < 0.1:
            return self.rnd.randint(40_000, 150_000)
        return self.rnd.randint(300, 12_000)

    def base(self, parent: str | None) -> dict:
        return {"parentUuid": parent, "isSidechain": False}

    def tail(self) -> dict:
        return {"userType": "external", "entrypoint": "cli", "cwd": PROJECT, "sessionId": SESSION,
                "version": "2.1.328", "gitBranch": "feature/queue"}


def _turn(g: _Gen, parent: str | None, prompt_index: int) -> tuple[list[dict], str]:
    """One typed prompt and the model's work on it; returns (records, uuid of the last record)."""
    r = g.rnd
    recs = []
    uid = g.uid()
    prompt = " ".join(r.choice(g.prose) for _ in range(r.randint(1, 8)))
    if r.random() < 0.2:
        prompt += "\n\n```\n" + g.output(r.randint(200, 3000)) + "\n```"
    recs.append({**g.base(parent), "promptId": g.uid(), "type": "user",
                 "message": {"role": "user", "content": prompt}, "uuid": uid, "timestamp": g.ts(),
                 "permissionMode": "auto", "origin": {"kind": "human"}, "promptSource": "typed",
                 "turnOrigin": "human", "turnPosition": {"promptIndex": prompt_index, "turnIndex": prompt_index},
                 **g.tail()})
    parent = uid
    if prompt_index % 10 == 1:
        recs.append({"type": "api-request-shape", "sessionId": SESSION, "shapeHash": g.uid().replace("-", "") * 2,
                     "timestamp": g.ts(), "version": "2.1.328",
                     "shape": {"system": [{"type": "text", "text": g.output(28_000)}], "tools": [
                         {"name": t, "description": g.words(60)} for t in TOOLS]}})
    if r.random() < 0.5:
        att = g.uid()
        recs.append({**g.base(parent), "attachment": {"type": "date", "content": g.words(12)}, "type": "attachment",
                     "uuid": att, "timestamp": g.ts(), **g.tail()})
        parent = att
    recs.append({"type": "api-request-blob", "sessionId": SESSION, "hash": g.uid().replace("-", "") * 2,
                 "message": {"role": "user", "content": [
                     {"type": "text", "text": "<system-reminder>\n" + g.words(80) + "\n</system-reminder>\n"},
                     {"type": "text", "text": prompt}]}})
    for _ in range(r.randint(1, 6)):
        req = g.uid()
        recs.append({"type": "api-request", "sessionId": SESSION, "id": req, "timestamp": g.ts(),
                     "version": "2.1.328", "querySource": "repl_main_thread",
                     "params": {"model": "claude-opus-5-5", "max_tokens": 128000,
                                "betas": ["claude-code-20250219", "interleaved-thinking-2025-05-14"]},
                     "tail": [g.uid().replace("-", "") * 2 for _ in range(2)]})
        mid = f"msg_{r.getrandbits(80):020x}"
        usage = {"input_tokens": r.randint(100, 90_000), "cache_read_input_tokens": r.randint(0, 80_000),
                 "output_tokens": r.randint(10, 4000), "service_tier": "standard"}
        if r.random() < 0.4:  # a sentence before the tool call: its own record, same message id
            aid = g.uid()
            recs.append({**g.base(parent), "message": {"id": mid, "type": "message", "role": "assistant",
                                                       "model": "claude-opus-5-5", "content": [
                                                           {"type": "text", "text": r.choice(g.prose)}],
                                                       "stop_reason": None, "usage": usage},
                         "requestId": f"req_{r.getrandbits(64):016x}", "type": "assistant", "uuid": aid,
                         "timestamp": g.ts(), **g.tail()})
            parent = aid
        tool = r.choice(TOOLS)
        tid = f"toolu_{r.getrandbits(80):020x}"
        args = {"Bash": {"command": f"pytest -q tests/test_{r.choice(WORDS)}.py", "description": g.words(5)},
                "Read": {"file_path": f"{PROJECT}/src/billing/module_{r.randint(0, 96)}.py"},
                "Edit": {"file_path": f"{PROJECT}/src/billing/queue.py", "old_string": g.output(400),
                         "new_string": g.output(500)},
                "Grep": {"pattern": r.choice(WORDS), "path": PROJECT},
                "Glob": {"pattern": "**/*.py"},
                "Write": {"file_path": f"{PROJECT}/docs/{r.choice(WORDS)}.md", "content": g.output(2000)}}[tool]
        aid = g.uid()
        recs.append({**g.base(parent), "message": {"id": mid, "type": "message", "role": "assistant",
                                                   "model": "claude-opus-5-5", "content": [
                                                       {"type": "tool_use", "id": tid, "name": tool, "input": args}],
                                                   "stop_reason": "tool_use", "usage": usage},
                     "requestId": f"req_{r.getrandbits(64):016x}", "requestRef": req, "type": "assistant",
                     "uuid": aid, "timestamp": g.ts(), **g.tail()})
        out = g.output(g.output_size())
        failed = r.random() < 0.08
        res = g.uid()
        recs.append({**g.base(aid), "promptId": g.uid(), "type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": tid, "type": "tool_result", "content": out, "is_error": failed}]},
            "uuid": res, "timestamp": g.ts(),
            "toolUseResult": {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
            if not failed else f"Error: {out[:2000]}",
            "sourceToolAssistantUUID": aid, **g.tail()})
        recs.append({"type": "api-request-blob", "sessionId": SESSION, "hash": g.uid().replace("-", "") * 2,
                     "message": {"role": "user", "content": [
                         {"tool_use_id": tid, "type": "tool_result", "content": out[:200_000]}]}})
        parent = res
    mid = f"msg_{r.getrandbits(80):020x}"
    text = "\n\n".join(r.choice(g.prose) for _ in range(r.randint(1, 12)))
    aid = g.uid()
    recs.append({**g.base(parent), "message": {"id": mid, "type": "message", "role": "assistant",
                                               "model": "claude-opus-5-5", "content": [{"type": "text", "text": text}],
                                               "stop_reason": "end_turn",
                                               "usage": {"output_tokens": r.randint(10, 900)}},
                 "requestId": f"req_{r.getrandbits(64):016x}", "type": "assistant", "uuid": aid, "timestamp": g.ts(),
                 **g.tail()})
    recs.append({**g.base(aid), "type": "system", "subtype": "turn_duration", "durationMs": r.randint(900, 400_000),
                 "timestamp": g.ts(), "uuid": g.uid(), **g.tail()})
    recs.append({"type": "file-history-snapshot", "messageId": uid,
                 "snapshot": {"messageId": uid, "trackedFileBackups": {}, "timestamp": g.ts()},
                 "isSnapshotUpdate": False})
    recs.append({"type": "last-prompt", "leafUuid": aid, "sessionId": SESSION})
    return recs, aid


def generate(path: str, size_mb: int, seed: int = 7) -> None:
    """Write a transcript of about ``size_mb`` MB to ``path`` (through a temporary file)."""
    g = _Gen(seed)
    target = size_mb * MB
    tmp = f"{path}.{os.getpid()}.tmp"
    written = 0
    with open(tmp, "w", encoding="utf-8") as fh:
        head = [{"type": "mode", "mode": "normal", "sessionId": SESSION},
                {"type": "permission-mode", "permissionMode": "auto", "sessionId": SESSION}]
        parent, prompt_index = None, 0
        while written < target:
            prompt_index += 1
            recs, parent = _turn(g, parent, prompt_index)
            lines = "".join(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n" for rec in head + recs)
            head = []
            fh.write(lines)
            written += len(lines.encode("utf-8"))
        fh.write(json.dumps({"type": "cost-state", "sessionId": SESSION, "totalCostUsd": 41.7}) + "\n")
    os.replace(tmp, path)


def cached(size_mb: int) -> str:
    """The path of the cached ``size_mb`` MB transcript, generated first when missing."""
    folder = cache_dir()
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"transcript-{size_mb}mb.jsonl")
    if not os.path.exists(path):
        started = time.perf_counter()
        print(f"generating {path} (once) ...", flush=True)
        generate(path, size_mb)
        print(f"  {os.path.getsize(path) / MB:.0f} MB in {time.perf_counter() - started:.0f} s", flush=True)
    return path


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["30"]:
        print(cached(int(arg)))
