"""Credential formats that used to pass through unchanged: command-line passwords of
mysql and sshpass, JSON with escaped quotes, Vault tokens, more providers' token prefixes, a private
key written with ``\\u002d`` escapes, and a secret wrapped onto a second line. For each, ordinary text
and code that look alike must stay byte for byte."""

import random
import string

import pytest

from lazy_harness import redact as r

HEX = "0123456789abcdef"
B62 = string.ascii_letters + string.digits
B64URL = B62 + "-_"


def body(n, alphabet=B62, seed=14):
    """``n`` characters of ``alphabet`` that look random and are the same on every run."""
    rnd = random.Random(f"{seed}-{n}-{alphabet}")
    return "".join(rnd.choice(alphabet) for _ in range(n))


def red(text):
    return r.redact(text)


# Built by concatenation so the test file itself does not look like it holds credentials.
TOKENS = [
    ("google-oauth-token", "ya29." + "a0AfB_by" + body(140, B64URL)),
    ("google-client-secret", "GOCSPX-" + body(28, B64URL)),
    ("digitalocean-token", "dop_v1_" + body(64, HEX)),
    ("digitalocean-token", "doo_v1_" + body(64, HEX, seed=2)),
    ("digitalocean-token", "dor_v1_" + body(64, HEX, seed=3)),
    ("shopify-token", "shpat_" + body(32, HEX)),
    ("shopify-token", "shpss_" + body(32, HEX, seed=2)),
    ("shopify-token", "shpca_" + body(32, HEX, seed=3)),
    ("shopify-token", "shppa_" + body(32, HEX, seed=4)),
    ("grafana-token", "glsa_" + body(32) + "_" + body(8, HEX)),
    ("grafana-token", "glc_" + "eyJvIjoiMTIzNDU2IiwibiI6InN0YWNrLTEyMzQtaW50LXRva2VuIiwiayI6Ilh6MTIifQ=="),
    ("linear-key", "lin_api_" + body(40)),
    ("pulumi-token", "pul-" + body(40, HEX, seed=5)),
    ("planetscale-token", "pscale_pw_" + body(43, B64URL, seed=6)),
    ("planetscale-token", "pscale_tkn_" + body(43, B64URL, seed=7)),
    ("heroku-key", "HRKU-" + "AA" + body(58, B64URL, seed=8)),
    ("postman-key", "PMAK-" + body(24, HEX) + "-" + body(34, HEX)),
    ("sentry-token", "sntrys_" + "eyJpYXQiOjE3MDAwMDAwMDAuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8ifQ==_" + body(43)),
    ("sentry-token", "sntryu_" + body(64, HEX)),
    ("newrelic-key", "NRAK-" + body(27, string.ascii_uppercase + string.digits)),
    ("atlassian-token", "ATATT3" + "xFfGF0" + body(180, B64URL + "=")),
    ("databricks-token", "dapi" + body(32, HEX)),
    ("databricks-token", "dapi" + body(32, HEX, seed=2) + "-2"),
    ("age-secret-key", "AGE-SECRET-KEY-1" + body(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")),
    # a bot's user id in base64url, a timestamp, an HMAC: ids of 19, 18 and 18 digits
    ("discord-token", "MTA5ODc2NTQzMjEwOTg3NjU0Mw" + "." + "GhJk2L" + "." + body(38, B64URL)),
    ("discord-token", "NDU2Nzg5MDEyMzQ1Njc4OTAx" + "." + "Yq3_Zx" + "." + body(27, B64URL)),
    ("discord-token", "ODEyMzQ1Njc4OTAxMjM0NTY3" + "." + "Xk2-Pw" + "." + body(38, B64URL, seed=2)),
    ("vault-token", "hvs." + "CAESI" + body(90, B64URL)),
    ("vault-token", "hvb." + "AAAAAQ" + body(130, B64URL)),
]


@pytest.mark.parametrize("kind, secret", TOKENS, ids=[f"{k}-{s[:6]}" for k, s in TOKENS])
def test_a_token_with_a_known_prefix_is_redacted(kind, secret):
    assert red(f"config: use {secret} for the call") == (f"config: use [REDACTED:{kind}] for the call", 1)


def test_the_secret_part_of_an_hcp_terraform_token_is_redacted_and_its_id_kept():
    token_id = body(14, seed=3)
    text = f"TFE_TOKEN is {token_id}.atlasv1.{body(67, B64URL, seed=3)} for now"
    assert red(text) == (f"TFE_TOKEN is {token_id}.atlasv1.[REDACTED:terraform-token] for now", 1)


@pytest.mark.parametrize("text", [
    "Google access tokens start with ya29. and client secrets with GOCSPX-, which is how to spot them.",
    "DigitalOcean tokens look like dop_v1_..., doo_v1_ and dor_v1_; Shopify ones shpat_ and shpss_.",
    "glsa_ and glc_ are Grafana's prefixes; lin_api_ is Linear's, PMAK- Postman's, NRAK- New Relic's.",
    "Sentry's sntrys_ tokens, Atlassian's ATATT3 ones and age's AGE-SECRET-KEY-1 lines are secrets.",
    "We use dapi (the Databricks API) from dapi_client.py; see dapi-docs and the DPAPI on Windows.",
    "dapi_client = DapiClient(host); dapi_session_id = 0123456789abcdef0123456789abcdef",
    'DO_TOKEN_PREFIX = "dop_v1_"; shpat_token = os.environ["SHOPIFY_TOKEN"]; lin_api_key = cfg.key',
    "glc_init(); glsa_cache = {}; NRAK_PREFIX = 'NRAK-'; PMAK_PATTERN = r'PMAK-[a-f0-9]{24}'",
    "Vault tokens since 1.10 start with hvs., hvb. or hvr.; older ones with s. and b.",
    "tokens = s.encodeWithLengthPrefix2(x); token = s.decodeBase64ToString(y)",
    "token     limit reached after 4096 tokens\ntoken  s.split()",
    "MTextViewCompatHelperImpl.method.getInstanceForCurrentThreadNow is a Java stack frame",
    "ya29 is a tag name; GOCSPX is a word; dop_v1_test_fixture is a test fixture",
    "HCP Terraform tokens hold .atlasv1. in the middle; Pulumi's start with pul-, PlanetScale's with pscale_pw_.",
    "pscale_pw_placeholder_for_the_docs_only_here = 1; HRKU-prefixed keys replaced the old ones; pul-request",
    "terraform.atlasv1.example is no token; app.atlasv1.settings_for_the_staging_environment_of_our_platform",
])
def test_prefixes_in_prose_and_code_are_left_alone(text):
    assert red(text) == (text, 0)


# --- passwords on a command line ---------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("mysql -u root -pS3cr3tPassw0rd! -h db", "mysql -u root -p[REDACTED:cli-password] -h db"),
    ("mysql -uroot -p'Hunter2 x' app", "mysql -uroot -p'[REDACTED:cli-password]' app"),
    ('mysqldump -u root -p"s3cr3t" app > dump.sql', 'mysqldump -u root -p"[REDACTED:cli-password]" app > dump.sql'),
    ("docker exec db mariadb -uroot -ps3cr3t9 -e 'select 1'",
     "docker exec db mariadb -uroot -p[REDACTED:cli-password] -e 'select 1'"),
    ("/usr/bin/mysql -uroot -pS3cr3t -e 'show tables'",
     "/usr/bin/mysql -uroot -p[REDACTED:cli-password] -e 'show tables'"),
    ("sshpass -p 'Hunter2Hunter2' ssh root@host", "sshpass -p '[REDACTED:cli-password]' ssh root@host"),
    ("sshpass -pHunter2x ssh root@host", "sshpass -p[REDACTED:cli-password] ssh root@host"),
    ("sshpass -p Hunter2x ssh -p 2222 root@host", "sshpass -p [REDACTED:cli-password] ssh -p 2222 root@host"),
    ('sshpass -v -p "Hunt er2" scp f host:', 'sshpass -v -p "[REDACTED:cli-password]" scp f host:'),
])
def test_mysql_and_sshpass_passwords_are_redacted(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text", [
    "ssh -p 22 root@host; ssh -p2222 root@host; scp -P 22 f host:",
    "pip install -p ./pkg; git add -p; mkdir -p /tmp/x; cp -p a b; ps -p 1234; lsof -p 1234",
    "docker run -p 80:80 nginx; docker run -p 8080:8080 app; npm start -- -p 8080",
    "docker run --name mysql -p3306:3306 -d mysql:8",
    "mysql -u root -p -h db app",
    "mysql -u root -p app < dump.sql",
    "mysql --port=3306 -P 3306 -h db --protocol=tcp -u app",
    'mysql -u root -p"$MYSQL_ROOT_PASSWORD" app; mysql -uroot -p${DB_PASS}',
    "sshpass -f ~/.pw ssh -p 22 host; sshpass -e ssh -p 2222 host",
    'sshpass -p "$SSHPASS" ssh host',
    "mysql_config --plugindir -pfoo",
    "cc -I/usr/include/mysql -pthread app.c; gcc $(mysql_config --cflags) -pthread -lmysqlclient -pedantic",
])
def test_port_flags_and_other_p_options_are_left_alone(text):
    assert red(text) == (text, 0)


