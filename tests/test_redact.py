import pytest

from lazy_harness import redact as r

# Built by concatenation so the test file itself does not look like it holds credentials.
AWS = "AKIA" + "Q3EXAMPLE7KEYZ2X"
GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
GITHUB_PAT = "github_pat_" + "11ABCDEFG0abcdefghijkl_" + "mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg"
ANTHROPIC = "sk-ant-" + "api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-AbCdEf"
OPENAI = "sk-" + "proj-4f9Kq2LmZx8Rt7Vb3Nc1Wd6Ye5Ua0Io"
OPENAI_OLD = "sk-" + "T3BlbkFJ9x8c7v6b5n4m3a2s1d0fghjklqwertyuiopzx"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvZSJ9."
       + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9xQ2mJk\nZ3vT8pL0sN1cY4wR6uE9aB2dF5gH8j\n"
       "-----END RSA PRIVATE KEY-----")


def red(text, extra=()):
    return r.redact(text, extra)


@pytest.mark.parametrize("kind, secret", [
    ("aws-access-key", AWS),
    ("aws-access-key", "ASIA" + "ZZ3EXAMPLE9KEYQ7"),
    ("github-token", GITHUB),
    ("github-token", "ghs_" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0PpOoNn"),
    ("github-token", GITHUB_PAT),
    ("anthropic-key", ANTHROPIC),
    ("openai-key", OPENAI),
    ("openai-key", OPENAI_OLD),
    ("slack-token", "xoxb-" + "123456789012-abcdefGHIJKL"),
    ("stripe-key", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"),
    ("google-api-key", "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
    ("jwt", JWT),
])
def test_token_shapes(kind, secret):
    out, n = red(f"config: use {secret} for the call")
    assert n == 1
    assert secret not in out
    assert out == f"config: use [REDACTED:{kind}] for the call"


def test_private_key_block_whole():
    out, n = red(f"key file:\n{PEM}\ndone")
    assert n == 1
    assert out == "key file:\n[REDACTED:private-key]\ndone"


def test_private_key_block_without_end_is_still_removed():
    cut = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nQyNTUxOQAAACDx\n"
    out, n = red("pasted " + cut)
    assert n == 1 and "b3BlbnNz" not in out and "QyNTUx" not in out


def test_private_key_inside_json_escaped_string():
    out, _ = red('{"content": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkq\\n-----END PRIVATE KEY-----"}')
    assert "MIIEvQ" not in out and out.startswith('{"content": "[REDACTED:private-key]')


@pytest.mark.parametrize("text, expected", [
    ("password=hunter2", "password=[REDACTED:assignment]"),
    ("DB_PASSWORD=s3cr3t!", "DB_PASSWORD=[REDACTED:assignment]"),
    ("secret: Tr0ub4dor#3", "secret: [REDACTED:assignment]"),
    ("token = 'abc123def'", "token = '[REDACTED:assignment]'"),
    ('api_key: "zzz-999"', 'api_key: "[REDACTED:assignment]"'),
    ('{"password": "x9"}', '{"password": "[REDACTED:assignment]"}'),
    ('{"client_secret":"qwe"}', '{"client_secret":"[REDACTED:assignment]"}'),
    ("mysql --password=letmein1 -h db", "mysql --password=[REDACTED:assignment] -h db"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "aws_secret_access_key = [REDACTED:assignment]"),
    ("https://x.io/cb?access_token=abc123&x=1", "https://x.io/cb?access_token=[REDACTED:assignment]&x=1"),
])
def test_assignments_keep_the_name(text, expected):
    out, n = red(text)
    assert (out, n) == (expected, 1)


@pytest.mark.parametrize("text", [
    "token = os.environ['TOKEN']",
    "password = getpass.getpass()",
    "api_key = settings.api_key",
    "def login(password: str, token: Optional[str] = None):",
    'headers = {"token": None}',
    "export GITHUB_TOKEN=$GITHUB_TOKEN",
    "password=${DB_PASSWORD}",
    "api_key: <your-api-key>",
    "password: ****",
    "max_tokens=1024 and token_count = 77 and mytoken=abc123",
    "The token: expired after an hour.",
])
def test_assignment_false_positives(text):
    assert red(text) == (text, 0)


def test_high_entropy_value_under_a_keyish_name():
    value = "Zq7hN2xP9vLk4TmR8wYc3Bd6"
    out, n = red(f"export STRIPE_SECRET_LIVE={value}\nMY_KEY_ID: {value}")
    assert n == 2
    assert value not in out
    assert "export STRIPE_SECRET_LIVE=[REDACTED:high-entropy]" in out


def test_high_entropy_needs_randomness_and_length():
    text = "PRIMARY_KEY=customer_identifier_field\nKEY_NAME=shortAbc1\nmonkey_business=aaaaaaaaaaaaaaaaaaaaaaaaaa"
    assert red(text) == (text, 0)


def test_bearer_and_url_password():
    out, n = red("curl -H 'Authorization: Bearer abcDEF123456ghiJKL789' https://bob:pa55w0rd@db.example.com/x")
    assert n == 2
    assert "Bearer [REDACTED:bearer]" in out
    assert "https://bob:[REDACTED:url-password]@db.example.com/x" in out


def test_no_false_positives_on_prose_and_code():
    text = (
        "Merged 3f786850e387550fdab836ed7e6dc881de23001b into main.\n"
        "Request id 123e4567-e89b-12d3-a456-426614174000 failed.\n"
        "The token limit was reached, so we split the token stream into chunks.\n"
        "def tokenize(text): return text.split()\n"
        "pip install scikit-learn; see sk-learn docs; ask-anthropic-team\n"
        "import keyring; key = cache.get(k); secret_santa()\n"
        "The password field is hashed with bcrypt before storage.\n"
    )
    assert red(text) == (text, 0)


def test_a_marker_is_not_redacted_again():
    once, n1 = red(f"GITHUB_TOKEN={GITHUB}")
    assert once == "GITHUB_TOKEN=[REDACTED:github-token]" and n1 == 1
    assert red(once) == (once, 0)


def test_extra_patterns():
    out, n = red("ticket ACME-12345 and acme-99", [r"ACME-\d+", ""])
    assert (out, n) == ("ticket [REDACTED:custom] and acme-99", 1)


def test_count_several_kinds():
    out, n = red(f"{AWS} {GITHUB} password=abc123 {JWT}")
    assert n == 4
    for secret in (AWS, GITHUB, "abc123", JWT):
        assert secret not in out


def test_redact_obj_nested():
    obj = {"decisions": [{"summary": f"rotated {AWS}", "tags": ["aws", GITHUB]}], "n": 3, "ok": None,
           "handoff": ("keep", f"token={ANTHROPIC}")}
    out, n = r.redact_obj(obj)
    assert n == 3
    assert out["decisions"][0]["summary"] == "rotated [REDACTED:aws-access-key]"
    assert out["decisions"][0]["tags"] == ["aws", "[REDACTED:github-token]"]
    assert out["n"] == 3 and out["ok"] is None
    assert out["handoff"] == ("keep", "token=[REDACTED:anthropic-key]")
    assert obj["decisions"][0]["summary"] == f"rotated {AWS}"  # the input is not changed


def test_redact_obj_keeps_keys_unless_asked():
    obj = {AWS: {"nested " + GITHUB: "x"}, "decisions": []}
    kept, n = r.redact_obj(obj)
    assert list(kept) == [AWS, "decisions"] and n == 0
    out, n = r.redact_obj(obj, keys=True)
    assert list(out) == ["[REDACTED:aws-access-key]", "decisions"] and n == 2
    assert list(out["[REDACTED:aws-access-key]"]) == ["nested [REDACTED:github-token]"]


def test_entropy():
    assert r.entropy("") == 0.0
    assert r.entropy("aaaa") == 0.0
    assert r.entropy("abcd") == pytest.approx(2.0)


def test_megabyte_word_with_key_fragments_is_handled():
    # a megabyte-long unbroken word with key-ish fragments: no runaway backtracking (the suite would
    # hang), and the surrounding words survive
    blob = ("keytoken" + "A1b2C3d4" * 8) * 4000 + " " + "a-" * 200_000 + " " + "sk-" * 20_000
    out, _ = red("x " + blob + " y")
    assert out.startswith("x ") and out.endswith(" y")


def test_yaml_password_that_is_a_plain_word_is_redacted():
    assert "swordfish" not in red("db:\n  password: swordfish\n")[0]
    assert red("the token: expired") == ("the token: expired", 0)
