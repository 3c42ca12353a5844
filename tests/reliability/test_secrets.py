"""Secrets: a credential typed in a session never reaches the model's prompt, and one the model
echoes back is never written, while the entry that carried it still is.

One session per credential kind, all drained once for the module by the real hook, worker and fake
model; each kind then has its own tests. "Never written" is checked on every file the run left
(memory, learnings, queue, logs and the fake model's record of its stdin), case-insensitively and
on any 12-character run of the secret, so a lower-cased or cut copy (a tag, a scope) counts too.
"""

import json
import os
import re

import pytest

from lazy_harness import hotload, paths
from tests.reliability import rig
from tests.support import fake_claude

CUSTOM = r"ACME-[0-9]{6}-[A-Z]{4}"
PEM_BODY = ("MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2ZQxWq8YhT5kLp\n"
            "R9vN2cX7bJ4mK1sD6fG8hL0qW3eY5uI7oP9aZ2xC4vB6nM8")
PGP_BODY = ("gNSWPH8prVqsUeQCtDR3zzX6hqo35uwZqxZOOHjkJQQrkaPehMvbfrn2yzL7C5Mg\n"
            "3PR4hLLOOxl3gV3FGRmrCNnFZsGqgh0frrhbkVAhRHLfBERkIyDtFDBAM0gq")
