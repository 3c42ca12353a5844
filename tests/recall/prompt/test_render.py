"""recall/prompt/rank.py's text: each item one line that keeps its code spans closed, within
``recall.max_chars`` as Claude Code counts it (UTF-16 units, as the SessionStart digest does)."""

from lazy_harness.recall.prompt import rank
from lazy_harness.recall.readback import digest

URL = "https://docs.payments-gateway.example.com/guides/rotating-webhook-signing-secrets-without-downtime"


def _item(n: int, title: str, detail: str) -> dict:
    return {"kind": "decision", "id": f"d-{n:08x}", "file": "/m/decisions.jsonl", "line": n,
            "ts": "2026-04-13T10:00:00", "origin": "shop", "title": title, "detail": detail}


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_an_item_cut_inside_a_code_span_closes_it():
    command = "curl -fsSL " + URL + " | sh -s -- " + " ".join(f"--topic orders-{n}" for n in range(20))
    long = _item(1, "Kafka integration tests need the broker helper " + "x" * 100, f"fetch it with {command}")
    short = _item(2, "Secret rotation is announced in the ops channel", "ops follows https://wiki.example.com/ops")
    whole, _ = rank.render([long], "/m", "/k/learnings", 4000)
    head, line = whole.rsplit("\n", 1)
    inside = len(head) + 1 + line.index("`") + 30  # a budget whose room ends inside the span
    for budget in (4000, inside):  # cut by the item's cap, then by the room the budget leaves
        text, kept = rank.render([long, short], "/m", "/k/learnings", budget)
        assert text is not None and kept and _units(text) <= budget
        items = [ln for ln in text.splitlines() if ln.startswith("- ")]
        assert items[0].endswith("…"), items[0]
        assert all(ln.count("`") % 2 == 0 for ln in items), items


def test_a_cut_ends_at_a_word_boundary():
    words = " ".join(f"word{i}" for i in range(40))  # under the detail's own cap: the line's cap cuts
    text, _ = rank.render([_item(1, "Title " + "t" * 180, words)], "/m", None, 4000)
    line = text.splitlines()[-1]
    assert line.endswith("…") and line[:-1].rsplit(" ", 1)[1].startswith("word")
    last = line[:-1].rsplit(" ", 1)[1].rstrip(".")
    assert f" {last} " in words + " ", last  # a whole word, not a piece of one


def test_the_budget_counts_an_emoji_twice_as_claude_code_does():
    rocket = "\U0001f680"
    items = [_item(n, f"{topic} problem: " + rocket * 180, rocket * 200)
             for n, topic in enumerate(("kafka rebalance", "redis failover", "nginx timeout", "terraform lock"))]
    text, kept = rank.render(items, "/m", "/k/learnings", 1500)
    assert text is not None and len(kept) >= 2
    assert _units(text) <= 1500, (_units(text), len(text))
    for ln in text.splitlines()[2:]:
        assert "\ud83d" not in ln  # never half of an emoji
        assert ln.count("`") % 2 == 0


def test_prompt_recall_and_the_digest_count_alike():
    for text in ("plain", "caf\u00e9", "\U0001f680 launch", "\U0001f680" * 3 + "\u00e9"):
        assert rank.units(text) == digest.units(text) == _units(text)


def _learning(n: int, title: str) -> dict:
    return {"kind": "learning", "id": f"l-{n:08x}", "file": f"/k/learnings/2026-04/2026-04-13-note-{n}.md",
            "line": 0, "ts": "2026-04-13T10:00:00", "origin": "shop", "title": title, "detail": "Detail."}


def test_the_header_names_only_the_folders_its_lines_point_into():
    decision = _item(1, "Checkout creates the order after the commit", "Webhooks may come first.")
    learning = _learning(2, "Stripe sends webhook events out of order")
    cases = {"decision": [decision], "learning": [learning], "both": [decision, learning]}
    heads = {name: rank.render(items, "/m", "/k/learnings", 4000)[0].splitlines()[1] for name, items in cases.items()}
    assert "files in /m" in heads["decision"] and "learnings/ in" not in heads["decision"]
    assert "learnings/ in /k" in heads["learning"] and "files in" not in heads["learning"]
    assert "files in /m" in heads["both"] and "learnings/ in /k" in heads["both"]
    # an open item is in the memory folder too
    item = {**_item(3, "Finish the refund export", ""), "kind": "handoff", "file": "/m/handoff.md"}
    head = rank.render([item], "/m", "/k/learnings", 4000)[0].splitlines()[1]
    assert "files in /m" in head and "learnings/ in" not in head


def test_a_shorter_header_never_lets_an_answer_past_its_budget():
    learnings = [_learning(n, f"Learning number {n} about the webhook retries " + "w" * 150) for n in range(6)]
    whole = rank.render(learnings, "/m" * 40, "/k/learnings", 10_000)[0]
    for budget in range(300, _units(whole) + 1, 37):
        text, kept = rank.render(learnings, "/m" * 40, "/k/learnings", budget)
        assert text is None or _units(text) <= budget
        assert text is None or len([ln for ln in text.splitlines() if ln.startswith("- ")]) == len(kept)
