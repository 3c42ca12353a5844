"""A settings.json saved with a UTF-8 byte order mark was refused with Python's words, "Unexpected
UTF-8 BOM (decode using utf-8-sig)", which tells the person nothing they can do. The refusal says
what the mark is and how to save the file, and the file is still left untouched."""

import pytest

from lazy_harness import settings_read
from lazy_harness.errors import SettingsError


def test_bom_is_named_in_words(tmp_path):
    path = tmp_path / "settings.json"
    raw = b'\xef\xbb\xbf{"model": "opus"}'
    path.write_bytes(raw)
    with pytest.raises(SettingsError) as err:
        settings_read.read(str(path))
    message = err.value.message
    assert "\n" not in message and str(path) in message
    assert "byte order mark" in message and "without a BOM" in message
    assert "utf-8-sig" not in message and "left untouched" in message
    assert path.read_bytes() == raw
