from lazy_harness.worker import conversation as c


def test_excerpt_caps_and_says_how_much_was_cut():
    assert c.excerpt("  short  ", 100) == "short"
    out = c.excerpt("x " * 5_000, 100)
    assert out == "x " * 49 + "x [... 9900 more characters]"


def test_a_cut_never_shows_the_start_of_a_token():
    """A secret cut short passes the rule that needs its whole length (``ghp_`` + 36): the run of
    token characters the cut ends in is dropped, and a tool call's input is redacted before it is cut."""
    token = "ghp_" + "R4nd0mT0k3nV4lu3Xy12AbCdEfGhIjKlMnOp"
    out = c.excerpt("x " * 40 + "echo " + token + " | gh auth login", 100)
    assert "ghp_" not in out and out.startswith("x " * 40 + "echo [... ")
    command = "cd /repo && " * 16 + "echo " + token + " | gh auth login --with-token"
    call = c.tool_call({"name": "exec_command", "input": {"command": command}})
    assert "R4nd0m" not in call and ("[REDACTED:github-token]" in call or "ghp_" not in call), call


def test_excerpt_cleans_escapes_and_flattens():
    assert c.excerpt("\x1b[2mdim\x1b[22m\x00 text\nnext", 100) == "dim text\nnext"
    assert c.excerpt("a\n\n  b\tc", 100, flat=True) == "a b c"


def test_excerpt_of_a_huge_string_only_cleans_its_head():
    huge = "\x1b[1m" * 2_000_000
    out = c.excerpt(huge, 50)
    assert out.endswith(f"[... {len(huge) - 50} more characters]") and "\x1b" not in out
    assert len(out) < 100


def test_tool_call_picks_the_telling_input():
    assert c.tool_call({"name": "Bash", "input": {"command": "git  status\n--short", "description": "d"}}) \
        == "[tool Bash: git status --short]"
    assert c.tool_call({"name": "Write", "input": {"file_path": "/a/b.py", "content": "x" * 10**6}}) \
        == "[tool Write: /a/b.py]"
    other = c.tool_call({"name": "TodoWrite", "input": {"todos": [1, 2], "n": 3}})
    assert other == "[tool TodoWrite: todos=list n=3]"
    assert c.tool_call({"name": "X"}) == "[tool X]"
    assert c.tool_call({"input": "junk"}) == "[tool ?]"
    long = c.tool_call({"name": "Bash", "input": {"command": "echo " + "y" * 5000}})
    assert len(long) < c.TOOL_CALL_CAP + 60


def test_text_of_shapes():
    assert c.text_of("plain") == "plain"
    assert c.text_of([{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]) == "a\nb"
    assert c.text_of([{"type": "tool_result", "content": "out"}]) == ""
    assert c.text_of(None) == "" and c.text_of(5) == ""


def test_summary_body_drops_the_cli_wrapping():
    text = ("This session is being continued from a previous conversation that ran out of context. The summary "
            "below covers the earlier portion of the conversation.\n\n<system-reminder>\nx\n</system-reminder>\n"
            "Summary:\n1. Chose Postgres.\n\nIf you need specific details from before compaction, read...\n"
            "Continue the conversation from where it left off without asking the user any further questions.")
    assert c.summary_body(text).strip() == "Summary:\n1. Chose Postgres."
    assert c.summary_body("unknown format summary") == "unknown format summary"


def test_budget_without_overflow_keeps_everything_in_order():
    b = c.Budget(10_000)
    for i in range(50):
        b.add(f"entry {i}")
    assert b.text().splitlines() == [f"entry {i}" for i in range(50)]
    assert b.elided == 0 and b.count == 50


def test_budget_overflow_keeps_head_third_and_tail():
    b = c.Budget(3000)
    for i in range(1000):
        b.add(f"entry {i:04d} " + "z" * 40)
    text = b.text()
    lines = text.splitlines()
    assert len(text) <= 3000
    assert lines[0].startswith("entry 0000") and lines[-1].startswith("entry 0999")
    marker = next(line for line in lines if line.startswith("[..."))
    assert f"{b.elided} entries ({b.elided_chars} characters)" in marker
    head = lines[:lines.index(marker)]
    assert 800 <= sum(len(x) + 1 for x in head) <= 1000  # about a third
    assert b.count == 1000 and b.elided + len(lines) - 1 == 1000


def test_a_tools_output_shows_only_redacted_text_when_a_redaction_shrinks_its_head():
    """A long key redacted into a short marker left room in the excerpt, which was filled with the
    output past the redacted window, unredacted and flattened (a key's body, a YAML block's password)."""
    body = "\n".join("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC" + f"{i:02d}" * 6 for i in range(30))
    pem = "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n"
    out, n = c.flat_output("$ cat key.pem\n" + pem + "done\n", 500)
    assert n == 1 and "MIIEvQ" not in out and "[REDACTED:private-key] done" in out
    token = ("eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" * 30
             + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
    out, _ = c.flat_output(f"serviceToken: {token}\npassword: |\n    Vq8rL2mZx9pT4wKd7sNb3yH6\nreplicas: 2\n", 500)
    assert "SflKx" not in out and "Vq8rL2mZx9pT4wKd7sNb3yH6" not in out and "replicas: 2" in out


def test_an_mcp_tools_values_are_redacted_before_they_are_cut():
    call = c.tool_call({"name": "mcp__db__connect", "input": {
        "dsn": "postgresql://reporting_user:" + "Vq8rL2mZx9pT4wKd7sNb3yH6jF1cQ5gA" + "@analytics-db.internal:5432/r"}})
    assert "Vq8rL2mZx9pT4wKd" not in call and call.startswith("[tool mcp__db__connect: dsn=postgresql://reporting_user:")
