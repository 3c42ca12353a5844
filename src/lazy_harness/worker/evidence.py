"""Whether a session used a memory entry: the entry's distinctive content in what the agent did.

An entry's *marks* are what only it is likely to say (:func:`marks_of`): its code spans that look like
a command, a path or a name; its paths and file names; its identifiers (``snake_case``, ``camelCase``,
``dotted.names``, ``--flags``, ``ENV_VARS``); and its rare phrases (four words in a row, at least
three of them long words that are not common ones). A plain word never counts on its own: "python",
"tests" or "config" appear in sessions whatever memory says; nor one that only looks like code in
running text (:func:`plain`: ``GitHub``, ``on/off``, ``Node.js``) or a file every project has
(``pyproject.toml``).

The agent's *acts* (:func:`acts`) are the assistant's text and the input of each tool call (a Bash
command, a file path, an edit), each with its time, less those of a scripted run's turns (a
``claude -p`` or ``codex exec`` run in a session a person later typed in: :func:`read`). An entry was
used when one of its marks appears in an act at or after the time the entry was first shown to that
session (:func:`first_use`): marks match whole (a mark inside a longer name does not count), phrases
ignoring case and spacing. An entry's marks are read in each of its fields alone (its text joined with
:data:`FIELD_BREAK`, :func:`joined`): a phrase that runs from one field into the next says nothing the
entry says.
"""

from __future__ import annotations

import json
import re

from lazy_harness.memory.files import iso_epoch

MIN_MARK = 4
_SPAN = re.compile(r"`([^`\n]{3,200})`")
_PATH = re.compile(r"(?<![\w/.~-])(?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]*[A-Za-z][\w.-]*")
_FILE = re.compile(r"\b[\w-]+\.(?:py|pyi|js|mjs|ts|tsx|jsx|toml|json|jsonl|ya?ml|md|sh|txt|cfg|ini|lock|rs|go|"
                   r"java|kt|c|h|cc|cpp|hpp|rb|php|sql|css|scss|html|xml|env|conf|dockerfile|gradle|swift)\b")
_SNAKE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")
_CAMEL = re.compile(r"\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b")
_DOTTED = re.compile(r"\b[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+\b")
_FLAG = re.compile(r"(?<![\w-])--?[a-z][a-z0-9-]{2,}\b")
_WORD = re.compile(r"[a-z][a-z'-]*")
# words a sentence about anything holds: never part of a rare phrase's count
COMMON = frozenset("""
about above after again against also always another anything because been before being below between
both cannot could does doing done down during each every first from further have having here into itself
just later like made make many more most much must need needs never next none only other over same
should since some still such than that their them then there these they thing this those through under
until using very want was were what when where which while will with within without would your yours
file files code test tests error errors run runs running use used work works change changes check value
values before instead first second line lines name names time times fix fixed issue issues""".split())
GENERIC = frozenset({"e.g", "i.e", "etc", "vs", "a.m", "p.m", "/tmp", "/usr", "/bin", "/dev/null", "and/or",
                     "macos", "ipados", "watchos", "tvos", "visionos"})
# the files nearly every project has: a session opens them whatever memory said (a path to one, such
# as ``backend/pyproject.toml``, is still a mark)
COMMON_FILES = frozenset("""
pyproject.toml setup.py setup.cfg requirements.txt tox.ini pytest.ini conftest.py __init__.py __main__.py
poetry.lock uv.lock pipfile.lock package.json package-lock.json yarn.lock pnpm-lock.yaml tsconfig.json
cargo.toml cargo.lock go.mod go.sum gemfile.lock composer.json readme.md changelog.md contributing.md
docker-compose.yml docker-compose.yaml compose.yml compose.yaml .gitignore .env""".split())
# plain words that look like marks (ADR 0036, "Changed"): a brand written in CamelCase (GitHub,
# TypeScript, PostgreSQL; not an error name: ValueError), one written lowerUpper (iPhone, eBay), a pair
# of words with a slash (on/off, read/write, CI/CD), a capitalised word dotted with js or io (Node.js,
# Socket.io), a one-word host (github.com). Each still counts in a code span, where the entry says it is code.
_BRAND = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+|[A-Z]{2,})|[a-z][A-Z][a-z]+")
_CODE_SUFFIX = re.compile(r".*(?:Error|Exception|Warning|Exit|Interrupt)")
_PAIR = re.compile(r"[A-Za-z]+/[A-Za-z]+")
_DOTTED_BRAND = re.compile(r"[A-Z][a-z]+\.(?:js|io)|[a-z]+\.(?:com|org|net|io|dev)")


