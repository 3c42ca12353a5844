"""A settings.json that is a hard link (a dotfiles tool that links files by inode, not by symlink). Install
writes a new file and renames it over the old name, which would give that name a new inode: the copy in
the dotfiles repository would keep the old bytes without a word, and every later edit, Claude Code's
own too, would miss it. So a file with more than one name is refused, both names left as they were."""

import json
import os

from lazy_harness import settings
from tests.cli.lhrun import invoke

PERSONS = '{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls:*)"]}\n}\n'


def linked(isolated_home):
    """~/.claude/settings.json as a hard link of the copy in ~/dotfiles; returns both names."""
    kept = isolated_home / "dotfiles" / "claude" / "settings.json"
    kept.parent.mkdir(parents=True)
    kept.write_text(PERSONS)
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    os.link(kept, target)
    return kept, target


def test_install_refuses_a_hard_linked_settings_file_and_leaves_both_names(isolated_home):
    kept, target = linked(isolated_home)
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 1
    [line] = r.err.strip().splitlines()
    assert line == (f"lh: {target}: has 2 names (hard links, such as a copy in a dotfiles repository): a write "
                    "would replace this name only, and the other would keep the old settings; left untouched "
                    "(hint: when the other name is the copy you keep (dotfiles), make this one a symbolic link to "
                    "it, which lh writes through; when it is a backup made with hard links, give this name a file "
                    f"of its own: cp -p {target} {target}.new && mv {target}.new {target}; then run lh hooks "
                    "install again)")
    assert kept.read_text() == PERSONS and os.path.samefile(kept, target) and target.stat().st_nlink == 2
    assert sorted(os.listdir(target.parent)) == ["settings.json"]  # no backup made for a refused write


def test_uninstall_refuses_it_too(isolated_home):
    kept, target = linked(isolated_home)
    os.unlink(target)
    target.write_text(PERSONS)
    settings.install(str(target))  # installed before the file was linked into the dotfiles
    os.unlink(kept)
    os.link(target, kept)
    installed = target.read_bytes()
    r = invoke("hooks", "uninstall")
    assert r.code == 1 and "has 2 names (hard links" in r.err and "run lh hooks uninstall again" in r.err
    assert target.read_bytes() == installed and os.path.samefile(kept, target)


def test_a_hard_linked_file_that_already_holds_our_hooks_is_just_already_installed(isolated_home):
    kept, target = linked(isolated_home)
    os.unlink(target)
    target.write_text(PERSONS)
    settings.install(str(target))
    os.unlink(kept)
    os.link(target, kept)
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0 and "already installed" in r.out
    assert os.path.samefile(kept, target) and json.loads(kept.read_text())["hooks"]
