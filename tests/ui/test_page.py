"""The page in a real headless Chromium: the sections show the seeded memory, the search gives what
a prompt would get, forget leaves an entry out of the page and out of recall, and the token is
enforced in the browser too. Each test keeps a screenshot (see conftest: where)."""

import os
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from lazy_harness import config
from lazy_harness.memory import journal, marks
from lazy_harness.recall.prompt import explain
from tests.ui.conftest import browser, page_loaded

pytestmark = browser

PROMPT = "why do we keep the recall index in sqlite fts5"


def open_page(chrome, server, query=""):
    chrome.get(server.url + query)
    WebDriverWait(chrome, 30).until(page_loaded)


def section(chrome, anchor):
    return chrome.find_element(By.ID, anchor)


def live_ids(chrome, anchor):
    return [e.get_attribute("data-id") for e in section(chrome, anchor).find_elements(By.CSS_SELECTOR, "li.entry.live")]


def shot(chrome, shots, name):
    path = os.path.join(shots, name + ".png")
    height = chrome.execute_script("return document.body.scrollHeight")
    chrome.set_window_size(1280, min(max(height, 800), 6000))
    assert chrome.save_screenshot(path)
    assert os.path.getsize(path) > 1000


def accept(chrome, question):
    """The page asks before a change: say yes."""
    alert = WebDriverWait(chrome, 30).until(ec.alert_is_present())
    assert alert.text == question
    alert.accept()


def recall_ids(seeded, prompt=PROMPT):
    said = explain.report(prompt, seeded.root, config.load_fast(os.environ), os.environ)
    return [c["id"] for c in said["ranked"] if c["passes"]], said["text"] or ""


def test_the_sections_show_the_seeded_memory(chrome, server, seeded, shots):
    open_page(chrome, server)
    assert chrome.current_url.endswith("/") and server.token not in chrome.current_url  # token now a cookie
    assert "proj" in chrome.find_element(By.CSS_SELECTOR, "h1 .project").text
    handoff = section(chrome, "handoff").text
    assert "wire the release workflow" in handoff and "document the cache layout" in handoff
    reopened = next(li for li in section(chrome, "handoff").find_elements(By.CSS_SELECTOR, "li.entry")
                    if "document the cache layout" in li.text)
    reopened.find_element(By.CSS_SELECTOR, "details.history summary").click()
    assert "done once" in section(chrome, "handoff").text  # the reopened item's close, with its reason
    decisions = section(chrome, "decisions").text
    assert "Keep the recall index in SQLite FTS5" in decisions and "FTS5 ranks with BM25" in decisions
    assert seeded.forgotten not in live_ids(chrome, "decisions")
    assert "1 left out" in decisions
    failures = section(chrome, "failures").text
    assert "Worker crashed on a torn queue file" in failures and "claim by rename" in failures
    learnings = section(chrome, "learnings").text
    assert "Pytest tmp_path beats tempfile" in learnings and "Bash set -euo pipefail everywhere" in learnings
    assert "A private learning of another project" not in learnings
    injected = section(chrome, "injected").text
    assert seeded.session in injected and "prompt too short" in injected
    assert f"{seeded.sqlite} Keep the recall index in SQLite FTS5" in injected  # what the prompt was given, named
    queue = section(chrome, "queue").text
    assert "failed" in queue and "model answer was not JSON" in queue
    bars = section(chrome, "spend").find_elements(By.CSS_SELECTOR, "svg.chart rect.bar")
    assert len(bars) == 14 and float(bars[-1].get_attribute("height")) > 0
    assert "$0.1700" in section(chrome, "spend").text
    assert section(chrome, "runs").find_elements(By.CSS_SELECTOR, "li.run")  # the seeded forget
    shot(chrome, shots, "sections")


def test_the_picker_lists_this_folder_first_and_shows_another_project(chrome, server, seeded, shots):
    from selenium.webdriver.support.ui import Select

    open_page(chrome, server)
    picker = Select(chrome.find_element(By.CSS_SELECTOR, "form.picker select"))
    assert [o.text for o in picker.options] == ["proj (this folder)", "other"]
    picker.select_by_visible_text("other")
    chrome.find_element(By.CSS_SELECTOR, "form.picker button").click()
    WebDriverWait(chrome, 30).until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, "h1 .project"), "other"))
    decisions = section(chrome, "decisions").text
    assert "Decision of the other project" in decisions and "Keep the recall index" not in decisions
    assert "Bash set -euo pipefail everywhere" in section(chrome, "learnings").text  # general: every project
    shot(chrome, shots, "other-project")


