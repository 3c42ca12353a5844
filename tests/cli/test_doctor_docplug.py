"""lh doctor on a plugin install after its first session start and before any worker ran: the hooks'
bundle is not written yet, which is no fault (the first session's worker writes it); once written, a
module that changed afterwards still warns."""

import marshal
import os

from lazy_harness import hotload, paths
from tests.cli.test_doctor_plugin import PLUGIN, doctor
from tests.support import claude_plugin


def _started_once() -> None:
    """What the plugin's first SessionStart leaves: its welcome marker."""
    marker = paths.plugin_welcome_file()
    os.makedirs(os.path.dirname(marker), exist_ok=True)
    open(marker, "w").close()


def test_after_the_first_start_a_missing_bundle_is_still_only_info(tmp_path, monkeypatch):
    claude_plugin.install()
    _started_once()
    assert not os.path.exists(hotload.bundle_file())

    code, found = doctor(tmp_path, monkeypatch)

    assert found["hook modules"] == (f"info  hook modules: {hotload.bundle_file()} not written yet: the first "
                                     f"session's worker writes it (the plugin {PLUGIN} registers the hooks)")
    assert code == 0, found


def test_a_module_changed_after_the_bundle_was_written_still_warns(tmp_path, monkeypatch):
    claude_plugin.install()
    _started_once()
    hotload.build()
    _, found = doctor(tmp_path, monkeypatch)
    assert found["hook modules"].startswith("ok    hook modules: loaded from ")
    where = hotload.bundle_file()
    with open(where, "rb") as fh:
        data = fh.read()
    start = len(hotload.MAGIC) + 4
    size = int.from_bytes(data[len(hotload.MAGIC):start], "little")
    header = marshal.loads(data[start:start + size])
    name = sorted(header["modules"])[0]
    rel, mtime_ns, *rest = header["modules"][name]
    header["modules"][name] = (rel, mtime_ns - 1, *rest)  # its source is newer than what was bundled
    changed = marshal.dumps(header)
    with open(where, "wb") as fh:
        fh.write(hotload.MAGIC + len(changed).to_bytes(4, "little") + changed + data[start + size:])

    _, found = doctor(tmp_path, monkeypatch)

    line = found["hook modules"]
    assert line.startswith(f"warn  hook modules: 1 changed since {where} was written"), line
    assert line.endswith("(hint: the next session's worker writes it again)")
