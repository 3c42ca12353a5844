"""~/.claude/settings.json as a link to a file another user owns: what Home Manager makes (a link into
the Nix store, owned by root, read-only), or a dotfiles tool run as root. "run lh hooks install as its
owner" sent the person to sudo, which cannot write the store either; the file is made elsewhere, and
that is where the hooks go (or the link becomes a copy of their own). Both files are left as they were."""

import os

import pytest

from lazy_harness import settings_write
from tests.cli.lhrun import invoke

OTHER_UID = 1000 if os.geteuid() != 1000 else 1001
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
PERSONS = '{\n  "model": "opus"\n}\n'
HOLDING = ('{\n  "model": "opus",\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "lh-hook Stop"}]}]}'
           '\n}\n')


@as_root
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_a_link_to_a_file_of_another_user_names_the_link_and_where_to_add_the_hooks(isolated_home, tmp_path,
                                                                                    command):
    store = tmp_path / "nix" / "store" / "0f3a-home-manager-files" / ".claude" / "settings.json"
    store.parent.mkdir(parents=True)
    store.write_text(HOLDING if command == "uninstall" else PERSONS)
    before = store.read_text()
    os.chown(store, OTHER_UID, OTHER_UID)
    os.chmod(store, 0o444)
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    target.symlink_to(store)
    r = invoke("hooks", command, *(["--write-settings"] if command == "install" else []))
    assert r.code == 1
    [line] = r.err.strip().splitlines()
    assert line.startswith(f"lh: {target}: a link to {store}, which is owned by {settings_write._owner(OTHER_UID)}, "
                           "not by root (uid 0): that file is made elsewhere (Home Manager, a dotfiles tool); left "
                           "untouched "
                           "(hint: add the hooks where it is made (docs/how/hooks.md), or replace the link with "
                           f"a copy of your own: cp --remove-destination {store} {target}; then run lh hooks "
                           f"{command} again)"), line
    assert "as its owner" not in line
    assert target.is_symlink() and store.read_text() == before
    assert sorted(os.listdir(target.parent)) == ["settings.json"]  # no backup either
