"""Issue 26, item 4: shapes that used to pass unchanged, a secret split over two lines inside quotes,
and the classes behind them: a value under a name that says pass, pwd, secret, token, key or
credential, in env, shell, JSON, YAML and TOML forms. Code, prose and placeholders under such names
stay as they are (the rules are in the docstring of ``lazy_harness.redact``)."""

import pytest

from lazy_harness import redact as r

# Built by concatenation so this file does not look like it holds credentials.
HEX32 = "f0e1d2c3b4a5968778695a4b3c2d1e0f"
TWILIO_SID = "AC" + "0123456789abcdef0123456789abcdef"
WHSEC = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLSYs"
MAILGUN = "key-" + "3ax6xnjp29jd6fds4gc373sgvjxteol0"
MAILCHIMP = "0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d" + "-us21"
SQ_ATP = "sq0atp-" + "p9Xk29fLq8Rm3Tz7Wv1Yp4"
SQ_CSP = "sq0csp-" + "Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua8Lo1Ab2C"
SQ_EAAA = "EAAA" + "l9Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua8Lo1Ab2CdEfGhIjKlMnOpQrS"
DOPPLER = "dp.st." + "prd." + "Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua8Lo1Ab"
DOPPLER_PERSONAL = "dp.pt." + "Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua8Lo1Ab"
SUPABASE = "sbp_" + "0123456789abcdef0123456789abcdef01234567"
NETLIFY = "nfp_" + "Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua"
FLY = "fo1_" + "Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua8Lo1A"
STRIPE_HEAD, STRIPE_TAIL = "sk_live_" + "4eC39HqLyjWDarjtT1zd", "p7dcXk29fLq8Rm3T"
DOCKER_AUTH = "Ym9iOnBh" + "c3N3b3JkMTIz"  # base64 of user:password
PASSWORD = "Tr0ub4dor" + "&3x"
TOKENISH = "q8Zr2Lw9" + "Xv41"


def red(text):
    return r.redact(text)


@pytest.mark.parametrize("kind, secret", [
    ("stripe-key", WHSEC),
    ("mailgun-key", MAILGUN),
    ("mailchimp-key", MAILCHIMP),
    ("square-token", SQ_ATP),
    ("square-token", SQ_CSP),
    ("square-token", SQ_EAAA),
    ("doppler-token", DOPPLER),
    ("doppler-token", DOPPLER_PERSONAL),
    ("supabase-token", SUPABASE),
    ("netlify-token", NETLIFY),
    ("fly-token", FLY),
])
def test_a_token_shape_that_passed_unchanged_is_redacted(kind, secret):
    for text in (f"config: use {secret} for the call", f'"{secret}"', f"TOKEN_X={secret}\n"):
        out, n = red(text)
        assert secret not in out and n == 1, text
    assert red(f"config: use {secret} for the call") == (f"config: use [REDACTED:{kind}] for the call", 1)


@pytest.mark.parametrize("text", [
    f'client = Client("{TWILIO_SID}", "{HEX32}")',
    f"client = Client('{TWILIO_SID}', '{HEX32}')",
    f"Client({TWILIO_SID}, {HEX32})",
    f"twilio api:core:messages:create --auth-token {HEX32} --from +15005550006",
    f"twilio login {TWILIO_SID} --auth-token={HEX32}",
    f"curl -X POST https://api.twilio.com/2010-04-01/Accounts -u {TWILIO_SID}:{HEX32}",
])
def test_a_twilio_auth_token_as_an_argument_is_redacted(text):
    out, n = red(text)
    assert HEX32 not in out and n == 1
    assert (TWILIO_SID in out) == (TWILIO_SID in text)  # the account SID names the account; it is no secret


