"""The token of the printed URL signs in once. After a browser has exchanged it for the session cookie,
the same URL (from shell history, a screen share, a browser's history file, a launch page left
behind) signs in no other client: 403 and no cookie. The browser that signed in goes on: its reload
of the token URL carries its cookie and is sent on to the page."""

import os
import threading
from urllib.parse import urlsplit

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.ui.conftest import browser, page_loaded
from tests.ui.test_server import log_in, moves_on_to, page, request


def token_path(server, query=""):
    url = urlsplit(server.url)
    return f"{url.path}?{url.query}{query}"


def test_after_sign_in_the_token_gives_another_client_403_and_no_cookie(server):
    pair, _ = log_in(server)
    status, headers, body = request(server, "GET", token_path(server))
    assert status == 403, body[:300]
    assert "Set-Cookie" not in headers
    assert "lh ui" in body and "Keep the recall index" not in body
    assert request(server, "GET", page(server))[0] == 401  # nor the page without a cookie
    status, _, body = request(server, "GET", page(server), {"Cookie": pair})
    assert status == 200 and "Keep the recall index in SQLite FTS5" in body  # the signed-in browser goes on


def test_the_signed_in_browsers_reload_of_the_token_url_goes_on_to_the_page(server):
    pair, _ = log_in(server)
    status, headers, body = request(server, "GET", token_path(server, "&project=abc"), {"Cookie": pair})
    assert status == 200, body[:300]
    assert moves_on_to(body) == page(server, "/?project=abc")  # the token leaves the address bar again
    assert "Set-Cookie" not in headers  # it has its cookie: the token gives nothing new
    assert request(server, "GET", page(server), {"Cookie": pair})[0] == 200


def test_two_clients_at_once_with_the_token_one_gets_the_cookie(server):
    """Eight requests with the token, sent together: the token is spent by exactly one of them."""
    clients = 8
    start = threading.Barrier(clients)
    answers: list[tuple[int, dict]] = []

    def sign_in() -> None:
        start.wait()
        status, headers, _ = request(server, "GET", token_path(server))
        answers.append((status, headers))

    threads = [threading.Thread(target=sign_in) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for status, _ in answers) == [200] + [403] * (clients - 1)
    assert sum("Set-Cookie" in headers for _, headers in answers) == 1


def test_the_refusal_says_to_run_lh_ui_again_and_links_the_page_for_the_browser_signed_in(server):
    """A browser that signed in may come back without its cookie (SameSite=Strict: a navigation that a
    file:// page started carries none); the refusal links the page, which then sends the cookie."""
    log_in(server)
    status, headers, body = request(server, "GET", token_path(server))
    assert status == 403 and headers["Content-Type"].startswith("text/html")
    assert "run <code>lh ui</code> again" in body
    assert f'<a href="{page(server, "/")}">' in body


@browser
def test_in_the_browser_the_launch_page_goes_and_the_token_url_again_leads_to_the_page(chrome, server):
    from lazy_harness.ui import launch

    path = launch.write(server.url, os.environ)
    server.opener = path  # as lh ui keeps it
    again = None
    try:
        chrome.get("file://" + path)
        WebDriverWait(chrome, 30).until(page_loaded)
        assert not os.path.exists(path)  # the launch page went once the token signed in
        chrome.get(server.url)  # the printed URL once more, in the browser that signed in
        WebDriverWait(chrome, 30).until(page_loaded)
        assert chrome.current_url == server.url.partition("?")[0]
        # a launch page left behind, opened again: a navigation a file:// page started carries no
        # SameSite=Strict cookie, so even this browser is refused, and the refusal's link is the way on
        again = launch.write(server.url, os.environ)
        chrome.get("file://" + again)
        WebDriverWait(chrome, 30).until(lambda c: c.find_elements(By.LINK_TEXT, "Open the page"))
        assert chrome.find_element(By.TAG_NAME, "body").text.startswith("403 Forbidden")
        chrome.find_element(By.LINK_TEXT, "Open the page").click()
        WebDriverWait(chrome, 30).until(page_loaded)
        assert chrome.current_url == server.url.partition("?")[0]
    finally:
        launch.remove(path)
        if again is not None:
            launch.remove(again)
    status, headers, body = request(server, "GET", token_path(server))  # another client, later
    assert status == 403 and "Set-Cookie" not in headers
