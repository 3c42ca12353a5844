"""Secrets that still passed through: a GitHub Actions secret set with ``gh secret set``, the password
options of common clients (redis-cli, mongosh, sqlcmd, ldapsearch, htpasswd, openssl, smbclient, az,
SQL's IDENTIFIED BY, redis AUTH), session cookies, the way an assistant writes a secret in Markdown
(a bold label, a table row, "`NAME` is set to `value`"), other Authorization schemes and token
prefixes (Notion, Bitbucket, ngrok, wandb), a JSON ``"pass"`` key, and JSON escapes inside a value
(``\\/``, ``\\u003d``). Each has its near misses, ordinary developer text that stays byte for byte."""

import pytest

from lazy_harness import redact as r

# Built by concatenation so this file does not look like it holds credentials.
PW = "Vq8rL2mZx9" + "pT4wKd"
KEY = "Qx7vLp9Kd2Mn8Rt4" + "Yw1Bc6Hj0Fg5Ae2"
SESSION = "k2l9x0q7w5e1r4t6" + "y8u3i2o1p0a9s8d7"
AWS = "wJalrXUtnFEMI\\/K7MDENG\\/" + "bPxRfiCYzXAMPLEKE2"


def red(text):
    return r.redact(text)


def gone(text, secret, kind):
    out, n = red(text)
    assert secret not in out and f"[REDACTED:{kind}]" in out, out
    return out


# --- 1. gh secret set ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    (f"gh secret set DB_PASSWORD --body '{PW}'", "gh secret set DB_PASSWORD --body '[REDACTED:cli-password]'"),
    (f"gh secret set API_KEY -b {KEY}", "gh secret set API_KEY -b [REDACTED:cli-password]"),
    (f"gh secret set API_KEY --body={KEY}", "gh secret set API_KEY --body=[REDACTED:cli-password]"),
    (f'gh secret set SENTRY_DSN --repo acme/api --env prod --body "{PW}" && echo ok',
     'gh secret set SENTRY_DSN --repo acme/api --env prod --body "[REDACTED:cli-password]" && echo ok'),
    (f"gh secret set NAME -b'{PW}'", "gh secret set NAME -b'[REDACTED:cli-password]'"),
    (f'{{"command": "gh secret set X --body \\"{PW}\\""}}',
     '{"command": "gh secret set X --body \\"[REDACTED:cli-password]\\""}'),
])
def test_a_gh_secret_value_is_redacted_whatever_its_name(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text", [
    "gh secret set DB_PASSWORD < .secrets/db_password.txt",
    'gh secret set DB_PASSWORD --body "$DB_PASSWORD"',
    "gh secret set TOKEN --body ${TOKEN}; gh secret set NAME --body <value>",
    "gh secret list --repo acme/api; gh secret delete OLD_TOKEN",
    "  -b, --body string   The value for the secret (reads from standard input if not specified)",
    "gh pr create --title 'Fix auth' --body 'Rotates the token handling'",
    "gh variable set REGION --body us-east-1",
])
def test_gh_secret_references_and_other_gh_commands_stay(text):
    assert red(text) == (text, 0)