# why a break of its own and not a space or a newline: a phrase ran from one field into the next
# ("... as production" + "Surprises at release": 'production surprises at release'), a mark neither field
# has, and an entry said in plain words was measured; a newline is no break (a learning's body wraps its
# sentences over lines). A record separator in an entry's own text only splits it further.
FIELD_BREAK = "\n\x1e\n"


def joined(fields: list[str]) -> str:
    """An entry's fields as the one text :func:`marks_of` reads each of them alone in."""
    return FIELD_BREAK.join(f for f in fields if f)


def _tidy(mark: str) -> str:
    return mark.strip().strip(".,;:()[]{}'\"").strip()


def marks_of(text: str) -> list[str]:
    """The distinctive marks of an entry's text, longest first, each once; of each of its fields alone
    when it was :func:`joined` (none runs from one field into the next)."""
    found: set[str] = set()
    for field_text in text.split(FIELD_BREAK):
        _marks_in(field_text, found)
    return sorted((m for m in found if len(m) >= MIN_MARK and m.lower() not in GENERIC and _not_number(m)
                   and m.lower() not in COMMON_FILES), key=lambda m: (-len(m), m))


def _marks_in(text: str, found: set[str]) -> None:
    """Add to ``found`` the marks of one text, before :func:`marks_of` leaves out the short and generic."""
    for span in _SPAN.findall(text):
        span = " ".join(span.split())
        if " " in span or any(c in span for c in "/._-=:$") or _CAMEL.fullmatch(span):
            found.add(_tidy(span))
    for pattern in (_PATH, _FILE, _SNAKE, _CAMEL, _DOTTED, _FLAG):
        found.update(m for m in (_tidy(m.group(0)) for m in pattern.finditer(text)) if not plain(m))
    found.update(phrases(text))


def plain(mark: str) -> bool:
    """Whether a mark found in running text is a plain word that only looks like one (see ``_BRAND``)."""
    if _BRAND.fullmatch(mark):
        return not _CODE_SUFFIX.fullmatch(mark)
    return bool(_PAIR.fullmatch(mark) or _DOTTED_BRAND.fullmatch(mark))


def _not_number(mark: str) -> bool:
    return any(c.isalpha() for c in mark)


def phrases(text: str) -> list[str]:
    """Four words in a row, at least three of them of six letters or more and not common words."""
    words = _WORD.findall(_SPAN.sub(" ", text.lower()))
    out = []
    for i in range(len(words) - 3):
        four = words[i:i + 4]
        if sum(len(w) >= 6 and w not in COMMON for w in four) >= 3:
            out.append(" ".join(four))
    return out


def found_in(mark: str, act: str, act_words: str) -> bool:
    """Whether ``mark`` is in the act: a phrase among its words, else whole, not inside a longer name."""
    if " " in mark and mark == mark.lower() and all(_WORD.fullmatch(w) for w in mark.split()):
        return f" {mark} " in act_words
    start = act.find(mark)
    while start >= 0:
        end = start + len(mark)
        before = act[start - 1] if start else " "
        after = act[end] if end < len(act) else " "
        # why: a ``-`` then a letter, a digit or ``_`` carries the name on (``--no-cache`` is not in
        # ``--no-cache-dir``, ``--force`` not in ``--force-with-lease``, ``app/boot`` not in
        # ``app/boot-legacy``); a ``-`` then anything else (a space, the end) still ends the mark. The
        # same before it: a letter, a digit or ``_`` then ``-`` started the name earlier (``boot.py`` is
        # not in ``legacy-boot.py``, ``cache-dir`` not in ``--no-cache-dir``)
        joined_after = after == "-" and _wordy(act[end + 1:end + 2])
        joined_before = before == "-" and _wordy(act[start - 2:start - 1] if start >= 2 else "")
        if not _wordy(before) and not _wordy(after) and not joined_after and not joined_before:
            return True
        start = act.find(mark, start + 1)
    return False


def _wordy(char: str) -> bool:
    """Whether ``char`` carries a name on: a letter, a digit or ``_``."""
    return char.isalnum() or char == "_"


def first_use(marks: list[str], acts: list[tuple[float, str, str]], since: float) -> tuple[float, str] | None:
    """(the time, the mark) of the first act at or after ``since`` that holds one of ``marks``."""
    for when, act, act_words in acts:
        if when < since:
            continue
        for mark in marks:
            if found_in(mark, act, act_words):
                return when, mark
    return None


