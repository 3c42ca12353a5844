import pytest

from lazy_harness import redact as r
from lazy_harness.redact.values import entropy

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
    assert entropy("") == 0.0
    assert entropy("aaaa") == 0.0
    assert entropy("abcd") == pytest.approx(2.0)


def test_megabyte_word_with_key_fragments_is_handled():
    # a megabyte-long unbroken word with key-ish fragments: no runaway backtracking (the suite would
    # hang), and the surrounding words survive
    blob = ("keytoken" + "A1b2C3d4" * 8) * 4000 + " " + "a-" * 200_000 + " " + "sk-" * 20_000
    out, _ = red("x " + blob + " y")
    assert out.startswith("x ") and out.endswith(" y")


def test_yaml_password_that_is_a_plain_word_is_redacted():
    assert "swordfish" not in red("db:\n  password: swordfish\n")[0]
    assert red("the token: expired") == ("the token: expired", 0)


# --- shapes added for issue 14 ----------------------------------------------------------------------

PGP = ("-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n"
       "lQOYBF0AbCcBCAC7x9Yq2mJkZ3vT8pL0sN1cY4wR6uE9aB2dF5gH8j\n"
       "Kq2LmZx8Rt7Vb3Nc1Wd6Ye5Ua0IoPp4Nm3Lk2Ji1Hg0Fe\n=Xk29\n-----END PGP PRIVATE KEY BLOCK-----")
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"  # 40 characters


@pytest.mark.parametrize("kind, secret", [
    ("gitlab-token", "glpat-" + "Xk29fLq8Rm3Tz7Wv1Yp4"),
    ("slack-token", "xapp-" + "1-A0123BCDE45-1234567890123-abcdef0123456789"),
    ("slack-token", "xoxe-" + "1-My0xLTEyMzQ1Njc4OTAxMi1hYmNkZWY"),
    ("slack-token", "xoxe.xoxp-" + "1-Mi0yLTEyMzQ1Njc4OTAxMi1hYmNkZWY"),
    ("npm-token", "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    ("huggingface-token", "hf_" + "QmXkZrTbNpLwVcYdHsJfGaEuRiOtPqWsLz"),
    ("pypi-token", "pypi-" + "AgEIcHlwaS5vcmcCJGI3ZDk0YTk2LWJhNzAtNGM1Ny04ZjQ1LTZmZDI2OTgzN2E2MgACKlsz"),
    ("sendgrid-key", "SG." + "ngeVfQFYQlKU0ufo8x5d1A" + "." + "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"),
    ("twilio-key", "SK" + "0123456789abcdef0123456789abcdef"),
    # pasted bare in a chat, found missing in a review
    ("groq-key", "gsk_" + "Xk29fLq8Rm3Tz7Wv1Yp4Ns6BdQ2hJ5cK8gM0aE3rT6uY9iO1pL4sD7fG0hJ3kL"),
    ("xai-key", "xai-" + "Qm7Zr2Tb9NpLwVc4YdHsJfGaEuRiOtPqWsLzXk29fLq8Rm3Tz7Wv1Yp4Ns6BdQ2hJ5cK8gM0aE3rT6uY9iO1p"),
    ("perplexity-key", "pplx-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4"),
    ("replicate-token", "r8_" + "Lq8Rm3Tz7Wv1Yp4Ns6BdQ2hJ5cK8gM0aE3rT6u"),
    ("docker-token", "dckr_pat_" + "Xk29fLq8Rm3Tz7Wv1Yp4Ns6BdQ2"),
    ("tailscale-key", "tskey-auth-" + "kAbc12CNTRL-Xk29fLq8Rm3Tz7Wv1Yp4Ns6BdQ2hJ5"),
])
def test_more_token_shapes(kind, secret):
    out, n = red(f"config: use {secret} for the call")
    assert (out, n) == (f"config: use [REDACTED:{kind}] for the call", 1)


@pytest.mark.parametrize("text", ["we use xai-grok models for drafts", "the pplx-api docs say so",
                                  "see r8_notes.md", "keys start with gsk_ and dckr_pat_"])
def test_the_new_prefixes_alone_are_not_secrets(text):
    assert red(text) == (text, 0)


def test_slack_webhook_url_keeps_the_host():
    url = "https://hooks.slack.com/services/" + "T0ABCDEF1/B0GHIJKL2/Xk29fLq8Rm3Tz7Wv1Yp4Ns6B"
    out, n = red(f"post to {url} on failure")
    assert (out, n) == ("post to https://hooks.slack.com/services/[REDACTED:slack-webhook] on failure", 1)


def test_pgp_private_key_block_whole_and_cut():
    out, n = red(f"exported:\n{PGP}\nthen deleted it")
    assert (out, n) == ("exported:\n[REDACTED:private-key]\nthen deleted it", 1)
    cut = PGP.split("\n=")[0]  # no checksum, no END line
    out, n = red(f"pasted {cut}\n")
    assert n == 1 and "lQOYBF0" not in out and "Kq2LmZx8" not in out and "GnuPG" not in out


@pytest.mark.parametrize("text, expected", [
    ("redis://:pw9x7Lq@cache.internal:6379/0", "redis://:[REDACTED:url-password]@cache.internal:6379/0"),
    ("postgres://u:pa/ss@h/db", "postgres://u:[REDACTED:url-password]@h/db"),
    ("amqp://guest:g/u+e=st@rabbit:5672", "amqp://guest:[REDACTED:url-password]@rabbit:5672"),
    # an "@" left unescaped in the password: the host is after the last "@" of the authority
    ("postgres://app:p@ss@db.internal:5432/shop", "postgres://app:[REDACTED:url-password]@db.internal:5432/shop"),
    ("https://bob:x@y@z.example.com/a?to=me@b.com", "https://bob:[REDACTED:url-password]@z.example.com/a?to=me@b.com"),
])
def test_url_password_empty_user_or_slash(text, expected):
    assert red(text) == (expected, 1)


def test_putty_key_private_lines_and_only_those():
    ppk = ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n"
           "AAAAC3NzaC1lZDI1NTE5AAAAIJq\nWm8xYk4=\nPrivate-Lines: 2\n" + "AAAAIH" + "Qk9ibGFzZWNyZXRrZXk0\n"
           + "ZXlrZXk9bm90cHVibGlj\nPrivate-MAC: 5f0c1a\n")
    out, _ = red(ppk)
    assert "Qk9ibGFzZWNyZXRrZXk0" not in out and "ZXlrZXk9bm90cHVibGlj" not in out
    assert "Private-Lines: 2\n[REDACTED:private-key]\nPrivate-MAC: 5f0c1a\n" in out
    assert "Public-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIJq\nWm8xYk4=\n" in out
    # the same file inside a JSON string (escaped newlines), as a transcript holds a tool's output
    escaped = ppk.replace("\n", "\\n")
    out, _ = red('{"output": "' + escaped + '"}')
    assert "Qk9ibGFzZWNyZXRrZXk0" not in out and "Private-Lines: 2\\n[REDACTED:private-key]\\nPrivate-MAC" in out
    assert red("the header Private-Lines: 3 says how many follow") == (
        "the header Private-Lines: 3 says how many follow", 0)


