"""The static embedding table the prompt hook reads (ADR 0025): its tokenizer against the source
model's, its vectors, the SHA-256 check of its files and the stamp that spares the hash."""

import os
import shutil
import subprocess
import sys

import pytest

from lazy_harness.errors import StaticModelError
from lazy_harness.recall.embed import static_model
from lazy_harness.recall.embed.static_model import StaticModel


def similarity(a: bytes, b: bytes) -> float:
    """The cosine of two vectors (0.0 when either is all zero or they differ in size)."""
    if len(a) != len(b):
        return 0.0
    va, vb = memoryview(a).cast("b"), memoryview(b).cast("b")
    aa, bb = sum(x * x for x in va), sum(x * x for x in vb)
    return sum(x * y for x, y in zip(va, vb, strict=True)) / (aa * bb) ** 0.5 if aa and bb else 0.0

TESTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests folder

SAMPLES = [
    "Hello, world! The checkout page returns a 500 when the webhook arrives first.",
    "Naïve café résumé: accents are stripped — as the source tokenizer does.",
    "東京 and 北京 are split per character; ÀÉÎÕÜ lose their marks.",
    "test_case foo.bar() x+=1 {'a': [1, 2]} $HOME ~/.claude/settings.json <tag> a|b `code`",
    "unbelievablyness antidisestablishmentarianism " + "x" * 120,
    "tabs\tand\nnewlines\rand\x0bcontrols\x00\x7f\ufffd end",
    "Straße ΣΊΣΥΦΟΣ İstanbul ﬁle № ½ € © ™ …",
    "non\u00a0breaking\u2003spaces and zero\u200bwidth",
    "typed special tokens [CLS] and [SEP]x[MASK][UNK] stay whole, [cls] and [ CLS] do not",
    "",
    "   ",
]


@pytest.fixture(scope="module")
def model():
    return StaticModel()


def recorded() -> list[tuple[str, list[int]]]:
    """Texts with the ids the source tokenizer gave them (tests/eval/record_wordpiece_ids.py)."""
    import json

    path = os.path.join(TESTS, "fixtures", "wordpiece_ids.json")
    with open(path, encoding="utf-8") as fh:
        return [(t, ids) for t, ids in json.load(fh)]


def real_text() -> list[str]:
    """A few thousand lines of real prose: this repository's docs and the evaluation's entries."""
    from tests.eval import recall_eval, recall_set_cued

    root = os.path.dirname(TESTS)
    lines = []
    for here, _, files in os.walk(os.path.join(root, "docs")):
        for f in sorted(files):
            if f.endswith(".md"):
                with open(os.path.join(here, f), encoding="utf-8") as fh:
                    lines += [ln for ln in fh.read().splitlines() if ln.strip()]
    lines += [recall_eval._grep_text(e) for e in recall_set_cued.ENTRIES]
    for e in recall_set_cued.ENTRIES:
        lines += e.get("cues") or []
    return lines


def test_token_ids_are_the_source_tokenizers(model):
    pairs = recorded()
    assert {t for t, _ in pairs} >= set(SAMPLES) and len(pairs) > 500
    differ = [t for t, ids in pairs if model.ids(t) != ids]
    assert differ == []


def test_vectors_are_compact_unit_and_related_texts_are_closer(model):
    a = model.embed("checkout returns a 500 error when the payment webhook arrives before the order exists")
    b = model.embed("stripe sends webhook events out of order, so create the order first")
    c = model.embed("how long should I knead bread dough")
    assert isinstance(a, bytes) and len(a) == model.dims
    assert max(abs(x) for x in memoryview(a).cast("b")) == 127
    assert similarity(a, a) == pytest.approx(1.0, abs=1e-9)
    assert similarity(a, b) > similarity(a, c) + 0.2
    assert similarity(a, b) == pytest.approx(similarity(b, a))


def test_a_text_without_tokens_is_a_zero_vector_similar_to_nothing(model):
    empty = model.embed("   ")
    assert empty == bytes(model.dims)
    assert similarity(empty, model.embed("anything")) == 0.0
    assert similarity(b"\x01\x02", model.embed("anything")) == 0.0


def test_model_id_names_the_table():
    assert static_model.PINS["table.bin"][:16] in static_model.MODEL_ID


def _copy(tmp_path) -> str:
    folder = tmp_path / "model"
    shutil.copytree(static_model.MODEL_DIR, folder)
    return str(folder)