@pytest.mark.parametrize("text", [
    '{"auths": {"https://index.docker.io/v1/": {"auth": "' + DOCKER_AUTH + '"}}}',
    '{\n  "auths": {\n    "ghcr.io": {\n      "auth": "' + DOCKER_AUTH + '",\n      "email": "a@b.c"\n    }\n  }\n}',
    '{\\"auths\\": {\\"ghcr.io\\": {\\"auth\\": \\"' + DOCKER_AUTH + '\\"}}}',
    "_auth=" + DOCKER_AUTH,
    "//registry.npmjs.org/:_auth = " + DOCKER_AUTH,
])
def test_a_registry_auth_value_is_redacted(text):
    out, n = red(text)
    assert DOCKER_AUTH not in out and n == 1 and "auth" in out


@pytest.mark.parametrize("text", [
    "sudo -S <<< 'Hunter2pw' apt update",
    'sudo -S <<< "Hunter2pw" apt update',
    "sudo -S <<<Hunter2pw apt update",
    "sudo -u root -S bash -c 'id' <<< 'Hunter2pw'",
    "echo Hunter2pw | sudo -S apt update",
    "echo 'Hunter2pw' | sudo -kS systemctl restart app",
    'echo -n "Hunter2pw" | sudo --stdin ls',
    "printf '%s\\n' Hunter2pw | sudo -S -v",
])
def test_a_password_fed_to_sudo_is_redacted(text):
    out, n = red(text)
    assert "Hunter2pw" not in out and n == 1 and "sudo" in out


@pytest.mark.parametrize("text", [
    "machine api.example.com login bob password Hunter2pw",
    "machine api.example.com\n  login bob\n  password Hunter2pw\n",
    "machine git.example.com\nlogin bob\npassword Hunter2pw\nmachine other.example.com login x password Hunter2pw",
    "default login anonymous password Hunter2pw",
    "machine h.example.com login bob account acme password Hunter2pw",
])
def test_a_netrc_password_is_redacted(text):
    out, n = red(text)
    assert "Hunter2pw" not in out and n == text.count("Hunter2pw")
    assert "login" in out and "password [REDACTED:" in out


@pytest.mark.parametrize("text, gone", [
    (f'STRIPE="{STRIPE_HEAD}\n{STRIPE_TAIL}"\nNEXT=1', STRIPE_TAIL),
    (f"STRIPE='{STRIPE_HEAD}\n    {STRIPE_TAIL}'\n", STRIPE_TAIL),
    (f'export STRIPE="{STRIPE_HEAD}\n{STRIPE_TAIL}";\n', STRIPE_TAIL),
    ('export DB_PASSWORD="Tr0ub4dor3xQ\nZp7Lm2Kd9Wq"\n', "Zp7Lm2Kd9Wq"),
    ("DB_PASS='Tr0ub4dor3xQ\n  Zp7Lm2Kd9Wq'\n", "Zp7Lm2Kd9Wq"),
    ('password: "Tr0ub4dor3xQ\n  Zp7Lm2Kd9Wq"\n', "Zp7Lm2Kd9Wq"),
    ('SIGNING_KEY = "q8Zr2Lw9XvB4nT7pKd3H\ns6Yfq8Zr2Lw9XvB4"\n', "s6Yfq8Zr2Lw9XvB4"),
])
def test_a_secret_split_over_two_lines_inside_quotes_goes_whole(text, gone):
    out, n = red(text)
    assert gone not in out and n == 1
    assert out.count("[REDACTED:") == 1


NAMES = ["DB_PASS", "db_password", "apiKey", "client-secret", "AUTH_TOKEN", "STRIPE_KEY", "signingKey",
         "encryption-key", "DB_CREDENTIAL", "gcp_credentials", "MYSQL_PWD", "PASSWORD_PROD", "DB_PASS_2",
         "TOKEN_GITHUB", "SecretValue", "master_key_b64"]