def test_light_and_dark_themes_follow_the_system(chrome, server, shots):
    open_page(chrome, server)
    background = "return getComputedStyle(document.body).backgroundColor"
    # why wait: the page's sheet is a file of its own; on a busy machine its rules may not be applied yet
    # when the list is there (seen as a transparent background), so wait for the colour to be set
    unset = "rgba(0, 0, 0, 0)"
    light = WebDriverWait(chrome, 30).until(lambda d: (c := d.execute_script(background)) != unset and c)
    chrome.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    dark = WebDriverWait(chrome, 30).until(lambda d: (c := d.execute_script(background)) != light and c)
    assert light == "rgb(251, 251, 249)" and dark == "rgb(22, 24, 27)"
    shot(chrome, shots, "dark")


def test_markup_in_an_entry_is_shown_as_text_and_never_runs(chrome, server, seeded, shots):
    open_page(chrome, server)
    assert chrome.title.startswith("lh ui:") and chrome.title != "owned"
    item = section(chrome, "decisions").find_element(By.CSS_SELECTOR, f'li[data-id="{seeded.evil}"]')
    assert '<script>document.title="owned"</script>' in item.text
    assert not item.find_elements(By.TAG_NAME, "script") and not item.find_elements(By.TAG_NAME, "img")
    shot(chrome, shots, "markup-as-text")


def started_ids(seeded) -> frozenset[str]:
    """What SessionStart's digest shows a new session of the seeded project (its first prompt repeats none)."""
    from lazy_harness.recall.readback import digest, prepared

    text, stats = digest.digest(seeded.root, config.load_fast(os.environ), os.environ, time.time(), "startup")
    return frozenset(i for ids in prepared.printed_ids(stats).values() for i in ids) if text else frozenset()


def test_the_search_gives_what_a_prompt_gets(chrome, server, seeded, shots):
    assert recall_ids(seeded)[0][0] == seeded.sqlite  # the decision passes the bar
    started = started_ids(seeded)
    said = explain.report(PROMPT, seeded.root, config.load_fast(os.environ), os.environ, started=started)
    given = [c["id"] for c in said["ranked"] if c["passes"] and not c.get("left")]  # what the text holds
    text = said["text"] or f"This prompt receives nothing: {said['none']}."
    open_page(chrome, server)
    box = section(chrome, "search").find_element(By.CSS_SELECTOR, "input[type=search]")
    box.send_keys(PROMPT)
    box.submit()
    WebDriverWait(chrome, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, "#search pre.injected")))
    search = section(chrome, "search")
    rows = search.find_elements(By.CSS_SELECTOR, "table.ranked tr.pass")
    assert [r.get_attribute("data-id") for r in rows] == given
    assert search.find_element(By.CSS_SELECTOR, "pre.injected").text == text.strip()
    # the start already shows the decision, so the first prompt does not get it again: the row says so
    assert seeded.sqlite in started
    row = search.find_element(By.CSS_SELECTOR, f'table.ranked tr[data-id="{seeded.sqlite}"]')
    assert row.find_element(By.CSS_SELECTOR, "td").text == "shown"
    assert "bar:" in search.find_element(By.CSS_SELECTOR, "p.why").text
    shot(chrome, shots, "search")


