"""The folders of the machine's key and alias records (``$XDG_STATE_HOME/lazy-harness/keys`` and
``aliases``) are judged as every folder of ours is: one another user could write is named by ``lh
doctor`` and stops the worker before it takes a task (the task waits, nothing fails), and a command
refused there says which folder and why."""

import os

from lazy_harness import paths, private
from lazy_harness.cli import os_error_line


def test_a_records_folder_others_may_write_is_named_by_the_checks(tmp_path):
    keys = os.path.join(paths.machine_state_dir(), "keys")
    os.makedirs(keys, mode=0o700)
    os.chmod(paths.machine_state_dir(), 0o700)
    os.chmod(keys, 0o775)
    found = private.unsafe()
    assert [path for _, path, _ in found] == [keys], found
    assert private.first_problem() is not None and keys in private.first_problem()
    os.chmod(keys, 0o700)
    aliases = os.path.join(paths.machine_state_dir(), "aliases")
    os.symlink(str(tmp_path), aliases)
    assert [path for _, path, _ in private.unsafe()] == [aliases]


def test_a_refused_records_folder_reads_as_one_line_naming_it(tmp_path):
    folder = os.path.join(paths.machine_state_dir(), "aliases")
    os.makedirs(folder, mode=0o700)
    os.chmod(folder, 0o777)
    try:
        private.make(folder)
    except private.UnsafeFolder as exc:
        line = os_error_line(exc)
    assert folder in line and "UnsafeFolder" not in line
