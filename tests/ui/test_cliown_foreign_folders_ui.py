"""The page of ``lh ui`` neither reads nor writes a folder of ours another user may write (ADR 0031):
the server does not start, and a folder that changes hands while the page is open stops the page and
its actions (the memory and the index left as they were)."""

import os
from urllib.parse import urlencode

import pytest

from lazy_harness import paths, private
from lazy_harness.errors import LhError
from lazy_harness.memory import marks
from lazy_harness.ui.server import UiServer
from tests.ui.test_server import cookie, page, request, server_key


def stamp(path: str) -> tuple[int, int] | None:
    return (os.stat(path).st_size, os.stat(path).st_mtime_ns) if os.path.exists(path) else None


def test_the_server_does_not_start_on_a_folder_of_another_user(seeded, monkeypatch):
    data = paths.data_dir()
    real = private.problem
    monkeypatch.setattr(private, "problem", lambda path, strict=False, uid=None: real(
        path, strict, os.geteuid() + 1 if path == data else uid))
    with pytest.raises(LhError) as got:
        UiServer(0, seeded.root, os.environ)
    assert data in str(got.value) and private.fix(data, real(data, uid=os.geteuid() + 1)) in str(got.value)


@pytest.mark.parametrize("what", ["data", "cache"])
def test_a_folder_opened_to_others_while_the_page_is_open_stops_page_and_actions(server, seeded, what):
    folder = paths.data_dir() if what == "data" else paths.cache_dir()
    os.makedirs(folder, mode=0o700, exist_ok=True)
    before = sorted(os.listdir(folder))
    index = paths.recall_index_file()
    index_stat = stamp(index)
    os.chmod(folder, 0o777)
    try:
        status, _, body = request(server, "GET", page(server), cookie(server))
        assert status == 503 and folder in body and "Keep the recall index" not in body
        form = urlencode({"project": server_key(server, seeded), "id": seeded.sqlite, "token": server.form_token})
        status, _, body = request(server, "POST", page(server, "/action/forget"), cookie(server), body=form)
        assert status == 503 and folder in body
    finally:
        os.chmod(folder, 0o700)
    assert seeded.sqlite not in marks.hidden(seeded.mdir)
    assert sorted(os.listdir(folder)) == before
    assert stamp(index) == index_stat