# --- 2. password options of common clients -------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    (f"redis-cli -h cache.internal -p 6379 -a '{PW}' --no-auth-warning FLUSHALL",
     "redis-cli -h cache.internal -p 6379 -a '[REDACTED:cli-password]' --no-auth-warning FLUSHALL"),
    (f"redis-cli --user app --pass {PW} ping", "redis-cli --user app --pass [REDACTED:cli-password] ping"),
    (f"mongosh --host db -u admin -p {PW} --eval 'db.stats()'",
     "mongosh --host db -u admin -p [REDACTED:cli-password] --eval 'db.stats()'"),
    (f'mongosh "mongodb://db:27017" --username admin --password {PW}',
     'mongosh "mongodb://db:27017" --username admin --password [REDACTED:cli-password]'),
    (f"mongodump --uri mongodb://db -u root --password={PW} --out /backup",
     "mongodump --uri mongodb://db -u root --password=[REDACTED:cli-password] --out /backup"),
    (f"mongo admin -u root -p '{PW}'", "mongo admin -u root -p '[REDACTED:cli-password]'"),
    (f"sqlcmd -S db.example.com -U sa -P '{PW}!' -Q 'select 1'",
     "sqlcmd -S db.example.com -U sa -P '[REDACTED:cli-password]' -Q 'select 1'"),
    (f"ldapsearch -x -H ldap://dc -D 'cn=admin,dc=ex,dc=com' -w {PW} '(uid=bob)'",
     "ldapsearch -x -H ldap://dc -D 'cn=admin,dc=ex,dc=com' -w [REDACTED:cli-password] '(uid=bob)'"),
    (f"ldapmodify -x -D cn=admin -w '{PW}' -f change.ldif",
     "ldapmodify -x -D cn=admin -w '[REDACTED:cli-password]' -f change.ldif"),
    (f"htpasswd -bc /etc/nginx/.htpasswd admin {PW}",
     "htpasswd -bc /etc/nginx/.htpasswd admin [REDACTED:cli-password]"),
    (f"htpasswd -b -B .htpasswd alice '{PW}'", "htpasswd -b -B .htpasswd alice '[REDACTED:cli-password]'"),
    (f"htpasswd -nbB alice {PW}", "htpasswd -nbB alice [REDACTED:cli-password]"),
    (f"openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:{PW}",
     "openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:[REDACTED:cli-password]"),
    (f"openssl rsa -in k.pem -passin 'pass:{PW}' -out plain.pem",
     "openssl rsa -in k.pem -passin 'pass:[REDACTED:cli-password]' -out plain.pem"),
    (f"openssl enc -aes-256-cbc -salt -in f -out f.enc -k {PW}",
     "openssl enc -aes-256-cbc -salt -in f -out f.enc -k [REDACTED:cli-password]"),
    (f"smbclient //fs/share -U alice%{PW}", "smbclient //fs/share -U alice%[REDACTED:cli-password]"),
    (f"az login --service-principal -u 11111111-2222-3333-4444-555555555555 -p '{PW}' --tenant t",
     "az login --service-principal -u 11111111-2222-3333-4444-555555555555 -p '[REDACTED:cli-password]' --tenant t"),
    (f"CREATE USER 'app'@'%' IDENTIFIED BY '{PW}';", "CREATE USER 'app'@'%' IDENTIFIED BY '[REDACTED:cli-password]';"),
    (f"ALTER USER scott IDENTIFIED BY {PW};", "ALTER USER scott IDENTIFIED BY [REDACTED:cli-password];"),
    (f"create user app identified with mysql_native_password by '{PW}';",
     "create user app identified with mysql_native_password by '[REDACTED:cli-password]';"),
    (f"127.0.0.1:6379> AUTH default {PW}", "127.0.0.1:6379> AUTH default [REDACTED:cli-password]"),
    (f"redis-cli -h cache AUTH {PW}", "redis-cli -h cache AUTH [REDACTED:cli-password]"),
])
def test_a_clients_password_option_is_redacted(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text", [
    "redis-cli -h cache.internal -p 6379 ping; redis-cli --askpass -h cache",
    'redis-cli -a "$REDIS_PASSWORD" ping; redis-cli -a ${REDIS_PASS} info',
    "ls -a /tmp; tar -a -cf x.tar.gz dir; git commit -a -m 'fix'; uname -a",
    "mongosh --host db --port 27017 -u admin -p --authenticationDatabase admin",
    "ssh -p 22 host; psql -p 5432 -U app; mongoose -p 3000",
    "sqlcmd -S db -E -Q 'select 1' -p; python manage.py -P 4",
    "ldapsearch -x -W -D cn=admin '(uid=bob)'; ldapsearch -y ~/.ldappw -x; docker ps -w",
    "htpasswd -c /etc/nginx/.htpasswd admin; htpasswd -D .htpasswd bob",
    "openssl pkcs12 -export -passout env:P12_PASS -out c.p12; openssl rsa -passin file:pw.txt -in k.pem",
    "openssl rand -hex 32; openssl req -new -key k.pem -out c.csr; openssl dgst -sha256 -k",
    "smbclient -L //fs -U alice; smbclient //fs/share -N",
    "az login --use-device-code; az login --service-principal -u app -p ~/certs/sp.pem --tenant t",
    "az vm create -n vm1 -g rg --image Ubuntu2204 -p 22; pip install -p ./pkg",
    "A user is identified by their email; sessions are identified by a random id.",
    "The Redis AUTH command takes an optional username; call AUTH before anything else.",
    "AUTH0_DOMAIN=acme.eu.auth0.com and OAUTH flows",
])
def test_ports_other_options_and_prose_about_clients_stay(text):
    assert red(text) == (text, 0)


