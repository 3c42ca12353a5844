"""The static model's builder (tests/eval/build_static_model.py) writes where the package reads and pins
the module that checks the files: a rebuild by the documented command lands in the shipped folder and
updates the pinned SHA-256, rather than failing on a path the package no longer has."""

import hashlib
import os
import re
import shutil

from lazy_harness.recall.embed import static_model
from tests.eval import build_static_model


def test_the_builder_writes_the_folder_the_package_reads():
    """The same places inside the package, whether it runs from the source tree or an install."""
    import lazy_harness

    installed = os.path.dirname(os.path.abspath(lazy_harness.__file__))
    source = os.path.join(build_static_model.REPO, "src", "lazy_harness")
    assert os.path.isdir(build_static_model.MODEL_DIR) and os.path.isfile(build_static_model.MODULE)
    assert os.path.relpath(build_static_model.MODEL_DIR, source) == os.path.relpath(static_model.MODEL_DIR, installed)
    assert os.path.relpath(build_static_model.MODULE, source) == os.path.relpath(static_model.__file__, installed)


def test_pin_writes_the_new_files_digests_into_the_module(tmp_path):
    module = tmp_path / "static_model.py"
    shutil.copy(build_static_model.MODULE, module)
    stale = re.sub(r'("table\.bin": ")[0-9a-f]{64}"', r'\g<1>' + "0" * 64 + '"', module.read_text(encoding="utf-8"))
    module.write_text(stale, encoding="utf-8")
    build_static_model.pin(static_model.MODEL_DIR, str(module))
    text = module.read_text(encoding="utf-8")
    for name in ("table.bin", "vocab.bin"):
        with open(os.path.join(static_model.MODEL_DIR, name), "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
        assert f'"{name}": "{digest}"' in text
        assert static_model.PINS[name] == digest
