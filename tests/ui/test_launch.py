"""The file ``lh ui`` gives the browser instead of the URL: a browser's command line is readable by
every user of the machine (``ps``), a file of ours in a private folder is not."""

import os
import stat

from lazy_harness import paths
from lazy_harness.ui import launch

URL = "http://127.0.0.1:41733/" + "p" * 43 + "/?token=" + "t" * 43


def test_the_file_is_private_and_sends_the_browser_to_the_url():
    path = launch.write(URL, os.environ)
    try:
        assert path.startswith(paths.cache_dir() + os.sep)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
        assert stat.S_IMODE(os.stat(paths.cache_dir()).st_mode) & 0o022 == 0
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        assert f'<meta http-equiv="refresh" content="0; url={URL}">' in text
        assert f'<a href="{URL}">' in text
        assert launch.file_url(path) == "file://" + path and "t" * 43 not in launch.file_url(path)
    finally:
        launch.remove(path)
    assert not os.path.exists(path) and not os.path.exists(os.path.dirname(path))


def test_two_servers_get_two_files_and_removing_one_leaves_the_other():
    first, second = launch.write(URL, os.environ), launch.write(URL.replace("41733", "41734"), os.environ)
    try:
        assert first != second and os.path.dirname(first) != os.path.dirname(second)
        launch.remove(first)
        assert os.path.exists(second)
        launch.remove(first)  # twice: nothing to do, no error
    finally:
        launch.remove(second)


def test_a_cache_folder_others_can_write_is_refused(tmp_path):
    """A cache folder others can write (made in a shared place) is not used: they could swap the file."""
    import pytest

    from lazy_harness.errors import LhError

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    os.makedirs(paths.cache_dir(env))
    os.chmod(paths.cache_dir(env), 0o777)
    with pytest.raises(LhError, match="open to group or others") as caught:
        launch.write(URL, env)
    assert caught.value.hint == f"chmod 700 {paths.cache_dir(env)}"
    assert os.listdir(paths.cache_dir(env)) == []