@pytest.mark.parametrize("text", [
    "http://localhost:3000/@dana/profile",
    "https://example.com:8443/users/@me and http://host:80/a?x=y@z",
    "const url = `postgres://${user}:${password}@${host}/db`;",
    'dsn = f"postgresql://{user}:{password}@{host}/{name}"',
    'export DATABASE_URL="postgres://$DB_USER:$DB_PASS@$DB_HOST/app"',
    "mysql://root:<password>@localhost/app and redis://:***@cache",
    "cvs -d cvs://:pserver:anoncvs@sources.example.org:/cvs/src checkout app",
])
def test_url_password_false_positives(text):
    assert red(text) == (text, 0)


@pytest.mark.parametrize("text, expected", [
    ("PGPASSWORD=s3cr3t psql -h db", "PGPASSWORD=[REDACTED:assignment] psql -h db"),
    ("export PGPASSWORD='s3cr3t'", "export PGPASSWORD='[REDACTED:assignment]'"),
    ("DB_PASS=hunter2x", "DB_PASS=[REDACTED:assignment]"),
    ("db_pass: hunter2x", "db_pass: [REDACTED:assignment]"),
    ('MYSQL_PWD="s3cr3t!" mysql -u root', 'MYSQL_PWD="[REDACTED:assignment]" mysql -u root'),
    ("Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd=Sup3rS3cret;Encrypt=yes",
     "Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd=[REDACTED:assignment];Encrypt=yes"),
    ("https://x.io/login?user=bob&pass=opensesame9", "https://x.io/login?user=bob&pass=[REDACTED:assignment]"),
    ("dbPassword: 'x9y8z7'", "dbPassword: '[REDACTED:assignment]'"),
    ('{"clientSecret": "q1w2e3r4"}', '{"clientSecret": "[REDACTED:assignment]"}'),
    ("mypassword=letmein", "mypassword=[REDACTED:assignment]"),
])
def test_secret_word_glued_to_the_word_before(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text", [
    "PWD=/home/dana/project\nOLDPWD=/home/dana",
    "old_pwd = os.getcwd()\ndef pwd():\n    return cwd",
    "A first pass: collect the files. PASS: test_login",
    "if not password:\n    raise ValueError('password is required')",
    "Session(user=u, password=password, token=token, secret=db_secret)",
    "const [showPassword, setShowPassword] = useState(false); isSecret: true",
    "export PGPASSWORD=$DB_PASSWORD; MYSQL_PWD=\"${MYSQL_PASSWORD}\"",
    "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db/credentials-AbCdEf",
    "bypass=all and compass=north",
    'f"password={password}" and "secret: {{ vault.secret }}"',
    "%sudo ALL=(ALL) NOPASSWD: ALL\n%admin ALL=(root) NOPASSWD: /bin/systemctl restart app",
    "util._assertion_pass = saved_assert_hooks; self.last_pwd = current_dir",
])
def test_glued_and_short_words_false_positives(text):
    assert red(text) == (text, 0)