# --- JSON inside a JSON string: escaped quotes --------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('{\\"password\\": \\"hunter2secret\\"}', '{\\"password\\": \\"[REDACTED:assignment]\\"}'),
    ('password=\\"hunter2\\"', 'password=\\"[REDACTED:assignment]\\"'),
    ('{\\"PGPASSWORD\\": \\"Hunter2Hunter2x\\"}', '{\\"PGPASSWORD\\": \\"[REDACTED:assignment]\\"}'),
    ('"{\\"password\\":\\"Tr0ub4dor&3xyz\\"}"', '"{\\"password\\":\\"[REDACTED:assignment]\\"}"'),
    ('{\\\\\\"api_key\\\\\\": \\\\\\"zzz-999\\\\\\"}', '{\\\\\\"api_key\\\\\\": \\\\\\"[REDACTED:assignment]\\\\\\"}'),
    ("{\\'token\\': \\'abc123def\\'}", "{\\'token\\': \\'[REDACTED:assignment]\\'}"),
    ('{\\"STRIPE_SECRET_LIVE\\": \\"Zq7hN2xP9vLk4TmR8wYc3Bd6\\"}',
     '{\\"STRIPE_SECRET_LIVE\\": \\"[REDACTED:high-entropy]\\"}'),
])
def test_an_assignment_with_escaped_quotes_is_redacted(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text", [
    '{\\"password\\": null, \\"token\\": \\"$TOKEN\\", \\"secret\\": \\"<your-secret>\\"}',
    '{\\"max_tokens\\": 1024, \\"token_count\\": 77}',
    '{\\"password\\": \\"{password}\\"}',
    '{\\"content\\": \\"the password field is required\\"}',
])
def test_escaped_json_that_holds_no_secret_is_left_alone(text):
    assert red(text) == (text, 0)