# kind: (what the user typed, the secret inside it, the marker it must become)
KINDS = {
    "aws-access-key": ("aws_access_key_id AKIAQ3EGRTYUIOPL7ZXC", "AKIAQ3EGRTYUIOPL7ZXC", "aws-access-key"),
    "github-token": ("push with ghp_8fJ2kL9mN3pQ7rS1tU5vW0xY4zA6bC2dE8fG", "ghp_8fJ2kL9mN3pQ7rS1tU5vW0xY4zA6bC2dE8fG",
                     "github-token"),
    "anthropic-key": ("the key is sk-ant-api03-Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua8Lo",
                      "sk-ant-api03-Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua8Lo", "anthropic-key"),
    "openai-key": ("OPENAI sk-proj-4fT9kQ2mZ8rX1vB7nC3hJ6wL0pD5sY2gA9eU",
                   "sk-proj-4fT9kQ2mZ8rX1vB7nC3hJ6wL0pD5sY2gA9eU",
                   "openai-key"),
    "private-key": (f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----", PEM_BODY,
                    "private-key"),
    "password=": ("log in with password=Hunter2-Pr0d!x today", "Hunter2-Pr0d!x", "assignment"),
    "secret=": ("the webhook secret=7dK2pL9xQ4mZ1vR8 is set", "7dK2pL9xQ4mZ1vR8", "assignment"),
    "token=": ("curl -d token=Zq81PlmX0cV7bN2k the api", "Zq81PlmX0cV7bN2k", "assignment"),
    "jwt": ("cookie eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ."
            "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ."
            "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "jwt"),
    "high-entropy": ("export BILLING_SIGNING_KEY=q8Zr2Lw9XvB4nT7pKd3Hs6Yf", "q8Zr2Lw9XvB4nT7pKd3Hs6Yf",
                     "high-entropy"),
    "config pattern": ("the licence is ACME-493021-QWZX", "ACME-493021-QWZX", "custom"),
    "pgp-private-key": ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + PGP_BODY + "\n=Tq7x\n"
                        "-----END PGP PRIVATE KEY BLOCK-----", PGP_BODY, "private-key"),
    "url-password": ("connect to redis://:EzpC3N8F/eKjFTrKCb0@cache.internal:6379/0", "EzpC3N8F/eKjFTrKCb0",
                     "url-password"),
    "PGPASSWORD=": ("run PGPASSWORD='Tz8BbwTKx8Eqwt!' psql -h db", "Tz8BbwTKx8Eqwt!", "assignment"),
    "curl -u": ("curl -u deploy:HmcOJEZqgygcmtba https://api.example.com/v1", "HmcOJEZqgygcmtba", "cli-password"),
    "gitlab-token": ("push with glpat-LGsH7Zwqhc9jXmaoq3Gq", "glpat-LGsH7Zwqhc9jXmaoq3Gq", "gitlab-token"),
    "slack-webhook": ("notify https://hooks.slack.com/services/T0ABCDEF1/B0GHIJKL2/lpnMR6vsUW5xcJ6MV8YWkGP1",
                      "T0ABCDEF1/B0GHIJKL2/lpnMR6vsUW5xcJ6MV8YWkGP1", "slack-webhook"),
    "aws-secret-key": ("the aws secret is mxFyp9yIJX6uF68NcpP7/BEXvfqZgimdS7jnqFCi now",
                       "mxFyp9yIJX6uF68NcpP7/BEXvfqZgimdS7jnqFCi", "aws-secret-key"),
    # issue 26, item 4: shapes that passed unchanged, and the classes behind them. Each typed text ends
    # in a plain word: the echoed answer tags its last word alone, where no context names a secret.
    "split in quotes": ('STRIPE="sk_live_4eC39HqLyjWDarjtT1zd\nZp7dcYm38gKr9Sn4U" is set', "Zp7dcYm38gKr9Sn4U",
                        "stripe-key"),
    "DB_PASS=": ("export DB_PASS=Pr0dDbPa55x9 first", "Pr0dDbPa55x9", "assignment"),
    "stripe-webhook": ("verify with whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLSYs now", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLSYs",
                       "stripe-key"),
    "mailgun-key": ("mailgun key-3ax6xnjp29jd6fds4gc373sgvjxteol0 here", "3ax6xnjp29jd6fds4gc373sgvjxteol0",
                    "mailgun-key"),
    "mailchimp-key": ("mailchimp 0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d-us21 here", "0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d",
                      "mailchimp-key"),
    "square-token": ("square sq0atp-Hq4Rt8Wz2Lm6Pn0Vc5Xb7Ks here", "Hq4Rt8Wz2Lm6Pn0Vc5Xb7Ks", "square-token"),
    "doppler-token": ("doppler dp.st.prd.Jw3Ke7Mq1Rx5Tz9Ub2Vd6Yf0Hg4Ni8Lp3Oc7Sa1We5Qr here",
                      "Jw3Ke7Mq1Rx5Tz9Ub2Vd6Yf0Hg4Ni8Lp3Oc7Sa1We5Qr", "doppler-token"),
    "supabase-token": ("supabase sbp_7c1e9a3f5b2d8c4e6a0f1b7d3e9c5a2f8b4d6e0a here",
                       "7c1e9a3f5b2d8c4e6a0f1b7d3e9c5a2f8b4d6e0a", "supabase-token"),
    "netlify-token": ("netlify nfp_Bv8Nc2Mx6Lz0Kq4Jw9Hr3Gt7Fy1Dp5Se8Au2Ci here",
                      "Bv8Nc2Mx6Lz0Kq4Jw9Hr3Gt7Fy1Dp5Se8Au2Ci",
                      "netlify-token"),
    "fly-token": ("fly fo1_Rn5Tb9Wx3Zc7Qm1Lv6Kp0Hs4Jd8Gf2Ya5Ue9Io3Ow7E here",
                  "Rn5Tb9Wx3Zc7Qm1Lv6Kp0Hs4Jd8Gf2Ya5Ue9Io3Ow7E",
                  "fly-token"),
    "twilio auth token": ('Client("AC0123456789abcdef0123456789abcdef", "f0e1d2c3b4a5968778695a4b3c2d1e0f") here',
                          "f0e1d2c3b4a5968778695a4b3c2d1e0f", "twilio-auth-token"),
    "docker auth": ('{"auths": {"ghcr.io": {"auth": "Ym9iOnBhc3N3b3JkMTIz"}}} here', "Ym9iOnBhc3N3b3JkMTIz",
                    "registry-auth"),
    "sudo -S": ("sudo -S <<< 'Sud0Pw4Root' apt update", "Sud0Pw4Root", "cli-password"),
    "netrc": ("machine api.example.com\n  login bob\n  password N3trcPw4Bob\nthen", "N3trcPw4Bob", "netrc-password"),
    "KEY class": ("signing_key: 7f3a9c2e1b4d8f60a5c3 here", "7f3a9c2e1b4d8f60a5c3", "high-entropy"),
    "KEY class, short": ("STRIPE_KEY=pk9Lm2Qx7Z here", "pk9Lm2Qx7Z", "assignment"),
    "CREDENTIAL class": ('{"db_credential": "Cr3dV4lu3Xy"} here', "Cr3dV4lu3Xy", "assignment"),
    "TOML, keyword first": ('[db]\npassword_prod = "Tm9lPa55Wq7z"\nport = 5432', "Tm9lPa55Wq7z", "assignment"),
    "echo | sudo -S": ("echo 'Pip3dSud0Pw' | sudo -S systemctl restart app", "Pip3dSud0Pw", "cli-password"),
    "square access token": ("square EAAAq3Wm8Zt5Rk1Yb7Nc4Lv0Hs6Gd2Fj9Pe5Ux8Ai3Oq7Tw1Mz4Kb6Ny0Cr2Ve9Sg here",
                            "q3Wm8Zt5Rk1Yb7Nc4Lv0Hs6Gd2Fj9Pe5Ux8Ai3Oq7Tw1Mz4Kb6Ny0Cr2Ve9Sg", "square-token"),
    # issue 37, part 3: shapes that still leaked, each the example of a class (tests/test_redact_prose.py)
    "aws secret, no name": ("I set it to wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK8q3LmN9p then",
                            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK8q3LmN9p", "aws-secret-key"),
    "azure sas sig": ("get https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=Q3Wm8Zt5Rk1Yb7Nc4Lv0Hs6Gd2Fj9Pe5Ux"
                      "Ai3Oq7Tw then", "Q3Wm8Zt5Rk1Yb7Nc4Lv0Hs6Gd2Fj9Pe5Ux", "azure-sas"),
    "discord webhook": ("post to https://discord.com/api/webhooks/1234567890123456789/Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua"
                        "8Lo1Ab2CdEfGhIjKlMnOpQrStUvWx then",
                        "Xk29fLq8Rm3Tz7Wv1Yp4Ns6Bd0Hj5Gc2Qe9Ua8Lo1Ab2CdEfGhIjKlMnOpQrSt", "webhook-url"),
    "age secret key": ("age AGE-SECRET-KEY-1QQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQQPZ"
                       " then", "QQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQQPZ",
                       "age-secret-key"),
    "password in prose": ("the staging admin password is Hx7!stagingAdm1n then", "Hx7!stagingAdm1n", "password"),
    "DB_PASS holds Pass": ("export DB_PASS=WinterPass_2024 then", "WinterPass_2024", "assignment"),
    "docker auth in an error": ("error: failed to authorize: ZGVwbG95OmhtY09KRVpxZ3lnY210YmE= rejected then",
                                "ZGVwbG95OmhtY09KRVpxZ3lnY210YmE", "basic-credentials"),
    "stripe split, unquoted": ("the key sk_live_51HqLyjWDarjtT1zdp7dc\nXk29fLq8Rm3Tz7Wv1 is the live one then",
                               "Xk29fLq8Rm3Tz7Wv1", "stripe-key"),
}
WINDOW = 12


def _echo(tok: str, typed: str) -> dict:
    """An answer that repeats what the user typed in every field, lists, frontmatter and key names included."""
    return {
        typed: "an unknown key",
        "decisions": [{"summary": f"Rotate credential {tok} {typed}", "context": f"found {typed}",
                       "alternatives": [typed], "rationale": typed, "tags": [typed], typed: 1}],
        "failures": [{"summary": f"Leaked credential {tok} {typed}", "root_cause": typed, "resolution": typed,
                      "prevention": typed, "tags": [typed]}],
        "learnings": [{"title": f"Credential {tok} {typed}", "learning": f"It was {typed}", "context": typed,
                       "scope": typed, "tags": [typed, typed.split()[-1]]}],
        "handoff": [f"rotate {typed} for {tok}"],
    }


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def leaks(text: str, secret: str) -> list[str]:
    """Runs of WINDOW letters and digits of ``secret`` found in ``text`` (case and punctuation ignored)."""
    core, hay = _squash(secret), _squash(text)
    size = min(WINDOW, len(core))
    return sorted({core[i:i + size] for i in range(len(core) - size + 1) if core[i:i + size] in hay})


def _readable(path: str, text: str) -> str:
    """A journal as what it holds: its ``before`` copies of files base64-decoded. why: a window of the
    base64 of our own redaction marker ("[REDACTED:password]" holds ":password") can equal a window of a
    base64 secret; what matters is whether the secret is in the files the journal kept."""
    if os.sep + "journal" + os.sep not in path or not path.endswith(".json"):
        return text
    import base64

    try:
        data = json.loads(text)
    except ValueError:
        return text
    for entry in data.get("files") or []:
        if isinstance(entry, dict) and isinstance(entry.get("before"), str):
            entry["before"] = base64.b64decode(entry["before"]).decode("utf-8", "replace")
    return json.dumps(data, ensure_ascii=False)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("secrets")
    with rig.private_home(tmp) as (home, model):
        rig.configure(home, redact_patterns=[CUSTOM])
        tokens, answers, payloads, memory = {}, {}, [], {}
        for n, (kind, (typed, _, _)) in enumerate(KINDS.items()):
            proj = rig.project(tmp, f"project-{n}")  # why: one project per kind, so each handoff stays
            tok = rig.new_token()
            tokens[kind], memory[kind] = tok, rig.memory(proj)
            answers[tok] = _echo(tok, typed)
            payloads.append(rig.session(proj, tok, typed=typed))
        # and a session whose answer is unusable prose quoting every secret: it fails after its
        # retries, and the reason lands in worker.log, the failed task and its .error file
        garbage = rig.new_token()
        answers[garbage] = "Sorry, I cannot answer in JSON. " + " ".join(t for t, _, _ in KINDS.values())
        payloads.insert(0, rig.session(rig.project(tmp, "prose"), garbage))
        crash = rig.new_token()  # and one whose model call dies with every secret in its stderr
        answers[crash] = {"__fail__": "Error: request failed for " + " ".join(t for t, _, _ in KINDS.values())}
        payloads.insert(0, rig.session(rig.project(tmp, "stderr"), crash))
        fake_claude.control(model, mode="ok", answers=answers, need_token=True)
        rig.end_sessions_then_drain(payloads)
        transcripts = {p["transcript_path"] for p in payloads}
        written = {}
        for d, _, names in os.walk(tmp):
            for name in names:
                path = os.path.join(d, name)
                if path in transcripts or name == fake_claude.CONTROL:
                    continue  # the session itself, and the answer we made the fake give
                if os.path.dirname(path) == os.path.dirname(hotload.bundle_file()):
                    continue  # our own modules compiled for the hooks (hotload.py): nothing a session wrote
                with open(path, encoding="utf-8", errors="replace") as fh:
                    written[path] = _readable(path, fh.read())
        return {"tokens": tokens, "calls": {c["token"]: c for c in fake_claude.calls(model)}, "written": written,
                "memory": memory, "learnings": paths.learnings_dir(), "failed": rig.tasks("failed"),
                "done": len(rig.tasks("done")), "index": paths.recall_index_file()}


@pytest.mark.parametrize("kind", KINDS)
def test_a_typed_secret_never_reaches_the_prompt(run, kind):
    typed, secret, marker = KINDS[kind]
    call = run["calls"][run["tokens"][kind]]
    prompt = call["stdin"]
    assert leaks(prompt, secret) == []
    assert f"[REDACTED:{marker}]" in prompt  # replaced, not dropped: the rest of the message is there
    assert f"{run['tokens'][kind]} " in prompt


@pytest.mark.parametrize("kind", KINDS)
def test_a_secret_echoed_by_the_model_is_never_written_but_the_entry_is(run, kind):
    _, secret, marker = KINDS[kind]
    found = {path: hits for path, text in run["written"].items() if (hits := leaks(text, secret))}
    assert found == {}
    tok = run["tokens"][kind]
    assert len(run["failed"]) == 2 and run["done"] == len(KINDS)  # the prose and stderr ones failed, as they should
    mem = run["memory"][kind]
    for name in ("decisions.jsonl", "failures.jsonl"):
        [rec] = rig.jsonl(os.path.join(mem, name))
        assert tok in rec["summary"] and f"[REDACTED:{marker}]" in json.dumps(rec)
    handoff = run["written"][os.path.join(mem, "handoff.md")]
    assert "] rotate " in handoff and f"[REDACTED:{marker}]" in handoff and tok in handoff
    learned = [text for path, text in run["written"].items()
               if path.startswith(run["learnings"] + os.sep)
               and re.search(rf"^title: ['\"]?Credential {tok} ", text, re.M)]  # quoted when the title holds ": "
    assert len(learned) == 1 and f"[REDACTED:{marker}]" in learned[0]


def test_the_search_index_was_written_and_checked_too(run):
    # "never written" covers the index: it is built after each session, from the redacted files
    assert run["index"] in run["written"]