@pytest.mark.parametrize("text, expected", [
    ("curl -u deploy:Xk29fLq8 https://api.example.com",
     "curl -u deploy:[REDACTED:cli-password] https://api.example.com"),
    ("curl -s --user 'deploy:Xk29 fLq8' https://x.io", "curl -s --user 'deploy:[REDACTED:cli-password]' https://x.io"),
    ('curl --user="admin:pa55w0rd" -X POST', 'curl --user="admin:[REDACTED:cli-password]" -X POST'),
    ("docker login -u ci -p Zq81PlmX0cV7 registry.io", "docker login -u ci -p [REDACTED:cli-password] registry.io"),
    ("docker login --password 'Zq81 Plm' --username ci",
     "docker login --password '[REDACTED:cli-password]' --username ci"),
])
def test_passwords_on_a_command_line(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text", [
    'curl -u "$API_USER:$API_PASSWORD" https://api.example.com',
    "curl -u deploy https://x.io; docker run -u 1000:1000 -p 8080:80 app",
    "docker login -u ci --password-stdin registry.io < token.txt",
    'docker login -u ci -p "$REGISTRY_PASSWORD" registry.io',
    "sort -u words.txt; git push -u origin main",
])
def test_command_line_false_positives(text):
    assert red(text) == (text, 0)


def test_authorization_token_header():
    out, n = red("curl -H 'Authorization: token 0123456789abcdef0123456789abcdef01234567' https://api.github.com")
    assert (out, n) == ("curl -H 'Authorization: token [REDACTED:bearer]' https://api.github.com", 1)
    prose = "The token authorization/authentication header is described in docs/auth/token-header.md"
    assert red(prose) == (prose, 0)


@pytest.mark.parametrize("text, expected", [
    (f"aws secret {AWS_SECRET}", "aws secret [REDACTED:aws-secret-key]"),
    (f"Access key ID,Secret access key\n{AWS},{AWS_SECRET}\n",
     "Access key ID,Secret access key\n[REDACTED:aws-access-key],[REDACTED:aws-secret-key]\n"),
    (f"{AWS_SECRET} <- the AWS one", "[REDACTED:aws-secret-key] <- the AWS one"),
])
def test_bare_aws_secret_key_near_aws_or_secret(text, expected):
    assert red(text) == (expected, text.count("AKIA") + 1)


def test_bare_aws_secret_key_elsewhere_is_left():
    far = "aws " + "x " * 200 + AWS_SECRET
    assert red(far) == (far, 0)
    alone = f"the value {AWS_SECRET} again"
    assert red(alone) == (alone, 0)
    sha = "secret rotated in 7c4a8d09ca3762af61e59520943dc26494f8941b and 3F786850E387550FDAB836ED7E6DC881DE23001B"
    assert red(sha) == (sha, 0)


def test_corpus_of_ordinary_text_is_untouched():
    # tests/fixtures/redact_corpus.txt: code, prose, logs, hashes, UUIDs, data URIs, paths, versions
    import os
    import re
    from collections import Counter

    path = os.path.join(os.path.dirname(__file__), "fixtures", "redact_corpus.txt")
    with open(path, encoding="utf-8") as fh:
        corpus = fh.read()
    out, n = red(corpus)
    per_kind = Counter(re.findall(r"\[REDACTED:([a-z-]+)\]", out))
    assert per_kind == Counter() and n == 0
    assert out == corpus