# --- Vault ------------------------------------------------------------------------------------------

LEGACY_VAULT = "s." + "Xk29fLq8Rm3Tz7Wv1Yp4Ns6B"


def test_the_token_row_of_vault_output_is_redacted():
    service = "hvs." + "CAESIJzQ8vbkq2Xw7T1mR9pLhN4aYcVdUo3e"
    table = ("Key                  Value\n---                  -----\n"
             f"token                {service}\n"
             "token_accessor       kTz7Wv1Yp4Ns6Bq9Xk29fLq8\ntoken_duration       768h\n")
    out, n = red(table)
    assert n == 1 and service not in out
    assert "token                [REDACTED:vault-token]\ntoken_accessor       kTz7Wv1Yp4Ns6Bq9Xk29fLq8\n" in out
    out, n = red(table.replace(service, LEGACY_VAULT))
    assert n == 1 and LEGACY_VAULT not in out and "token                [REDACTED:vault-token]\n" in out


def test_a_legacy_vault_token_is_redacted_after_vault_login():
    assert red(f"vault login {LEGACY_VAULT}") == ("vault login [REDACTED:vault-token]", 1)
    assert red(f"vault login -no-print {LEGACY_VAULT}") == ("vault login -no-print [REDACTED:vault-token]", 1)


def test_a_legacy_vault_token_alone_is_left():
    # why: "s." and 24 characters is too common a shape to redact without a Vault context
    text = f"the value {LEGACY_VAULT} again"
    assert red(text) == (text, 0)