FORMS = {
    "env": "{n}={v}",
    "export": "export {n}={v}",
    "double": 'export {n}="{v}"',
    "single": "{n}='{v}'",
    "json": '{{"{n}": "{v}", "host": "db"}}',
    "json-in-json": '{{\\"{n}\\": \\"{v}\\"}}',
    "yaml": "db:\n  {n}: {v}\n  host: db",
    "yaml-quoted": "  {n}: '{v}'",
    "toml": '[db]\n{n} = "{v}"\nport = 5432',
    "heredoc": "cat > .env <<EOF\n{n}={v}\nEOF",
    "yaml-block": "{n}: |\n  {v}\nhost: db",
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [PASSWORD, TOKENISH])
def test_a_value_under_a_secret_name_is_redacted_in_every_form(name, form, value):
    text = FORMS[form].format(n=name, v=value)
    out, n = red(text)
    assert value not in out and n == 1, out
    assert name in out  # the name is kept: the reader still knows what was there


@pytest.mark.parametrize("text", [
    "mytool --db-password Tr0ub4dor3 --host db",
    "mytool --api-key q8Zr2Lw9Xv41 --verbose",
    "mytool --client-secret=q8Zr2Lw9Xv41",
    "vercel deploy --token q8Zr2Lw9Xv41 --prod",
    "set -gx DB_PASS Tr0ub4dor3",
    "ENV DB_PASSWORD Tr0ub4dor3",
])
def test_a_value_after_an_option_or_a_shell_name_is_redacted(text):
    out, n = red(text)
    assert "Tr0ub4dor3" not in out and "q8Zr2Lw9Xv41" not in out and n == 1


@pytest.mark.parametrize("text", [
    "Set KEY= in your .env file, then restart.",
    "KEY=",
    "password = getpass()",
    "password = getpass.getpass()",
    "token = request.headers['Authorization']",
    'token = request.headers["X-Token"]',
    "keys: [a, b]",
    "keys: [id, name]",
    "id = Column(Integer, primary_key=True)",
    "primary_key=True, foreign_key=False",
    "PASSWORD_MIN_LENGTH=8",
    "PASSWORD_MIN_LENGTH: 12",
    "TOKEN_EXPIRY_SECONDS=3600",
    "token_ttl = 15m",
    "KEY_SIZE=2048",
    "KEY_ALGORITHM=RS256",
    "TOKEN_TYPE=Bearer",
    "SECRET_KEY_FILE=/run/secrets/django_key",
    "TOKEN_URL=https://auth.example.com/oauth/token",
    "sorted(items, key=len)",
    "sorted(items, key=lambda x: x[1])",
    "sorted(items, key=str.lower)",
    "cache_key = 'user:1234'",
    'cache_key = f"user:{uid}"',
    "sort_key: name",
    "api_key: ${API_KEY}",
    'api_key = os.environ["API_KEY"]',
    "STRIPE_KEY=$STRIPE_KEY",
    "DB_CREDENTIAL=<your-credential>",
    "DB_CREDENTIAL=None",
    "gcp_credentials = service_account.Credentials.from_service_account_file(path)",
    "credentials: true",
    "use_credentials=false",
    "signing_key: null",
    '"apiKey": "",',
    "encryption_key = derive_key(password, salt)",
    "KEY_ID=key_2024_01",
    "token_count = len(tokens)",
    "max_tokens: 4096",
    "PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']",
    "key: value",
    '"key": "user_id"',
    "Press the key: Enter.",
    "The secret key: keep it out of git.",
    "monkey=banana123",
    "hotkey = ctrl+shift+p",
    "machine learning login page password field",
    "Log in and enter the password when sudo asks: sudo -S apt update",
    "echo $PASSWORD | sudo -S apt update",
    "sudo -S <<< \"$SUDO_PASSWORD\" apt update",
    "machine api.example.com login bob password $NETRC_PASSWORD",
    '{"auth": "basic", "authType": "token"}',
    '"auth": "oauth2"',
    "mytool --password-stdin --api-key-file ~/.key",
    "mytool --token $TOKEN",
])
def test_code_prose_and_placeholders_under_secret_names_stay(text):
    assert red(text) == (text, 0)


@pytest.mark.parametrize("text", [
    "echo pw | sudo -S apt update",
    "sudo -S <<< 'pw' apt update",
    "machine h.example.com login u password p",
])
def test_a_password_of_one_or_two_characters_is_how_docs_write_one(text):
    assert red(text) == (text, 0)