def _strings(value: object, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)


def _codex_act(payload: object) -> str:
    """The same of a Codex rollout's ``response_item``: an assistant message's text or a tool call's
    arguments (worker/rollout.py)."""
    if not isinstance(payload, dict):
        return ""
    parts: list[str] = []
    if payload.get("type") == "message" and payload.get("role") == "assistant":
        content = payload.get("content")
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
    elif payload.get("type") in ("function_call", "custom_tool_call", "local_shell_call"):
        # why action: a local_shell_call's command is there (the reader shows it as a tool call too)
        _strings(payload.get("arguments", payload.get("input", payload.get("action"))), parts)
    return "\n".join(parts)


def act_of(record: dict) -> str:
    """The assistant's text and its tool calls' inputs in one transcript record ('' for any other);
    a Codex rollout's records too."""
    if record.get("type") == "response_item":
        return _codex_act(record.get("payload"))
    if record.get("type") != "assistant" or record.get("isSidechain"):
        return ""
    content = (record.get("message") or {}).get("content") if isinstance(record.get("message"), dict) else None
    parts: list[str] = []
    if isinstance(content, str):
        parts.append(content)
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif block.get("type") == "tool_use":
            _strings(block.get("input"), parts)
    return "\n".join(parts)


def acts(path: str) -> list[tuple[float, str, str]]:
    """(time, text, its words lower-cased and spaced) of every assistant record of a transcript that has
    a time, in file order, less a scripted run's (:func:`read`). Lines too long or not JSON are skipped."""
    return read(path)[0]


def read(path: str) -> tuple[list[tuple[float, str, str]], list[tuple[float, bool]]]:
    """(the acts, the prompts) of a transcript. The prompts: (time, whether scripted) of each prompt
    record, a ``user`` record with ``promptSource`` ``sdk`` (a ``claude -p`` run's) or ``typed``, and
    each Codex ``task_started`` naming its trigger (``exec`` or ``user``). The acts leave out those of a
    scripted run's turns (from its prompt to the next typed one), which the worker does not distil
    (worker/transcript_records.py, worker/rollout.py): ADR 0036, a headless session counts nothing."""
    from lazy_harness.worker.transcript_lines import _open, iter_lines

    out: list[tuple[float, str, str]] = []
    prompts: list[tuple[float, bool]] = []
    scripted = False
    with _open(path) as fh:
        for raw in iter_lines(fh):
            if not raw or not any(k in raw for k in _KEYS):
                continue
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            when = iso_epoch(record.get("timestamp")) if isinstance(record, dict) else None
            if when is None:
                continue
            turn = _prompt_of(record)
            if turn is not None:
                scripted = turn
                prompts.append((when, turn))
                continue
            text = "" if scripted else act_of(record)
            if text:
                out.append((when, text, " " + " ".join(_WORD.findall(text.lower())) + " "))
    return out, prompts


# the bytes a line must hold to be read: an act's, a prompt's (worker/transcript_records.py), a Codex
# turn's start (worker/rollout.py)
_KEYS = (b'"assistant"', b'"function_call"', b'"custom_tool_call"', b'"local_shell_call"', b'"promptSource"',
         b'"task_started"')


def _prompt_of(record: dict) -> bool | None:
    """Whether a prompt record starts a scripted turn (True) or a typed one (False); None for any other."""
    if record.get("type") == "user" and not record.get("isSidechain"):
        source = record.get("promptSource")
        return source == "sdk" if source in ("sdk", "typed") else None
    payload = record.get("payload")
    if record.get("type") == "event_msg" and isinstance(payload, dict) and payload.get("type") == "task_started":
        who = payload.get("turn_attribution")
        trigger = who.get("turn_trigger") if isinstance(who, dict) else None
        return trigger == "exec" if trigger in ("exec", "user") else None
    return None


def for_scripted_run(when: float, prompt: bool, prompts: list[tuple[float, bool]]) -> bool:
    """Whether a showing at ``when`` was made for a scripted run's turn: the prompt it came with (a
    prompt hook's showing: the prompt nearest it in time) or, for a start's, the first prompt at or
    after it, is a scripted one. A showing after the last prompt, or in a transcript with none, is not."""
    if not prompts:
        return False
    if prompt:
        return min(prompts, key=lambda p: abs(p[0] - when))[1]
    return next((scripted for at, scripted in prompts if at >= when), False)