# --- Azure SAS ----------------------------------------------------------------------------------------

SIG = body(43, string.ascii_letters + string.digits + "+/")


@pytest.mark.parametrize("sig", [
    SIG + "=",
    SIG.replace("+", "%2B").replace("/", "%2F") + "%3D",
])
def test_the_signature_of_an_azure_sas_url_is_redacted(sig):
    url = f"https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&se=2025-01-01&sig={sig}"
    out, n = red(f"download {url} now")
    assert (out, n) == ("download https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&se=2025-01-01"
                        "&sig=[REDACTED:azure-sas] now", 1)
    out, n = red(f"<a href=\"{url.replace('&', '&amp;')}\">")
    assert n == 1 and sig not in out


@pytest.mark.parametrize("text", [
    "sig = inspect.signature(fn); def f(sig=None): return sig",
    "https://example.com/img.png?w=100&sig=abc123&v=2",
    "https://cdn.example.com/a.jpg?sig=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "gpg: Good signature; status sig=good trust=ultimate",
    "the sig= parameter of a SAS URL is its signature",
])
def test_sig_outside_an_azure_sas_is_left_alone(text):
    assert red(text) == (text, 0)


# --- a private key written with \u002d escapes -------------------------------------------------------

ESC = "\\u002d" * 5


def test_a_private_key_with_escaped_dashes_is_redacted():
    head = f"{ESC}BEGIN RSA PRIVATE KEY{ESC}"
    cut = head + "\\nMIIEowIBAAKCAQEA7bq9xQ2mJk" + "\\nZ3vT8pL0sN1cY4wR6uE9aB2dF5gH8j\\n"
    out, n = red('{"key": "' + cut + '"}')
    assert n == 1 and "MIIEow" not in out and "Z3vT8p" not in out and "BEGIN" not in out
    whole = head + "\\nMIIEowIBAAKCAQEA7bq9xQ2mJk\\n" + f"{ESC}END RSA PRIVATE KEY{ESC}"
    assert red('{"key": "' + whole + '", "n": 1}') == ('{"key": "[REDACTED:private-key]", "n": 1}', 1)
    upper = whole.replace("u002d", "u002D")
    assert red(upper) == ("[REDACTED:private-key]", 1)


def test_escaped_dashes_without_a_private_key_are_left():
    text = f"{ESC}BEGIN CERTIFICATE{ESC}\\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\\n and a \\u002d b"
    assert red(text) == (text, 0)


# --- a secret wrapped onto a second line --------------------------------------------------------------

OPENAI = "sk-" + "proj-" + body(40)
GITHUB = "ghp_" + body(36)
GITHUB_PAT = "github_pat_" + body(22) + "_" + body(59, seed=7)