# --- 3. session cookies ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    (f"curl -s https://app.example.com/api/me -H 'Cookie: sessionid={SESSION}'",
     "curl -s https://app.example.com/api/me -H 'Cookie: sessionid=[REDACTED:session-cookie]'"),
    (f"< Set-Cookie: session={SESSION}; Path=/; HttpOnly",
     "< Set-Cookie: session=[REDACTED:session-cookie]; Path=/; HttpOnly"),
    ("Cookie: _myapp_session=QWxhZGRpbjpvcGVuIHNlc2FtZQ%3D%3D--3f2a9c1b7e6d5a4f3e2d",
     "Cookie: _myapp_session=[REDACTED:session-cookie]"),
    (f"curl -b 'sessionid={SESSION}' https://app.example.com",
     "curl -b 'sessionid=[REDACTED:session-cookie]' https://app.example.com"),
    (f"curl --cookie \"remember_token=1|{SESSION}\" https://x",
     "curl --cookie \"remember_token=[REDACTED:session-cookie]\" https://x"),
    (f"cookie: _ga=GA1.1.123.456; theme=dark; prefs={KEY}; lang=en",
     "cookie: _ga=GA1.1.123.456; theme=dark; prefs=[REDACTED:session-cookie]; lang=en"),
    (f'{{"Cookie": "auth_token={PW}"}}', '{"Cookie": "auth_token=[REDACTED:session-cookie]"}'),
])
def test_a_session_cookies_value_is_redacted(text, expected):
    assert red(text) == (expected, 1)


def test_every_session_cookie_of_a_copied_request_goes():
    text = ("curl 'https://app.example.com/api/me' -H 'cookie: _ga=GA1.1.123.456; sessionid=" + SESSION
            + "; csrftoken=Zx8Cv7Bn6Mm5Ll4Kk3Jj2Hh1Gg0Ff9D'")
    out, n = red(text)
    assert n >= 1 and SESSION not in out and "Zx8Cv7Bn6Mm5Ll4" not in out and "_ga=GA1.1.123.456;" in out


@pytest.mark.parametrize("text", [
    "Cookie: theme=dark; lang=en",
    "Set-Cookie: session=; Max-Age=0; Path=/",
    "Set-Cookie: remember_me=true; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Secure; SameSite=Lax",
    "Cookie: sessionid=deleted; auth_provider=google; sid=1",
    "curl -b cookies.txt -c cookies.txt https://example.com/login",
    'headers = {"Cookie": f"session={token}"}',
    "The cookie: it expires after a day. Set-Cookie: is sent by the server.",
    "response.set_cookie('sessionid', value, httponly=True)",
])
def test_ordinary_cookies_stay(text):
    assert red(text) == (text, 0)


