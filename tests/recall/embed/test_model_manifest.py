"""The static model's MANIFEST.json (ADR 0025, 0043): its hashes are the files' own, the ones the
module pins agree, and it names the upstream model, its revision (or says honestly that it is not
known) and the exact source files with the SHA-256 the builder checks them against."""

import hashlib
import json
import os

from lazy_harness.recall.embed import static_model
from tests.eval import build_static_model as builder

MODEL = os.path.join(os.path.dirname(static_model.__file__), "model")


def manifest() -> dict:
    with open(os.path.join(MODEL, "MANIFEST.json"), encoding="utf-8") as fh:
        return json.load(fh)


def sha256(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def test_every_file_of_the_folder_has_its_hash_in_the_manifest_and_it_is_the_files_own():
    files = manifest()["files"]
    assert set(files) == set(os.listdir(MODEL)) - {"MANIFEST.json", "__pycache__"}
    assert {name: sha256(os.path.join(MODEL, name)) for name in files} == files


def test_the_pins_the_hook_checks_are_the_manifests():
    files = manifest()["files"]
    assert {name: files[name] for name in ("table.bin", "vocab.bin")} == static_model.PINS


def test_the_source_names_the_upstream_model_its_revision_and_the_exact_files_used():
    source = manifest()["source"]
    assert source["model"] == builder.SOURCE_NAME == "sentence-transformers/all-MiniLM-L6-v2"
    assert source["revision"] is None or source["revision"].strip()
    if source["revision"] is None:  # not known: the manifest says why, never a guess
        assert source["revision_note"].startswith("not known")
    assert source["file_sha256"] == builder.ONNX_SHA256 and "model.onnx" in source["file"]
    assert source["tokenizer_sha256"] == builder.TOKENIZER_SHA256 and "tokenizer.json" in source["tokenizer"]
