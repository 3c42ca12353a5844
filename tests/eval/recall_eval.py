"""Prompt recall, measured: recall@5 and noise through the real UserPromptSubmit hook, against a
count-ranked grep baseline in the same run.

    python -m tests.eval.recall_eval [--set tests.eval.recall_set] [--part dev|held-out] [--verbose]
                                     [--prompts FILE ...] [--sweep] [--semantic] [--filler FILE
                                     [--filler-entries N] [--filler-inside]]

Builds the set's memory in a temporary HOME (the store's file formats), then runs the hook as Claude
Code does (a subprocess, JSON on stdin, a new session id per prompt) for every prompt, a few at a
time; a hook run that logs an error stops the evaluation.

  recall@5  share of labelled prompts where an expected entry is among the first 5 injected
  noise     share of prompts with no relevant memory that got any injection at all
  grep      each entry in the hook's scope scores the number of distinct prompt words (3+ letters)
            found in its text; the 5 best with a score above 0 are its answer
  overlap   how many content words a labelled prompt shares with its expected entry's own text (its
            tags and cues left out; words of 3+ letters outside a short English stopword list,
            compared on their first 5 letters, so ``deploying`` and ``deployment`` count as one);
            the set is meant to ask in other words

Two parts are reported apart and together: the development prompts (``recall_set.PROMPTS``) and the
held-out ones (``recall_heldout.PROMPTS``), not looked at while changing the method.

  --prompts FILE  one more part: a Python file (kept outside the repository, say) defining
                  ``PROMPTS = [(project, prompt, [expected keys]), ...]`` over the set's ENTRIES,
                  reported under the file's stem and counted in ``all``; repeatable. Checked before
                  anything runs: a missing file, no PROMPTS, a project not in PROJECTS, a key that is
                  no entry's, or an entry the project does not see (its own, and learnings with scope
                  "general") is one line naming the file and the prompt's index, and exit 2.
  --sweep         recall@5 and noise per part for every bar: ``min_terms`` 1, 2, 3 by ``min_score``
                  1.5 to 3.2, the default marked, grep once. Each bar is written to a config.toml in the
                  temporary HOME and every prompt goes through the hook again; the memory and its
                  index (a cache the bar does not change) are built once.
  --semantic      the similarity bar (ADR 0020, 0025: the static model shipped with lazy-harness)
                  instead of the word bar: every entry is embedded before the first prompt, as the
                  worker does when it writes them. With ``--sweep``: ``min_similarity`` 0.36 to 0.46.
                  Without ``--semantic`` the similarity bar is off (``semantic = false``).
  --filler FILE   a bigger memory: ``--filler-entries`` (default 17,500) more decisions made of the
                  texts in FILE (one per line; of a tab-separated line, its last field; lines under 6
                  words skipped), each text used once: summary, rationale and two cues. By default
                  they go to other projects, ``FILLER_PER_PROJECT`` each, which the prompts' projects
                  never see: only the index grows. With ``--filler-inside`` they are split evenly over
                  the set's projects, each seeing its share; the texts are unlabelled, so a filler
                  entry a no-memory prompt gets counts as noise, whether or not it would help.
"""

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from lazy_harness import config, paths
from lazy_harness.memory import files, ids
from lazy_harness.recall.resident import client as resident_client

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.eval import prompt_files  # noqa: E402
from tests.support import memory_samples as ms  # noqa: E402