@pytest.mark.parametrize("text, expected, gone", [
    (f"OPENAI: {OPENAI}\n{body(40, seed=5)}\nnext line", "OPENAI: [REDACTED:openai-key]\nnext line", body(40, seed=5)),
    (f"export GITHUB_TOKEN={GITHUB_PAT[:50]}\n{GITHUB_PAT[50:]}\n", "export GITHUB_TOKEN=[REDACTED:github-token]\n",
     GITHUB_PAT[50:]),
    (f"gcloud auth print-access-token\nya29.a0AfB_by{body(60, B64URL)}\r\n{body(50, B64URL, seed=6)}\r\n$ ls",
     "gcloud auth print-access-token\n[REDACTED:google-oauth-token]\r\n$ ls", body(50, B64URL, seed=6)),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/\n    bPxRfiCYEXAMPLEKEY\nregion = eu-west-1",
     "aws_secret_access_key = [REDACTED:assignment]\nregion = eu-west-1", "bPxRfiCYEXAMPLEKEY"),
    ("export DEPLOY_KEY=Zq7hN2xP9vLk4TmR8wYc3Bd6\nQm5Tz8Lr2Wx4\n",
     "export DEPLOY_KEY=[REDACTED:high-entropy]\n", "Qm5Tz8Lr2Wx4"),
])
def test_a_secret_wrapped_onto_the_next_line_is_redacted_whole(text, expected, gone):
    out, n = red(text)
    assert (out, n) == (expected, 1)
    assert gone not in out


@pytest.mark.parametrize("after", [
    "ls", "done", "fi", "EOF", "----------------", "LoginForm", "cd /tmp", "  return token",
    "2024-01-01", "}", "", "    pass", "python3", "x86_64", "DB_HOST=db1internal", "main2.py",
    "/usr/bin/python3", "DEBUG=1", "ab12cd",
])
def test_a_plain_line_after_a_secret_is_kept(after):
    text = f"export GITHUB_TOKEN={GITHUB}\n{after}\npassword=hunter2x\n{after}"
    assert red(text) == (f"export GITHUB_TOKEN=[REDACTED:github-token]\n{after}\n"
                         f"password=[REDACTED:assignment]\n{after}", 2)


# --- a marker in the user part of a URL ---------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    (f"git clone https://{GITHUB}@github.com/org/repo",
     "git clone https://[REDACTED:github-token]@github.com/org/repo"),
    (f"curl -u {GITHUB}:x-oauth-basic https://api.github.com",
     "curl -u [REDACTED:github-token]:x-oauth-basic https://api.github.com"),
])
def test_a_token_in_the_user_part_leaves_one_whole_marker(text, expected):
    # the colon inside "[REDACTED:github-token]" is not a user:password separator
    assert red(text) == (expected, 1)


TELEGRAM_SECRET = ":AA" + body(33, B64URL, seed=5)


@pytest.mark.parametrize("bot_id, before, after", [
    ("7123456789", "TELEGRAM_BOT=", ""),
    ("110201543", "curl https://api.telegram.org/bot", "/sendMessage?chat_id=42"),
    ("123456", "export TG=\"", "\""),
])
def test_the_secret_half_of_a_telegram_bot_token_is_redacted(bot_id, before, after):
    text, n = red(before + bot_id + TELEGRAM_SECRET + after)
    assert (text, n) == (f"{before}{bot_id}:[REDACTED:telegram-bot-token]{after}", 1)
    assert TELEGRAM_SECRET[3:] not in text


@pytest.mark.parametrize("text", [
    "at 12" + TELEGRAM_SECRET,  # a time is no bot id
    "v1234567890" + TELEGRAM_SECRET,  # digits glued to a word
    "12345678901234" + TELEGRAM_SECRET,  # too many digits for an id
    "1234567890:AA" + body(20, B64URL),  # too short
    "1234567890:AA" + body(40, B64URL),  # too long: something else
    "ratio 1234567:AAbb is a label",
])
def test_telegram_look_alikes_are_left_alone(text):
    assert red(text) == (text, 0)
