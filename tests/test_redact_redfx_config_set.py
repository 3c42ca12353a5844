"""A secret given to a tool's ``config`` command with a space before the value (``npm config set
KEY VALUE``, ``git config --global sonar.token VALUE``, ``poetry config http-basic.<repo> <user>
<password>``, ``git config http.extraheader "Authorization: ..."``) is redacted: the value only, the
command and the key stay. Settings that are not secrets stay whole."""

import json

import pytest

from lazy_harness.redact import redact
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place

TOK = "9f8e7d6c-5b4a-3928-1706-f5e4d3c2b1a0"
MARK = "[REDACTED:config-secret]"


@pytest.mark.parametrize("text, secret, kept", [
    (f"npm config set //registry.npmjs.org/:_authToken {TOK} && npm publish", TOK,
     "npm config set //registry.npmjs.org/:_authToken "),
    (f"pnpm config set //npm.pkg.github.com/:_authToken {TOK}", TOK,
     "pnpm config set //npm.pkg.github.com/:_authToken "),
    (f"yarn config set npmAuthToken {TOK}", TOK, "yarn config set npmAuthToken "),
    (f"npm config set _auth {TOK}", TOK, "npm config set _auth "),
    (f"git config --global sonar.token {TOK}", TOK, "git config --global sonar.token "),
    ("poetry config http-basic.private deploy Po3tryPassw0rd", "Po3tryPassw0rd",
     "poetry config http-basic.private deploy "),
    # the same with options, quotes, another tool, the npm set alias and a command after it
    (f"npm config set --location=project //npm.example.com/:_authToken '{TOK}'", TOK, "_authToken '"),
    (f"npm set //registry.npmjs.org/:_authToken {TOK}", TOK, "npm set //registry.npmjs.org/:_authToken "),
    (f"cd app; git -C /srv/app config --local --add sonar.token {TOK}; make", TOK, "--add sonar.token "),
    (f'poetry config pypi-token.private "{TOK}"', TOK, 'pypi-token.private "'),
    ("npm config set _auth ZGVwbG95OlMzY3JldFB3OTk=", "ZGVwbG95OlMzY3JldFB3OTk=", "npm config set _auth "),
    ("pip config set global.password Hunter2pass", "Hunter2pass", "pip config set global.password "),
    (f"gh config set -h github.com oauth_token {TOK}", TOK, "oauth_token "),
    ("yarn config set npmAuthIdent deploy:Sup3rPw", "deploy:Sup3rPw", "yarn config set npmAuthIdent "),
    ("npm config set //r.example.com/:_password 'p4ss word'", "p4ss word", "_password '"),
    ("run `git config --global sonar.token sq9Xk2Lm4` then push", "sq9Xk2Lm4",
     "sonar.token [REDACTED:config-secret]` then"),
    # in a JSON string (a tool call's input written as JSON)
    (f'{{"command": "npm config set //registry.npmjs.org/:_authToken {TOK}"}}', TOK, '"command": "npm config'),
    (f'{{"command": "git config --global sonar.token \\"{TOK}\\""}}', TOK, 'sonar.token \\"'),
])
def test_a_secret_set_by_a_config_command_is_redacted_and_the_key_kept(text, secret, kept):
    out, n = redact(text)
    assert secret not in out, out
    assert n == 1 and MARK in out and kept in out, out


@pytest.mark.parametrize("text, secret", [
    ('git config --global http.extraheader "Authorization: Basic ZGVwbG95OnB3"', "ZGVwbG95OnB3"),
    (f'git config http.https://github.com/.extraheader "AUTHORIZATION: bearer {TOK}"', TOK),
    ("git config --global http.extraheader 'PRIVATE-TOKEN: s3cr3tT0k'", "s3cr3tT0k"),
    ("git config --global credential.https://git.example.com.password Gr8Pw4Git", "Gr8Pw4Git"),
])
def test_a_git_header_or_credential_setting_is_redacted(text, secret):
    out, n = redact(text)
    assert secret not in out and n == 1, out
    assert out.startswith(text[:text.index(secret) - 1]), out  # the command, the key and a header's name stay