ID = re.compile(r"\b([dflh]-[0-9a-f]{8})\b")
MISS = re.compile(r" session=eval-(?P<tag>[^-\s]+)-(?P<n>\d+) ")  # a hooks.log line of an asked prompt
# why: the evaluation's own list, independent of the method's stopwords, so the overlap measure does
# not move when the method changes
ENGLISH = frozenset("""
the and for are but not you all any can had her was one our out has him his how its may new now old see
two who did get let put say she too use way why with that this from they will would there their what
when which were been have into than then them these those some such only also just more most very about
after before over under again once here where while other each both same own should could does doing
done your yours we i me my it is in on at to of a an or be by do if no so up as
every another around during between want wants keep keeps need needs gets got
""".split())
DAY = 86400.0
DEFAULT_BAR = (config.SCHEMA["recall"]["min_terms"][1], config.SCHEMA["recall"]["min_score"][1])
BARS = [(t, s) for t in (1, 2, 3) for s in (1.5, 1.75, 2.0, 2.2, 2.4, 2.6, 2.8, 3.2)]  # the --sweep grid
SEMANTIC = "semantic"  # a bar: the defaults with the embedder on
SIMILARITIES = [0.36, 0.38, 0.40, 0.41, 0.42, 0.44, 0.46]  # the --sweep --semantic grid (min_similarity)
DEFAULT_SIMILARITY = config.SCHEMA["recall"].get("min_similarity", (None, 0.41))[1]
FILLER_PER_PROJECT = 500
FILLER_MIN_WORDS = 6


class FillerError(ValueError):
    """A filler file that cannot give the entries asked for."""


def load_filler(path: str, entries: int) -> list[str]:
    """Four texts per filler entry from ``path``, shuffled the same way every time."""
    import random

    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            texts = [t for t in (line.rstrip("\n").split("\t")[-1].strip() for line in fh)
                     if len(t.split()) >= FILLER_MIN_WORDS]
    except OSError as exc:
        raise FillerError(f"{path}: cannot read: {exc.strerror}") from None
    if len(texts) < 4 * entries:
        raise FillerError(f"{path}: {len(texts)} lines of {FILLER_MIN_WORDS}+ words, {4 * entries} needed "
                          f"for {entries} filler entries")
    random.Random(7).shuffle(texts)
    return texts[:4 * entries]


