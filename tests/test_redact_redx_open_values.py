"""A value still open where the text ends (a cut text: a quote never closed, a URL's user part with
no "@" yet) is redacted by the assignment and URL rules, so a cut text is safe on its own; the same
shapes closed, and ends that are not credentials, behave as before."""

import pytest

from lazy_harness.redact import redact

PW = "Hn4%tR8*eW2^kP6~bq"


@pytest.mark.parametrize("text, kind", [
    ('DB_PASSWORD="v7#Qm!2xL$9pK&4w', "assignment"),
    ("export PGPASSWORD='Hn4%tR8*eW2^k", "assignment"),
    ('{"user": "app", "password": "Hn4%tR8*eW2^kP', "assignment"),
    ('{\\"password\\": \\"Hn4%tR8*eW2^kP', "assignment"),
    ("postgres://app:Hn4%tR8*eW2^kP6~bq", "url-password"),
    ("see DATABASE_URL=postgres://app:Hn4%tR8*eW2^k", "url-password"),
    ("redis://:Hn4%tR8*eW2^kP6", "url-password"),
    ("https://deploy:Hn4%tR8*eW2%21x", "url-password"),
])
def test_a_value_open_at_the_end_of_the_text_is_redacted(text, kind):
    out, n = redact(text)
    assert n == 1 and f"[REDACTED:{kind}]" in out, out
    assert text[-6:] not in out, out


@pytest.mark.parametrize("text, kind", [
    (f'DB_PASSWORD="{PW}" and more', "assignment"),
    (f"postgres://app:{PW}@db:5432/app", "url-password"),
])
def test_the_closed_shapes_are_redacted_as_before(text, kind):
    out, n = redact(text)
    assert n == 1 and f"[REDACTED:{kind}]" in out and PW not in out


@pytest.mark.parametrize("text", [
    "open http://localhost:8080",
    "the api runs at https://api.example.com:443",
    "clone https://github.com/org/repo",
    'print("password',
    'password = "',
    "jdbc:postgresql://db.internal:5432",
    "the value was \"a quote never closed and prose",
])
def test_ends_that_are_no_credential_stay(text):
    assert redact(text) == (text, 0)