@pytest.mark.parametrize("text", [
    "git config --global user.name Ada",
    "git config --global user.email ada@example.com",
    "npm config set registry https://registry.npmjs.org/",
    "npm config set //npm.example.com/:always-auth true",
    "npm config set auth-type legacy",
    "yarn config set npmAlwaysAuth true",
    "git config --global credential.helper store",
    "git config --global credential.helper 'cache --timeout=3600'",
    "git config credential.https://example.com.username bob42",
    "git config --global http.proxyAuthMethod basic",
    "git config --global user.signingkey 3AA5C34371567BD2",
    "git config http.sslKey ~/.ssh/client.key",
    "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}",
    "npm config set //registry.npmjs.org/:_authToken $NPM_TOKEN",
    "yarn config set npmAuthToken <your-token>",
    "npm config get //registry.npmjs.org/:_authToken",
    "npm config delete //registry.npmjs.org/:_authToken",
    "git config --unset sonar.token",
    "git config --get sonar.token",
    "poetry config http-basic.private deploy",
    "docker config create my_secret ./secret.txt",
    'git config --global http.extraheader "Authorization: Basic $(echo -n x:$TOKEN | base64)"',
    "Run `npm config set //registry.npmjs.org/:_authToken YOUR_TOKEN` first",
    "the config set token expires tomorrow",
    "read the npm config set docs for _authToken handling",
    "we set the config token rotation to 30 days",
])
def test_config_settings_that_are_not_secrets_stay(text):
    assert redact(text) == (text, 0)


@pytest.mark.parametrize("line", [
    "npm config set " * 70000,
    "git config " * 100000,
    "npm config set //r/:_authToken " + "a" * (1 << 20),
    "git config --global " + "--add " * 170000 + "sonar.token x",
    "npm config set _auth " + "'" * (1 << 20),
    "git config http.extraheader \"Authorization: " + "Basic " * 170000,
    "npm set " * 130000,
])
def test_a_megabyte_line_of_config_commands_ends(line):
    # no runaway backtracking or quadratic scan (the suite would hang); the words around it survive
    out, _ = redact("x " + line + " y")
    assert out.startswith("x ") and out.endswith(" y")


def test_the_token_of_a_bash_config_command_never_reaches_the_model(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project)
    command = f"npm config set //registry.npmjs.org/:_authToken {TOK} && npm publish"
    with open(payload["transcript_path"], encoding="utf-8") as fh:
        text = fh.read()
    assert text.count('"command":"echo hi"') == 1, "the fixture changed: pick another tool call"
    with open(payload["transcript_path"], "w", encoding="utf-8") as fh:
        fh.write(text.replace('"command":"echo hi"', '"command":' + json.dumps(command)))
    result = invoke("distill", payload["transcript_path"])
    assert result.code == 0, result.err
    [call] = fake_claude.calls(bin_dir)
    assert TOK not in call["stdin"] and TOK[:13] not in call["stdin"]
    assert f"npm config set //registry.npmjs.org/:_authToken {MARK} && npm publish" in call["stdin"]


@pytest.mark.parametrize("word", ["token", "pass", "secret", "auth", "creds"])
def test_a_git_alias_named_like_a_secret_keeps_its_command(word):
    for text in (f"git config --global alias.{word} '!gh auth {word}'",
                 f"Run git config --global alias.{word} 'push --set-upstream origin HEAD' so pushes are safer."):
        assert redact(text) == (text, 0)


@pytest.mark.parametrize("key", ["sendemail.smtppass", "sonar.authtoken", "deploy.apitoken", "ci.clientsecret"])
def test_a_lower_case_git_key_ending_in_a_secret_word_has_its_value_redacted(key):
    out, n = redact(f"git config --global {key} hunter2Secret9")
    assert "hunter2Secret9" not in out and n == 1, out
    assert key in out


@pytest.mark.parametrize("key", ["core.askpass", "core.askPass"])
def test_gits_askpass_program_is_no_secret(key):
    for program in ("ksshaskpass", "git-gui--askpass", "/usr/lib/ssh/x11-ssh-askpass"):
        text = f"git config --global {key} {program}"
        assert redact(text) == (text, 0)


@pytest.mark.parametrize("text,secret", [
    ("npm config set alias-token abcdef123456XYZ", "abcdef123456XYZ"),
    ("yarn config set alias.npmAuthToken abcdef123456XYZ", "abcdef123456XYZ"),
    ("git config --global alias.password hunter2Secret9", "hunter2Secret9"),
])
def test_a_secret_under_an_alias_key_is_still_redacted(text, secret):
    out, n = redact(text)
    assert secret not in out and n == 1, out
