"""``password=`` and its family at the end of a sentence, with dots, with symbols: the whole value goes,
code references and prose stay (``password=hunter2secret.`` used to reach the prompt)."""

import pytest

from lazy_harness import redact as r


def red(text):
    return r.redact(text)


@pytest.mark.parametrize("text, expected", [
    ("password=hunter2secret.", "password=[REDACTED:assignment]."),
    ("Log in with passwd=letmein9. Then restart.", "Log in with passwd=[REDACTED:assignment]. Then restart."),
    ("set pwd=Sup3rS3cret.", "set pwd=[REDACTED:assignment]."),
    ("Use secret=s3cr3tvalue, then restart.", "Use secret=[REDACTED:assignment], then restart."),
    ("the token=abc123def; then it worked", "the token=[REDACTED:assignment]; then it worked"),
    ("(set api_key=zzz-999).", "(set api_key=[REDACTED:assignment])."),
    ("DB_PASS=hunter2x.", "DB_PASS=[REDACTED:assignment]."),
    ("the token: Xk29fLq8.", "the token: [REDACTED:assignment]."),
    ("Run it with `password=hunter2secret`.", "Run it with `password=[REDACTED:assignment]`."),
])
def test_a_value_at_the_end_of_a_sentence_is_redacted(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text, expected", [
    ("password=my.secret.pw", "password=[REDACTED:assignment]"),
    ("password=hunter2.secret", "password=[REDACTED:assignment]"),
    ("secret=correct.horse.battery.staple", "secret=[REDACTED:assignment]"),
    ("token=v1.abc123.xyz.", "token=[REDACTED:assignment]."),
    ("api_key: prod.9f8e7d6c", "api_key: [REDACTED:assignment]"),
    ("PGPASSWORD=Tr0ub.4dor psql -h db", "PGPASSWORD=[REDACTED:assignment] psql -h db"),
    ("DB_PWD=my.secret.pw", "DB_PWD=[REDACTED:assignment]"),
    ("export SECRET=my.secret.pw;", "export SECRET=[REDACTED:assignment];"),
])
def test_a_dotted_value_that_is_not_a_reference_is_redacted(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text, expected", [
    ("the db password=Tr0ub4dor&3.", "the db password=[REDACTED:assignment]."),
    ("mysql --password=Tr0ub4dor&3 -h db", "mysql --password=[REDACTED:assignment] -h db"),
    ("password=p@ss,w0rd!", "password=[REDACTED:assignment]"),
    ("token=ab;cd&ef", "token=[REDACTED:assignment]"),
    ("password=s3cr3t!(x)", "password=[REDACTED:assignment]"),
    ("password=(Tr0ub4dor&3)", "password=[REDACTED:assignment]"),
    ("secret=a{b}c[d]", "secret=[REDACTED:assignment]"),
])
def test_the_whole_value_is_redacted_not_a_prefix(text, expected):
    out, n = red(text)
    assert (out, n) == (expected, 1)


@pytest.mark.parametrize("text, expected", [
    ('password: "hunter2secret."', 'password: "[REDACTED:assignment]"'),
    ("PASSWORD='my.secret.pw'", "PASSWORD='[REDACTED:assignment]'"),
    ('{"password": "Tr0ub4dor&3."}', '{"password": "[REDACTED:assignment]"}'),
    ('password: "Tr0ub\'4dor"', 'password: "[REDACTED:assignment]"'),
    ("secret = 'it\"s.a.secret'", "secret = '[REDACTED:assignment]'"),
    ('export API_KEY="abc.def.ghi"', 'export API_KEY="[REDACTED:assignment]"'),
    ("token: 'v1.abc123.xyz'", "token: '[REDACTED:assignment]'"),
])
def test_a_quoted_value_is_redacted_whole(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text, expected", [
    ("https://x.io/login?user=bob&pass=opensesame9&next=/home",
     "https://x.io/login?user=bob&pass=[REDACTED:assignment]&next=/home"),
    ("https://x.io/cb?access_token=abc123&amp;state=1",
     "https://x.io/cb?access_token=[REDACTED:assignment]&amp;state=1"),
    ("Server=db;Uid=sa;Pwd=Sup3rS3cret;Encrypt=yes", "Server=db;Uid=sa;Pwd=[REDACTED:assignment];Encrypt=yes"),
])
def test_the_next_assignment_after_a_separator_is_kept(text, expected):
    assert red(text) == (expected, 1)


@pytest.mark.parametrize("text, expected", [
    ("login(user='bob', password=hunter2x, token=abc123xyz)",
     "login(user='bob', password=[REDACTED:assignment], token=[REDACTED:assignment])"),
    ("password=hunter2x,token=abc123xyz", "password=[REDACTED:assignment],token=[REDACTED:assignment]"),
    ("?password=hunter2x&token=abc123xyz", "?password=[REDACTED:assignment]&token=[REDACTED:assignment]"),
])
def test_two_assignments_in_a_row_are_both_redacted(text, expected):
    assert red(text) == (expected, 2)


@pytest.mark.parametrize("text", [
    'password=os.environ["DB_PASSWORD"]',
    "password=settings.DB_PASSWORD",
    "the password field is required.",
    "Set password=config.password.",
    "connect(password=self.password, token=args.token)",
    "api_key=cfg.openai_api_key",
    "secret=app.config.SECRET_KEY",
    "apiKey: process.env.API_KEY,",
    "password=user.password_hash)",
    "password = getpass.getpass().",
    "token=vault.read(path).data",
    "password: ENV.fetch('DB_PASSWORD')",
    "pwd=form.cleaned_data",
    "The token: expired.",
    "Set the password: required.",
    "login(password=password).json()",
    "Run it with `password=config.password`.",
    "password=...",
    "password: ****.",
    "api_key: <your-api-key>.",
    "password=${DB_PASSWORD}.",
    "secret: {{ vault.secret }}",
    'f"password={password!r} token={token:>8}"',
    "password=conn_info.db_password and token=serializer.validated_data",
])
def test_code_references_and_prose_are_kept(text):
    assert red(text) == (text, 0)