@pytest.mark.parametrize("name", ["table.bin", "vocab.bin"])
def test_a_changed_byte_is_refused_with_one_line_naming_the_file(tmp_path, name):
    folder = _copy(tmp_path)
    path = os.path.join(folder, name)
    with open(path, "r+b") as fh:
        fh.seek(os.path.getsize(path) // 2)
        byte = fh.read(1)
        fh.seek(-1, os.SEEK_CUR)
        fh.write(bytes([byte[0] ^ 0x01]))
    with pytest.raises(StaticModelError) as err:
        StaticModel(folder, str(tmp_path / "state"))
    message = str(err.value)
    assert message.startswith(f"{path}: SHA-256 ") and "not the pinned" in message and "\n" not in message


def test_a_missing_file_is_refused_naming_it(tmp_path):
    folder = _copy(tmp_path)
    os.remove(os.path.join(folder, "vocab.bin"))
    with pytest.raises(StaticModelError, match=r"vocab\.bin: missing"):
        StaticModel(folder)


def test_the_stamp_spares_the_hash_until_the_file_changes(tmp_path, monkeypatch):
    folder, state = _copy(tmp_path), str(tmp_path / "state")
    StaticModel(folder, state)
    stamp = os.path.join(state, static_model.STAMP)
    with open(stamp, encoding="utf-8") as fh:
        assert fh.read().count("\n") == 2
    hashed = []
    real = static_model._hash_fd
    monkeypatch.setattr(static_model, "_hash_fd", lambda fd: hashed.append(fd) or real(fd))
    StaticModel(folder, state)
    assert hashed == []
    # rewritten in place with a changed byte and its old mtime: the change time differs, so it is hashed
    path = os.path.join(folder, "table.bin")
    st = os.stat(path)
    with open(path, "r+b") as fh:
        fh.seek(st.st_size - 1)
        last = fh.read(1)
        fh.seek(-1, os.SEEK_CUR)
        fh.write(bytes([last[0] ^ 0x01]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    with pytest.raises(StaticModelError, match="SHA-256"):
        StaticModel(folder, state)
    assert len(hashed) == 1


def test_a_forged_or_odd_stamp_costs_a_hash_and_nothing_more(tmp_path, monkeypatch):
    folder, state = _copy(tmp_path), tmp_path / "state"
    want = StaticModel(folder, str(tmp_path / "clean")).embed("still works")
    hashed = []
    real = static_model._hash_fd
    monkeypatch.setattr(static_model, "_hash_fd", lambda fd: hashed.append(fd) or real(fd))
    state.mkdir()
    (state / static_model.STAMP).write_text("garbage\n" * 10000)
    assert StaticModel(folder, str(state)).embed("still works") == want
    assert len(hashed) == 2  # each of the two files hashed once, as with no stamp at all
    assert StaticModel(folder, str(state)).embed("still works") == want
    assert len(hashed) == 2  # the garbage was replaced by a good stamp: the next load hashes nothing
    (state / static_model.STAMP).unlink()
    os.mkfifo(state / static_model.STAMP)  # would block a plain open
    assert StaticModel(folder, str(state)).embed("still works") == want
    assert len(hashed) == 4


def test_the_hook_path_imports_only_cheap_modules(tmp_path):
    src = os.path.dirname(os.path.dirname(os.path.dirname(static_model.__file__)))  # src/lazy_harness
    code = (f"import sys; sys.path.insert(0, {os.path.dirname(src)!r}); "
            "from lazy_harness.recall.embed import static_model as m; "
            f"m.load(state_dir={str(tmp_path / 'state')!r}).embed('an ascii prompt about the checkout'); "
            f"m.load(state_dir={str(tmp_path / 'state')!r}).embed('an ascii prompt about the checkout'); "
            "print(' '.join(sorted(sys.modules)))")
    first = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, check=True)
    banned = {"numpy", "unicodedata", "json", "hashlib", "logging", "pathlib", "typing", "sqlite3", "dataclasses",
              "struct", "lazy_harness.errors"}
    assert "hashlib" in first.stdout.split()  # the first load checks the files
    assert banned.isdisjoint(again.stdout.split())  # the stamped load does not hash


def test_every_model_file_is_package_data():
    import tomllib

    root = os.path.dirname(TESTS)
    with open(os.path.join(root, "pyproject.toml"), "rb") as fh:
        shipped = tomllib.load(fh)["tool"]["setuptools"]["package-data"]["lazy_harness.recall.embed"]
    assert sorted(shipped) == sorted(f"model/{name}" for name in os.listdir(static_model.MODEL_DIR))


def test_packed_embedding_gives_the_same_bytes_and_stays_bounded(monkeypatch):
    """``embed_many`` (rows packed once, kept by a long-lived process) is ``embed``, byte for byte,
    also when its cache of packed rows starts over because it grew past its bound."""
    fresh = StaticModel()
    texts = [t for t, _ in recorded()][:40] + ["", "   ", "über-naïve café résumé", "x" * 300]
    assert not fresh.warm()
    monkeypatch.setattr(static_model, "PACKED_ROWS", 25)
    packed = fresh.embed_many(texts)
    assert fresh.warm() and len(fresh._packed) <= 25 + max(len(fresh.ids(t)) for t in texts)
    assert packed == [fresh.embed(t) for t in texts]


def test_loading_for_another_state_folder_maps_the_files_once(tmp_path, monkeypatch):
    """A process that loads the model for several state folders (two profiles, or a test suite giving
    each test its own) holds one mapping of each file: kept per state folder, every load held two more
    descriptors for the life of the process, and a suite's worker ran past 1,024 of them."""
    monkeypatch.setattr(static_model, "_loaded", {})

    folder = os.path.realpath(static_model.MODEL_DIR) + os.sep  # why real: the descriptors name real paths

    def held() -> int:
        fds = os.listdir("/proc/self/fd")
        return sum(1 for fd in fds if os.path.realpath(f"/proc/self/fd/{fd}").startswith(folder))

    before = held()  # other tests' models may still be mapped
    first = static_model.load(state_dir=str(tmp_path / "one"))
    mapped = held()
    assert mapped == before + 2  # table.bin and vocab.bin, each kept open by its mapping
    for name in ("two", "three", "four"):
        assert static_model.load(state_dir=str(tmp_path / name)) is first
    assert held() == mapped
    assert os.path.exists(tmp_path / "one")  # the first folder got the stamps of the files it hashed