def test_forget_leaves_the_entry_out_of_the_page_and_of_recall(chrome, server, seeded, shots):
    assert seeded.sqlite in recall_ids(seeded)[0]
    open_page(chrome, server)
    item = section(chrome, "decisions").find_element(By.CSS_SELECTOR, f'li[data-id="{seeded.sqlite}"]')
    item.find_element(By.CSS_SELECTOR, "form.act button").click()
    accept(chrome, "Forget this entry?")
    WebDriverWait(chrome, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, "p.flash")))
    flash = chrome.find_element(By.CSS_SELECTOR, "p.flash").text
    assert flash.startswith(f"forgot {seeded.sqlite} (undo: lh memory undo ")
    assert seeded.sqlite not in live_ids(chrome, "decisions")
    assert seeded.sqlite not in recall_ids(seeded)[0]  # the same function the prompt hook calls
    assert marks.hidden(seeded.mdir)[seeded.sqlite]["op"] == "forget"
    assert journal.runs(seeded.mdir)[0]["kind"] == "forget"  # journalled as the CLI's
    shot(chrome, shots, "forgotten")
    # and undo puts it back, from the page
    run = journal.runs(seeded.mdir)[0]["run"]
    section(chrome, "runs").find_element(By.CSS_SELECTOR, f'li[data-run="{run}"] form.act button').click()
    accept(chrome, "Undo this run?")
    WebDriverWait(chrome, 30).until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, "p.flash"), f"undid {run}"))
    assert seeded.sqlite in live_ids(chrome, "decisions")
    assert seeded.sqlite in recall_ids(seeded)[0]


def test_close_a_handoff_item_from_the_page(chrome, server, seeded, shots):
    from lazy_harness.memory import handoff

    open_page(chrome, server)
    item = next(li for li in section(chrome, "handoff").find_elements(By.CSS_SELECTOR, "li.entry")
                if "wire the release workflow" in li.text)
    hid = item.get_attribute("data-id")
    item.find_element(By.CSS_SELECTOR, "form.act button").click()  # Close comes first
    accept(chrome, "Close this item?")
    WebDriverWait(chrome, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, "p.flash")))
    assert chrome.find_element(By.CSS_SELECTOR, "p.flash").text.startswith(f"closed {hid}: wire the release workflow")
    assert hid not in live_ids(chrome, "handoff")
    state, _ = handoff.load(seeded.mdir)
    assert not state[hid].is_open and state[hid]["reason"] == "closed in lh ui"
    shot(chrome, shots, "closed")


def test_the_browser_without_the_token_gets_nothing(chrome, server, shots):
    base = server.url.partition("?")[0]
    chrome.get(base)
    body = chrome.find_element(By.TAG_NAME, "body").text
    assert body.startswith("401 Unauthorized") and "Decisions" not in body
    chrome.get(base + "?token=not-the-token")
    assert chrome.find_element(By.TAG_NAME, "body").text.startswith("401")
    chrome.get(f"http://127.0.0.1:{server.port}/?token={server.token}")  # the token without the secret path
    assert chrome.find_element(By.TAG_NAME, "body").text.startswith("404")
    shot(chrome, shots, "no-token")


def test_another_server_on_127_0_0_1_never_gets_the_pages_cookie(chrome, server, shots):
    """Browsers keep cookies apart by host, not by port: once the page is open, the browser must not
    send its cookie to a dev server, a notebook or another user's service on 127.0.0.1."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen: list[str] = []

    class Other(BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(f"{self.path} {self.headers.get('Cookie', '')}")
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"another server")

        def log_message(self, format, *args):
            pass

    other = ThreadingHTTPServer(("127.0.0.1", 0), Other)
    thread = threading.Thread(target=other.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        open_page(chrome, server)
        assert chrome.get_cookies()  # the page's own cookie is there
        for path in ("/", "/api/kernels", "/static/ui.css", "/action/forget"):
            chrome.get(f"http://127.0.0.1:{other.server_address[1]}{path}")
            assert chrome.find_element(By.TAG_NAME, "body").text == "another server"
    finally:
        other.shutdown()
        other.server_close()
        thread.join()
    asked = {line.split(" ", 1)[0] for line in seen}
    assert {"/", "/api/kernels", "/static/ui.css", "/action/forget"} <= asked
    assert not any("lh_ui_" in line for line in seen), seen
    shot(chrome, shots, "another-server")


def test_the_file_lh_ui_opens_leads_the_browser_to_the_page(chrome, server, shots):
    """``lh ui`` gives the browser a file of ours, not the URL (a command line is public): the file
    sends the browser on to the page."""
    from lazy_harness.ui import launch

    path = launch.write(server.url, os.environ)
    try:
        chrome.get("file://" + path)
        WebDriverWait(chrome, 30).until(ec.presence_of_element_located((By.ID, "runs")))
        assert chrome.current_url == server.url.partition("?")[0]  # the token left the address bar
    finally:
        launch.remove(path)
    assert not os.path.exists(path)
    shot(chrome, shots, "opened-from-file")