# --- 4. Markdown --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    (f"- **Password:** `{PW}`", "- **Password:** `[REDACTED:markdown-secret]`"),
    (f"**API key**: `{KEY}`", "**API key**: `[REDACTED:markdown-secret]`"),
    (f"* **DB password:** {PW}", "* **DB password:** [REDACTED:markdown-secret]"),
    (f"| DB_PASSWORD | {PW} |", "| DB_PASSWORD | [REDACTED:markdown-secret] |"),
    (f"| `SESSION_SECRET` | `{KEY}` | rotated monthly |",
     "| `SESSION_SECRET` | `[REDACTED:markdown-secret]` | rotated monthly |"),
    (f"| staging | pw | {PW} |", "| staging | pw | [REDACTED:markdown-secret] |"),
    (f"Your `DB_PASS` is currently set to `{PW}`.", "Your `DB_PASS` is currently set to `[REDACTED:markdown-secret]`."),
    (f"The prod DB admin is admin, and `DB_PASS` is set to `{PW}` on the box.",
     "The prod DB admin is admin, and `DB_PASS` is set to `[REDACTED:markdown-secret]` on the box."),
    (f"`api_token` was `{KEY}`", "`api_token` was `[REDACTED:markdown-secret]`"),
])
def test_a_secret_written_in_markdown_is_redacted(text, expected):
    assert red(text) == (expected, 1)


def test_a_table_of_env_values_loses_every_secret():
    table = ("| Variable | Value |\n|---|---|\n| DB_HOST | db.internal |\n| DB_PASSWORD | " + PW
             + " |\n| SESSION_SECRET | " + KEY + " |\n| PORT | 8080 |")
    out, n = red(table)
    assert n == 2 and PW not in out and KEY not in out and "| DB_HOST | db.internal |" in out


@pytest.mark.parametrize("text", [
    "| Password | Where it is kept |\n|---|---|\n| Admin | 1Password vault |",
    "| Name | Type | Description |\n|---|---|---|\n| `token` | `string` | The access token |",
    "| `api_key` | `str` | Your key from the dashboard |\n| `max_tokens` | `4096` | A limit |",
    "| KEY_SIZE | 2048 |\n| TOKEN_TTL | 3600 |\n| SECRET_NAME | prod-db |\n| API_KEY | required |",
    "| Key | Action |\n|---|---|\n| `Ctrl+K` | search |\n| `Esc` | close |",
    "- **Password:** use the one in 1Password",
    "**API key**: `OPENAI_API_KEY` (set it in your shell)",
    "**Token:** `$GITHUB_TOKEN`\n**Secret name:** `prod/db-creds`\n**Key:** `ctrl+shift+p`",
    "**Password**: see the vault, item `db-admin`",
    "The `SECRET_KEY` is set to `os.environ['SECRET_KEY']` in settings.py.",
    "`password` is `None` until `login()` runs; `token` was `undefined`.",
    "`KEY_PREFIX` is set to `user:session:v2`",
    "Call `get_token()` and then `refresh_token` is `null`.",
])
def test_markdown_about_secrets_without_one_stays(text):
    assert red(text) == (text, 0)


# --- 5. more Authorization schemes, token prefixes, a JSON "pass" ---------------------------------------

@pytest.mark.parametrize("text, secret, kind", [
    ("curl -H 'Authorization: SSWS 00QCjAl4MlV-WPXM-" + "ABCDEFGHIJKLMNOPQRSTUV12' https://x.okta.com/api/v1/users",
     "00QCjAl4MlV-WPXM-", "bearer"),
    ("curl -H 'Authorization: Splunk 7f3b9c2d-1e8a-4f6b-" + "9c5d-3e9a7b1c4d8e' https://splunk:8088/services/collector",
     "7f3b9c2d-1e8a", "bearer"),
    ("curl -H 'Authorization: key=AAAAq7Zx3vL:APA91bH" + KEY + "' https://fcm.googleapis.com/fcm/send",
     "APA91bH", "bearer"),
    ("curl -H 'Authorization: ApiKey VnVhQ2ZHY0JDZGJr" + "UW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==' https://es:9200",
     "VnVhQ2ZHY0JDZGJr", "bearer"),
    ("NOTION_API=secret_" + KEY + "Sd7Qw3Er4Ty5", KEY, "notion-token"),
    ("use ntn_123456789012" + KEY + "Sd7Qw3E for the MCP server", KEY, "notion-token"),
    ("ATBB" + KEY + "Sd7Qw3E3F2A9C1B", KEY, "bitbucket-token"),
    ("ngrok config add-authtoken 2Qx7vLp9Kd2Mn8Rt4Yw1" + "Bc6Hj0_3f2a9c1b7e6d5a4f3e2d1", "2Qx7vLp9Kd2Mn8Rt4Yw1",
     "ngrok-token"),
    ("ngrok authtoken 2Qx7vLp9Kd2Mn8Rt4Yw1" + "Bc6Hj0_3f2a9c1b7e6d5a4f3e2d1", "2Qx7vLp9Kd2Mn8Rt4Yw1", "ngrok-token"),
    ("wandb login 3f2a9c1b7e6d5a4f3e2d" + "1c0b9a8f7e6d5c4b3a29", "3f2a9c1b7e6d5a4f3e2d", "wandb-key"),
    ("wandb login --relogin 3f2a9c1b7e6d5a4f3e2d" + "1c0b9a8f7e6d5c4b3a29", "3f2a9c1b7e6d5a4f3e2d", "wandb-key"),
    ('{"username": "admin", "pass": "' + PW + '"}', PW, "assignment"),
])
def test_schemes_prefixes_and_a_json_pass_are_redacted(text, secret, kind):
    gone(text, secret, kind)