def add_filler(root: str, env: dict, dirs: dict[str, str], texts: list[str], inside: bool,
               now: float) -> dict[str, str]:
    """Write ``len(texts) // 4`` filler decisions: into each of ``dirs`` (``inside``), or into new
    projects of ``FILLER_PER_PROJECT`` each. Returns {project: folder} of the new projects."""
    made = [ms.decision(now - 300 * DAY + n, texts[4 * n][:200], texts[4 * n + 1][:300],
                        cues=[texts[4 * n + 2][:80], texts[4 * n + 3][:80]]) for n in range(len(texts) // 4)]
    extra: dict[str, str] = {}
    if inside:
        targets = list(dirs.items())
        chunks = [made[k * len(made) // len(targets):(k + 1) * len(made) // len(targets)] for k in range(len(targets))]
    else:
        chunks = [made[k:k + FILLER_PER_PROJECT] for k in range(0, len(made), FILLER_PER_PROJECT)]
        targets = []
        for k in range(len(chunks)):
            name = f"filler-{k:03d}"
            extra[name] = ms.make_project(root, name)
            targets.append((name, extra[name]))
    for (project, folder), recs in zip(targets, chunks, strict=True):
        ms.write_jsonl(os.path.join(paths.memory_dir(folder, env), files.DECISIONS),
                       [{**r, "project": project} for r in recs])
    return extra


def entry_id(e: dict) -> str:
    if e["kind"] in ("decision", "failure"):
        return ids.entry_id(e["kind"], e["summary"])
    if e["kind"] == "learning":
        return ids.learning_id(e["origin"], e["title"])
    return ids.handoff_id(e["text"])


def _cues(e: dict) -> dict:
    """The entry's cues as a keyword argument of the sample writers, when it has any."""
    return {"cues": e["cues"]} if e.get("cues") else {}


def build(root: str, env: dict, entries: list[dict], projects, now: float) -> dict[str, str]:
    """Write the memory of every project and the learnings; returns {project: its folder}."""
    dirs = {p: ms.make_project(root, p) for p in projects}
    ldir = paths.learnings_dir(None, env)
    jsonl: dict[tuple, list] = {}
    handoffs: dict[str, list] = {}
    for n, e in enumerate(entries):
        t = now - 200 * DAY + n * 3600
        if e["kind"] == "decision":
            rec = ms.decision(t, e["summary"], e["rationale"], project=e["project"], context=e["context"],
                              alternatives=e["alternatives"], tags=e["tags"], **_cues(e))
            jsonl.setdefault((e["project"], files.DECISIONS), []).append(rec)
        elif e["kind"] == "failure":
            rec = ms.failure(t, e["summary"], e["prevention"], project=e["project"], root_cause=e["root_cause"],
                             resolution=e["resolution"], tags=e["tags"], **_cues(e))
            jsonl.setdefault((e["project"], files.FAILURES), []).append(rec)
        elif e["kind"] == "learning":
            # why: as the worker writes a learning now, with its project's memory key (ADR 0024): a
            # project-only learning is shown in that project only, found by the key
            folder = os.path.basename(paths.memory_dir(dirs[e["origin"]], env)) if e["origin"] in dirs else None
            # why: a general learning reaches another project once the person approved it (ADR 0032): the
            # set measures what recall finds among what a project may see, so the person has approved them
            approved = {"deprecated_reason": "approved by hand"} if e["scope"] != "project" else {}
            ms.write_learning(ldir, e["title"], e["origin"], t, learning=e["learning"], scope=e["scope"],
                              tags=e["tags"], slug=f"{e['key']}", project_folder=folder, **_cues(e), **approved)
        else:
            handoffs.setdefault(e["project"], []).append(e["text"])
    for (project, name), recs in jsonl.items():
        ms.write_jsonl(os.path.join(paths.memory_dir(dirs[project], env), name), recs)
    for project, items in handoffs.items():
        ms.write_handoff(paths.memory_dir(dirs[project], env), items, "sess-eval", now - 3600, project=project)
    return dirs


class Injected(list):
    """The ids the hook injected for a prompt, in order; ``chars``: the length of the text that carried them."""
    chars = 0


def hook(prompt: str, cwd: str, env: dict, sid: str) -> list[str]:
    """The ids the hook injected for ``prompt``, in order (an :class:`Injected`)."""
    payload = {"session_id": sid, "transcript_path": os.path.join(cwd, "t.jsonl"), "cwd": cwd,
               "hook_event_name": "UserPromptSubmit", "permission_mode": "default", "prompt": prompt}
    p = subprocess.run([sys.executable, "-m", "lazy_harness.hooks", "UserPromptSubmit"],
                       input=json.dumps(payload).encode(), capture_output=True, env=env, timeout=60)
    if p.returncode != 0 or p.stderr.strip():
        raise RuntimeError(f"hook failed: {p.returncode} {p.stderr.decode()[-500:]}")
    if not p.stdout.strip():
        return Injected()
    text = json.loads(p.stdout)["hookSpecificOutput"]["additionalContext"]
    got = Injected(dict.fromkeys(ID.findall(text)))
    got.chars = len(text)
    return got


def _grep_text(e: dict) -> str:
    return " ".join(str(v) for k, v in e.items() if k not in ("key", "kind", "project", "origin", "scope")).lower()


def _written_text(e: dict) -> str:
    """The entry's own text, without the words written to find it (tags, cues)."""
    return _grep_text({k: v for k, v in e.items() if k not in ("tags", "cues")})


def grep(prompt: str, project: str, entries: list[dict]) -> list[str]:
    words = {w for w in re.findall(r"[a-z0-9]+", prompt.lower()) if len(w) >= 3}
    scored = []
    for n, e in enumerate(entries):
        if prompt_files.visible(e, project):
            text = _grep_text(e)
            score = sum(1 for w in words if w in text)
            if score:
                scored.append((-score, n, entry_id(e)))
    scored.sort()
    return [i for _, _, i in scored[:5]]


def content_words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 3 and w not in ENGLISH}


def overlap(prompt: str, e: dict) -> int:
    """Content words the prompt shares with the entry (see the module's docstring)."""
    return len(content_words(prompt) & content_words(_written_text(e)))


def overlap_report(entries: list[dict], prompts) -> dict:
    """For labelled prompts: the share whose overlap with their best-sharing expected entry is at
    most 1, and the mean overlap."""
    by_key = {e["key"]: e for e in entries}
    counts = [max(overlap(p, by_key[k]) for k in keys) for _, p, keys in prompts if keys]
    n = max(1, len(counts))
    return {"at_most_1": sum(c <= 1 for c in counts) / n, "mean": sum(counts) / n, "labelled": len(counts)}


def parts(set_module: str, only: str | None = None, extra: list[tuple[str, list]] = ()) -> list[tuple[str, list]]:
    """[(name, prompts)]: the development prompts and, for the default set, the held-out ones
    (``only`` keeps one of them), then the ``extra`` parts (prompt files, always kept)."""
    data = importlib.import_module(set_module)
    out = [("dev", list(data.PROMPTS))]
    held = getattr(data, "HELDOUT", None)
    if held:
        out.append(("held-out", list(importlib.import_module(held).PROMPTS)))
    return [p for p in out if only in (None, p[0])] + list(extra)


def _score(res: dict) -> None:
    for r in res.values():
        r["recall_at_5"] = r["hits"] / max(1, r["labelled"])
        r["noise_rate"] = r["noise"] / max(1, r["empty"])


def _blank() -> dict:
    return {"hook": {"hits": 0, "labelled": 0, "noise": 0, "empty": 0, "injected": 0, "chars": 0},
            "grep": {"hits": 0, "labelled": 0, "noise": 0, "empty": 0}}


def write_bar(root: str, bar) -> str:
    """A config.toml that sets the bar; returns its path. ``(min_terms, min_score)``: the word bar,
    the embedder off; a float: the embedder's ``min_similarity``; None: the defaults, the embedder
    off (see :func:`measure`); ``"semantic"``: the defaults, the embedder on."""
    # why: one file per setting, not one file rewritten: the hook's config snapshot is keyed by the
    # file's path, mtime and size, and ``min_score = 4.0`` and ``= 5.0`` have the same size
    if bar is None or bar == SEMANTIC:
        name, body = str(bar), f"semantic = {'true' if bar else 'false'}\n"
    elif isinstance(bar, float):
        name, body = f"similarity{bar}", f"semantic = true\nmin_similarity = {bar}\n"
    else:
        name, body = f"terms{bar[0]}-score{bar[1]}", f"semantic = false\nmin_terms = {bar[0]}\nmin_score = {bar[1]}\n"
    path = os.path.join(root, "home", ".config", "lazy-harness", "bars", f"{name}.toml")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[recall]\n" + body)
    return path


def index_all(dirs: dict[str, str], env: dict) -> None:
    """Index and embed every project's memory before the first prompt, as ``lh memory reindex``
    does (the hooks only read the index). Every entry has its vector, as after the worker wrote it."""
    from lazy_harness.recall.index import writer

    mdirs = [paths.memory_dir(d, env) for d in dirs.values()]
    done = writer.update(paths.recall_index_file(env), mdirs, paths.learnings_dir(None, env))
    if done is None:
        raise RuntimeError("the evaluation's index is being built by another process")


RE_ASKS = 3  # rounds of asking again the prompts the answerer missed (a loaded machine)


def _ask_all(asks: list[tuple[str, str]], env: dict, tag: str, jobs: int) -> list[list[str]]:
    """The hook's answer to each (prompt, cwd), in order; a new session per prompt. A prompt answered
    without the resident answerer while one runs (no answer in time on a loaded machine, then the
    hook's back-off) is asked again, one at a time: the evaluation measures what recall finds, not
    how busy the machine was (one slow answer once made every later prompt go without similarity)."""
    if not asks:
        return []
    answers: list[list[str]] = [[] for _ in asks]
    todo = list(range(len(asks)))
    for round_ in range(RE_ASKS + 1):
        with ThreadPoolExecutor(max_workers=jobs if round_ == 0 else 1) as pool:  # the index is complete
            got = list(pool.map(lambda n: hook(asks[n][0], asks[n][1], env, f"eval-{tag}-{n:04d}"), todo))
        for n, answer in zip(todo, got, strict=True):
            answers[n] = answer
        missed = _logged_misses(env, tag)
        todo = [n for n in todo if n in missed]
        if not todo:
            break
        try:
            os.remove(os.path.join(resident_client.folder(env), resident_client.BACKOFF_NAME))
        except OSError:
            pass
    return answers


def _logged_misses(env: dict, tag: str) -> set[int]:
    """The prompts (by number) whose hook ran without the answerer that serves it; raises on a hook
    error (the hook exits 0 on one and logs it: an error here is no answer). The log is emptied."""
    log = os.path.join(paths.logs_dir(env), "hooks.log")
    missed: set[int] = set()
    for name in (log + ".1", log):
        try:
            with open(name, encoding="utf-8", errors="replace") as fh:
                lines = fh.readlines()
            os.remove(name)
        except FileNotFoundError:
            continue
        bad = [line for line in lines if " error " in line]
        if bad:
            raise RuntimeError(f"hook failed: {bad[0].strip()[-500:]}")
        for line in lines:
            found = MISS.search(line)
            if found and found["tag"] == tag and ("no answer in time" in line or "backing off" in line):
                missed.add(int(found["n"]))
    return missed


def measure(set_module: str, bars: list, base_env: dict | None = None, only: str | None = None,
            extra: list[tuple[str, list]] = (), verbose: bool = False, jobs: int | None = None,
            filler: tuple[list[str], bool] | None = None) -> dict:
    """{bar: result} for each bar, written to a config.toml (:func:`write_bar`): ``(min_terms,
    min_score)``, a ``min_similarity``, None (the defaults without the embedder) or
    :data:`SEMANTIC` (the defaults with it). When a bar uses the embedder, it is started and warmed
    up once, before the first prompt, and stopped at the end. The memory and its index are built once
    and shared: the bar
    does not change them. A result is {"hook", "grep", "parts": {name: {"hook", "grep", "overlap"}},
    "overlap", "entries", "prompts"}. ``filler``: (texts, inside), see :func:`add_filler`."""
    data = importlib.import_module(set_module)
    entries = data.ENTRIES
    key_id = {e["key"]: entry_id(e) for e in entries}
    id_key = {v: k for k, v in key_id.items()}
    todo = parts(set_module, only, extra)
    flat = [(part, project, prompt, expected) for part, prompts in todo for project, prompt, expected in prompts]
    jobs = jobs or os.cpu_count() or 1
    out = {}
    with tempfile.TemporaryDirectory(prefix="lh-eval-") as root:
        env = {k: v for k, v in (base_env or os.environ).items()
               if k not in ("CLAUDE_CONFIG_DIR", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                            "LH_WORKER_CALL", "CLAUDE_PROJECT_DIR")}
        env["HOME"] = os.path.join(root, "home")
        os.makedirs(env["HOME"])
        now = time.time()
        dirs = build(root, env, entries, data.PROJECTS, now)
        fill = add_filler(root, env, dirs, filler[0], filler[1], now) if filler else {}
        index_all({**dirs, **fill}, env)
        baseline = [grep(prompt, project, entries) for _, project, prompt, _ in flat]
        for b, bar in enumerate(bars):
            benv = dict(env, LH_CONFIG=write_bar(root, bar))
            got = _ask_all([(prompt, dirs[project]) for _, project, prompt, _ in flat], benv, f"{b:02d}", jobs)
            out[bar] = _judge(flat, todo, entries, key_id, id_key, baseline, got, verbose, filler)
            out[bar]["judged"] = judged_noise(set_module, flat, got, id_key)
    return out


def judged_noise(set_module: str, flat, got, id_key) -> dict | None:
    """The no-memory prompts as the blind judge of ``judged_no_memory`` saw them, when it judged this
    set (its cued twin shares the judgement): ``useful`` prompts where it found an entry a developer
    would want, of which ``given`` got one (its key among the hook's answers); ``clean`` prompts where it
    found none, of which ``noisy`` got anything; ``wanted``: of all the entries injected for no-memory
    prompts, how many the judge found useful. None when the set was not judged."""
    try:
        from tests.eval.judged_no_memory import JUDGED
    except ImportError:
        return None
    judged = JUDGED.get(set_module.removesuffix("_cued"))
    if judged is None:
        return None
    r = {"useful": 0, "given": 0, "clean": 0, "noisy": 0, "injected": 0, "wanted": 0}
    for (_, project, prompt, expected), answer in zip(flat, got, strict=True):
        if expected:
            continue
        useful = set(judged[project, prompt])  # why a KeyError: a no-memory prompt the judge did not see
        keys = {id_key.get(i, i) for i in answer}
        r["injected"] += len(keys)
        r["wanted"] += len(keys & useful)
        if useful:
            r["useful"] += 1
            r["given"] += bool(keys & useful)
        else:
            r["clean"] += 1
            r["noisy"] += bool(keys)
    return r


def _judge(flat, todo, entries, key_id, id_key, baseline, got, verbose, filler) -> dict:
    """One bar's result from the hook's answers ``got`` (see :func:`measure`)."""
    res, by_part = _blank(), {part: _blank() for part, _ in todo}
    for (part, project, prompt, expected), answer, base in zip(flat, got, baseline, strict=True):
        want = {key_id[k] for k in expected}
        for name, ids_ in (("hook", answer[:5]), ("grep", base)):
            for r in (res[name], by_part[part][name]):
                if want:
                    r["labelled"] += 1
                    r["hits"] += bool(want & set(ids_))
                else:
                    r["empty"] += 1
                    r["noise"] += bool(ids_)
        for r in (res["hook"], by_part[part]["hook"]):
            r["injected"] += len(answer)
            r["chars"] += getattr(answer, "chars", 0)
        if verbose and ((want and not want & set(answer[:5])) or (not want and answer)):
            print(f"MISS [{part}] {project}: {prompt!r} want {sorted(expected)} "
                  f"got {[id_key.get(i, i) for i in answer]}")
    _score(res)
    for part, prompts in todo:
        _score(by_part[part])
        by_part[part]["overlap"] = overlap_report(entries, prompts)
    res["parts"] = by_part
    res["overlap"] = overlap_report(entries, [p for _, ps in todo for p in ps])
    res["entries"], res["prompts"] = len(entries), len(flat)
    res["filler"] = len(filler[0]) // 4 if filler else 0
    return res


def evaluate(set_module: str = "tests.eval.recall_set", verbose: bool = False, base_env: dict | None = None,
             only: str | None = None, extra: list[tuple[str, list]] = (),
             filler: tuple[list[str], bool] | None = None, semantic: bool = False) -> dict:
    """{"hook": ..., "grep": ..., "parts": {name: {"hook", "grep", "overlap"}}, ...}: the whole set
    and each part, with the default bar: the word bar, or with ``semantic`` the embedder's."""
    bar = SEMANTIC if semantic else None
    return measure(set_module, [bar], base_env, only, extra, verbose, filler=filler)[bar]


def sweep(set_module: str = "tests.eval.recall_set", base_env: dict | None = None, only: str | None = None,
          extra: list[tuple[str, list]] = (), bars: list | None = None,
          filler: tuple[list[str], bool] | None = None, semantic: bool = False) -> dict:
    """{bar: result} over ``bars`` (default: :data:`BARS`, or with ``semantic`` the
    :data:`SIMILARITIES`), each through the hook."""
    return measure(set_module, list(bars or (SIMILARITIES if semantic else BARS)), base_env, only, extra, filler=filler)


def _rate(r: dict) -> str:
    return f"{r['recall_at_5']:.3f} {r['noise']:>3}/{r['empty']:<3}"


def print_sweep(results: dict) -> None:
    first = next(iter(results.values()))
    names = [*first["parts"], "all"]
    width = max(13, *(len(n) for n in names))
    print("recall@5 and noise (prompts with no relevant memory that got anything) per bar; * the default")
    print((f"{'min_terms':>9} {'min_score':>12}  " + "  ".join(f"{n:<{width}}" for n in names)).rstrip())
    for bar, res in results.items():
        mark = "*" if bar in (DEFAULT_BAR, DEFAULT_SIMILARITY) else " "
        cells = [_rate(res["parts"][n]["hook"]) for n in first["parts"]] + [_rate(res["hook"])]
        left = f"{'similarity':>8} {bar:>12}" if isinstance(bar, float) else f"{bar[0]:>8} {bar[1]:>12}"
        print((f"{mark}{left}  " + "  ".join(f"{c:<{width}}" for c in cells)).rstrip())
    cells = [_rate(first["parts"][n]["grep"]) for n in first["parts"]] + [_rate(first["grep"])]
    print((f"{'grep':>22}  " + "  ".join(f"{c:<{width}}" for c in cells)).rstrip())


def print_result(res: dict) -> None:
    for part, r_part in [*res["parts"].items(), ("all", res)]:
        ov = r_part["overlap"]
        print(f"[{part}] overlap with the expected entry <= 1 content word: {ov['at_most_1']:.0%} of "
              f"{ov['labelled']} labelled prompts (mean {ov['mean']:.2f})")
        for name in ("hook", "grep"):
            r = r_part[name]
            print(f"  {name:<5} recall@5 {r['recall_at_5']:.3f} ({r['hits']}/{r['labelled']})   "
                  f"noise {r['noise_rate']:.3f} ({r['noise']}/{r['empty']})")
    print(f"hook injected {res['hook']['injected']} entries in all, {res['hook']['chars']:,} characters "
          "(goal: recall@5 >= 0.85, noise <= 1/6)")
    j = res.get("judged")
    if j:
        print(f"blind judge (judged_no_memory.py): {j['useful']} of the {j['useful'] + j['clean']} no-memory "
              f"prompts have an entry a developer would want ({j['given']} got one); noise on the other {j['clean']}: "
              f"{j['noisy']}/{j['clean']}; {j['wanted']} of the {j['injected']} entries injected for no-memory "
              "prompts judged useful")


def main(argv: list[str] | None = None) -> int:
    os.umask(0o022)  # why: the sample writers' folders follow the umask; see tests/conftest.py
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default="tests.eval.recall_set", help="module holding ENTRIES, PROMPTS, PROJECTS")
    parser.add_argument("--verbose", action="store_true", help="print every miss and every noisy prompt")
    parser.add_argument("--part", choices=("dev", "held-out"),
                        help="run one of the set's parts only (default: both; --prompts files always run)")
    parser.add_argument("--prompts", action="append", default=[], metavar="FILE",
                        help="a Python file defining PROMPTS over the set's ENTRIES: one more part, named "
                             "after the file; repeatable")
    parser.add_argument("--sweep", action="store_true",
                        help="recall@5 and noise for every bar (min_terms x min_score), through the hook")
    parser.add_argument("--semantic", action="store_true",
                        help="the similarity bar (the static model): every entry embedded before the first prompt "
                             "first; with --sweep, every min_similarity of the grid")
    parser.add_argument("--filler", metavar="FILE",
                        help="texts (one per line) for unlabelled filler decisions: the same prompts on a"
                             " bigger memory")
    parser.add_argument("--filler-entries", type=int, default=17_500, metavar="N",
                        help="how many filler decisions (default 17,500)")
    parser.add_argument("--filler-inside", action="store_true",
                        help="put the filler into the set's own projects instead of other projects")
    opts = parser.parse_args(argv)
    if opts.filler_entries < 1:
        parser.error("--filler-entries must be at least 1")
    if opts.sweep and opts.verbose:
        parser.error("--verbose prints the misses of one bar; run it without --sweep")
    try:
        extra = prompt_files.load_all(opts.prompts, importlib.import_module(opts.set))
        filler = (load_filler(opts.filler, opts.filler_entries), opts.filler_inside) if opts.filler else None
    except (prompt_files.PromptFileError, FillerError) as exc:
        print(f"recall_eval: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    if opts.sweep:
        results = sweep(opts.set, only=opts.part, extra=extra, filler=filler, semantic=opts.semantic)
        res = next(iter(results.values()))
    else:
        res = evaluate(opts.set, opts.verbose, only=opts.part, extra=extra, filler=filler, semantic=opts.semantic)
    where = " in the set's projects" if opts.filler_inside else " in other projects"
    more = f" + {res['filler']} filler decisions{where}" if res["filler"] else ""
    print(f"{res['entries']} entries{more}, {res['prompts']} prompts ({res['hook']['labelled']} labelled, "
          f"{res['hook']['empty']} with no relevant memory), {time.perf_counter() - started:.1f} s")
    if opts.sweep:
        print_sweep(results)
    else:
        print_result(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