@pytest.mark.parametrize("text", [
    "Authorization: required for every endpoint except /health",
    "Authorization: handled by the AuthenticationMiddleware class",
    "Authorization: AWS4-HMAC-SHA256 Credential=x/20130524/us-east-1/s3/aws4_request",
    "Authorization: Digest username=alice, realm=api",
    "secret_key_base_for_the_test_environment_only_is_loaded_here = 1",
    "ntn_client = NotionClient(); ATBB is Bitbucket's app password prefix",
    "ngrok http 8080; ngrok config check; ngrok authtoken $NGROK_AUTHTOKEN",
    "wandb login; wandb login --relogin; wandb login $WANDB_API_KEY",
    '{"pass": 120, "fail": 3, "skip": 0}',
    '{"status": "pass", "pass": "skipped", "pass": true}',
])
def test_schemes_and_prefixes_in_prose_and_code_stay(text):
    assert red(text) == (text, 0)


# --- 6. JSON escapes inside a value -------------------------------------------------------------------

@pytest.mark.parametrize("text, secret, kind", [
    ('AWS: {"SecretAccessKey":"' + AWS + '","AccessKeyId":"ASIAIOSFODNN7EXAMPL2"}', AWS, "aws-secret-key"),
    ('{"out":"aws_secret_access_key = ' + AWS + '"}', AWS, "assignment"),
    ('{"msg":"login with apikey\\u003d' + KEY + '"}', KEY, "assignment"),
    ('{"cmd":"mysql --password\\u003d' + PW + '"}', PW, "assignment"),
    ('{"url":"https://x/cb?api_key\\u003d' + KEY + '\\u0026format\\u003djson"}', KEY, "assignment"),
])
def test_a_secret_behind_a_json_escape_is_redacted(text, secret, kind):
    out = gone(text, secret, kind)
    assert "bPxRfiCY" not in out


def test_what_follows_an_escaped_ampersand_stays():
    out, n = red('{"url":"https://x/cb?api_key\\u003d' + KEY + '\\u0026format\\u003djson"}')
    assert out == '{"url":"https://x/cb?api_key\\u003d[REDACTED:assignment]\\u0026format\\u003djson"}' and n == 1


@pytest.mark.parametrize("text", [
    '{"path":"src\\/lazy_harness\\/redact\\/kinds.py","url":"https:\\/\\/example.com\\/docs\\/secret-rotation"}',
    '{"q":"sort\\u003dname\\u0026key\\u003dasc","html":"\\u003ca href\\u003d\\u0027x\\u0027\\u003e"}',
    '{"s":"token\\u003d\\u003cyour-token\\u003e","p":"password\\u003d$DB_PASS"}',
])
def test_json_escapes_in_ordinary_values_stay(text):
    assert red(text) == (text, 0)
