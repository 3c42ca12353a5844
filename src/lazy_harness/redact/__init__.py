"""Replace credential-shaped text by ``[REDACTED:<kind>]`` before it leaves the machine or hits disk.

The worker runs this twice: on the prompt (a session transcript is full of pasted config, env dumps
and tool output) and on the model's answer before anything is written (the model may echo a secret
back). It is a net for common shapes, not a guarantee; extra regular expressions come from config
``compound_loop.redact_patterns`` and are replaced by ``[REDACTED:custom]``.

Kinds, applied in this order (earlier kinds win, a marker is never redacted again):
  private-key      -----BEGIN ... PRIVATE KEY----- (and PGP PRIVATE KEY BLOCK) through END, or to
                   the end of the base64 body and its headers when the END line is missing; the
                   dashes may be written \\u002d (JSON from an encoder that escapes "-")
  aws-access-key   AKIA/ASIA/ABIA/ACCA + 16 upper-case letters or digits
  github-token     ghp_/gho_/ghu_/ghs_/ghr_ tokens and github_pat_ fine-grained tokens
  gitlab-token     glpat-/glptt-/gldt-/glrt-/glsoat- + 20 or more characters
  anthropic-key    sk-ant-...
  openai-key       sk-..., sk-proj-... (a long body with at least one digit)
  slack-webhook    the path of https://hooks.slack.com/services/... (the host is kept)
  slack-token      xoxb-/xoxp-/xoxa-/xoxr-/xoxs-/xoxe-, xoxe.xoxp-, xapp-...
  stripe-key       sk_live_/rk_live_/sk_test_..., and whsec_ (a webhook signing secret)
  mailgun-key      key- + 32 small letters and digits (with both)
  mailchimp-key    32 hex digits + -us + the data centre's number (found from the literal "-us")
  square-token     sq0atp-/sq0csp- tokens, and EAAA + 56 to 72 base64url characters of mixed case and digits
  doppler-token    dp.st./dp.pt./dp.ct./dp.sa./dp.scim./dp.audit. (an environment name may follow) + 40 to 44
  supabase-token   sbp_ + 40 hex digits, sb_secret_...
  netlify-token    nfp_ + 36 to 64 letters and digits (with a digit)
  fly-token        fo1_ + 30 or more base64url characters; fm1_/fm2_ macaroons
  google-api-key   AIza + 35 characters
  google-oauth-token ya29. + 30 or more base64url characters (an OAuth access token)
  google-client-secret GOCSPX- + 24 to 40 base64url characters
  npm-token        npm_ + 36 letters and digits (with a digit: not npm_config_...)
  huggingface-token hf_ + 34 to 40 letters and digits, about as many capitals as a random string has
  pypi-token       pypi-AgE... (an upload token)
  sendgrid-key     SG.<22>.<43>
  twilio-key       SK + 32 hex digits
  digitalocean-token dop_v1_/doo_v1_/dor_v1_ + 64 hex digits
  shopify-token    shpat_/shpss_/shpca_/shppa_ + 32 hex digits
  grafana-token    glsa_ + 32 letters and digits + _ + 8 hex digits; glc_ + 32 or more base64
  linear-key       lin_api_ + 40 letters and digits
  postman-key      PMAK- + 24 hex digits + - + 34 hex digits
  sentry-token     sntrys_ + 40 or more base64 characters, sntryu_ + 64 hex digits
  newrelic-key     NRAK- + 27 capitals and digits
  atlassian-token  ATATT3 + 150 to 300 base64url characters
  databricks-token dapi + 32 hex digits (and -2 and the like)
  age-secret-key   AGE-SECRET-KEY-1 + 58 bech32 characters
  discord-token    a user id in base64url (M, N or O, then T, j, z or D; 23 to 28 characters) . 6 or
                   7 . 27 to 40, with a digit and a mixed-case last part (not a chain of names)
  telegram-bot-token ":AA" + 32 or 33 base64url characters after a bot's id (6 to 12 digits), which stays
  vault-token      hvs./hvb./hvr. + 24 or more base64url characters; the older s./b./r. + 24 letters
                   and digits only as the ``token`` row of vault's output or after ``vault login``
  azure-sas        the sig= of a SAS URL: 43 base64 characters and "=", URL-encoded or not (the rest
                   of the URL is kept; a sig= of another length is another service's)
  jwt              eyJ... . ... . ... (three base64url parts)
  bearer           ``Bearer <token>`` / ``Basic <credentials>``, and ``Authorization: token <token>``
  url-password     the password in ``scheme://user:password@host``; the user may be empty and the
                   password may hold "/", but ``host:8080/path@x`` is a port
  cli-password     ``curl -u user:pw`` / ``--user``, ``docker login -p pw`` / ``--password``,
                   ``mysql -ppw`` / ``-p'pw'`` glued (``-p db`` asks for it; ``-p3306:3306`` is a
                   port), ``sshpass -p pw`` / ``-ppw`` (an ``ssh -p 22`` after it is a port)
  assignment       ``password=``, ``secret:``, ``token=``, ``api_key:``, ``pass=``, ``pwd=``... (the
                   name is kept; quoted or not, the other quote may be inside a quoted value; JSON
                   ``"password": "x"`` too, and JSON in a JSON string, ``{\\"password\\": \\"x\\"}``:
                   the quotes escaped alike around the name and the value). The keyword is the name's
                   last part; password words and "secret" count glued to the word before them too
                   (PGPASSWORD, dbPassword, clientSecret), other keywords do not (mytoken, maxToken).
                   An unquoted value runs to a space or a quote ("Tr0ub4dor&3" whole); "," ";" "&"
                   end it before the next ``name=`` (``?a=1&b=2``) or at its end, a ")" with no "("
                   ends it, and a final "." or "`" is the sentence's, kept after the marker.
                   References and code are left alone: ``$VAR``, ``{name}``, ``os.environ[...]``,
                   calls, an attribute chain of a config object or ending in a name like the keyword
                   or in snake_case (``self.pw``, ``settings.DB_PASSWORD``, ``form.cleaned_data``;
                   not ``my.secret.pw``), ``None``/``null``/type names, a variable named like the
                   keyword (``password=password``, ``token=access_token``), placeholders (``***``,
                   ``<your-key>``), ARN parts (``...:secret:name``). After a colon, an unquoted plain
                   lower-case word is prose ("the token: expired"), not a value, except after a
                   password name. "pass" and "pwd" alone are often something else: after a colon they
                   count only with a prefix (``DB_PASS: x``, not "first pass: x"), and a pwd that is
                   a path is the shell's (``PWD=/home/me``).
  cli-password     (more) a password piped into or fed as a here-string to ``sudo -S``/``--stdin``:
                   ``echo pw | sudo -S``, ``printf '%s' pw | sudo -S``, ``sudo -S cmd <<< 'pw'`` (only
                   sudo's own options before the -S: ``sudo pacman -Syu`` is pacman's)
  netrc-password   ``machine <host> [login u] [account a] password p`` on one line or several; the
                   host has a dot or a digit or is localhost (not "machine learning"); ``default login``
  twilio-auth-token 32 hex digits after a Twilio account SID (AC + 32 hex) on the same line; the SID stays
  registry-auth    docker's config.json ``"auth"`` and .npmrc's ``_auth``: 12+ base64 characters with a
                   digit or 3 capitals, not a CamelCase class name and not a call
  high-entropy     a value of 20+ characters with Shannon entropy >= 3.5 bits per character, holding a
                   digit or mixed case, assigned to a variable whose name says key, secret or token
                   (``export STRIPE_SECRET_LIVE=...``, ``MY_KEY_ID=...``), unless it is code as
                   above (``SECRET_KEY=app.config.SECRET_KEY``, ``tokens = s.encodeAll2(x)``).
  aws-secret-key   a bare 40-character [A-Za-z0-9/+] run with capitals, small letters, a digit or
                   symbol and >= 4.2 bits per character, only within 200 characters of "aws" or
                   "secret" (any case): base64 data elsewhere holds such runs by chance.

  assignment       (more, names.py) a keyword (pass, pwd, secret, token, key, cred...) anywhere in a
                   longer name: ``DB_PASS_2=``, ``signingKey:``, ``gcp_credentials =``, and the forms
                   with spaces only (``--api-key v``, ``ENV NAME v``, ``set -gx NAME v``); judged
                   with the value, more strictly than above (rules in names.py's docstring).
  assignment values may be a quoted value wrapped over up to 3 more lines before its closing quote,
                   or a YAML block scalar (``password: |`` and the indented lines below).

A secret wrapped onto a second line (a terminal, a folded config value) goes whole: when a token of
open length (github, gitlab, anthropic, openai, slack, stripe, pypi, ya29., glc_, sntrys_, hv?., jwt),
an unquoted assignment or a high-entropy value ends its line, the next line goes with it if it is made
only of the same characters (after an indent; "=" only as padding at its end), 8 to 1,000 of them,
with a letter and a digit or 16+ with capitals and small letters, and may end in a closing quote
(``STRIPE="sk_live_...`` then ``...rest"``): ``ls``, ``python3``, ``LoginForm``, ``2024-01-01``,
``/usr/bin/python3``, ``DB_HOST=db1`` or ``-----`` stay.
"""

from __future__ import annotations

import re
from functools import lru_cache
from collections.abc import Iterable
from typing import Any

from lazy_harness.redact import names
from lazy_harness.redact.matches import (_base64_credentials, _keep_first, _mailchimp, _mixed_case, _mysql,
                                         _random_parts, _scrambled, _unless_reference)
from lazy_harness.redact.values import (MARK, _ENTROPY_LEN, _aws_secrets,
                                        _replace_assignment, _replace_keyish, _telegram)

# Names whose value is a credential whatever it looks like: the keyword is the name's last part,
# so ``max_tokens`` and ``token_count`` stay untouched. Longer words first (alternation order).
_SECRET_WORD = (r"(?:secret[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|"
                r"api[_-]?key|apikey|password|passwd|passphrase|pass|pwd|secret|token)")


def _lead(literal: str, rest: str = "", width: int = 0) -> str:
    """``literal`` (``width`` characters, the length of a plain string by default) not glued to a
    word before it, then ``rest``.

    # why: the check comes after the literal, not before it: a pattern that starts with a plain
    # string lets the regex engine skip to its occurrences, tens of times faster on a megabyte.
    """
    return literal + r"(?<![A-Za-z0-9_]" + "." * (width or len(literal)) + ")" + rest


def _wrapped(chars: str, group: str = "") -> str:
    """An optional next line that carries on a match ending at the end of its line: after an indent,
    8 to 1,000 of ``chars`` and nothing else (an "=" only as padding at its end, not a "/" first),
    with a letter and a digit, or 16 or more with capitals and small letters. A word, a command, a
    date, a path, ``NAME=value`` or a rule of dashes on the next line stays.

    # why: terminals and config files wrap long secrets; the tail left alone would reach the model.
    # A tail under 8 characters of a long secret is harmless and "python3" or "x86_64" is not one.
    # The case test is case-sensitive even in a re.IGNORECASE pattern.
    """
    c = "[" + chars.replace("=", "") + "]"
    line = (r"\r?\n[ \t]*(?!/)(?-i:(?=" + c + r"{0,999}?\d)(?=" + c + r"{0,999}?[A-Za-z])|(?=" + c + r"{0,999}?[A-Z])"
            r"(?=" + c + r"{0,999}?[a-z])(?=" + c + r"{16}))" + c + r"{8,1000}" + ("={0,2}" if "=" in chars else "")
            + r"(?=\\{0,7}[\"'`]|[,;]?[ \t]*(?![^\r\n]))")
    return "(?" + (f"P<{group}>" if group else ":") + line + ")?"


_END = r"(?![A-Za-z0-9_])"  # a token's end: no word character follows
_END64 = r"(?![A-Za-z0-9_-])"  # the end of a base64url token


def _compile() -> list[tuple[str, re.Pattern[str], Any]]:
    """(kind, pattern, replace): ``replace`` is None (the whole match becomes the marker) or a
    callable given the match and the marker, returning the new text (the match itself to keep it).
    The order is the module docstring's: an earlier kind wins."""
    return [*_private_keys(), *_platform_tokens(), *_service_tokens(), *_tokens_in_context(),
            *_passwords_after_commands()]


def _private_keys() -> list[tuple[str, re.Pattern[str], Any]]:
    """A PEM or PGP private key block, its dashes plain or escaped by a JSON encoder."""
    # a private key's dashes, or the same written "\u002d" by a JSON encoder that escapes "-"
    dashes = r"(?:-----|(?:\\u002[dD]){5})"
    key_end = r"PRIVATE KEY(?: BLOCK)?" + dashes
    # a header line of a PEM or PGP block, in plain text or in a JSON string (escaped newlines)
    header = r"(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset):(?:[^\n\\]|\\(?![rn])){0,200}"
    base64 = r"(?:[A-Za-z0-9+/=]|\\/|\\u00(?:2[bBfF]|3[dD])){8,}"  # "/", "+", "=" may be escaped in JSON
    key = (r"BEGIN[A-Z0-9 ]*" + key_end + r"(?:.{0,16384}?" + dashes + r"END[A-Z0-9 ]*" + key_end
           + r"|(?:(?:\s|\\[rn])*(?:" + base64 + r"|=[A-Za-z0-9+/]{4}|" + header + r"))*)")
    return [
        ("private-key", re.compile(r"-----" + key, re.S), None),
        ("private-key", re.compile(r"\\u002[dD](?:\\u002[dD]){4}" + key, re.S), None),
    ]


def _platform_tokens() -> list[tuple[str, re.Pattern[str], Any]]:
    """Tokens a prefix names: cloud, code hosting, AI, chat, payment and package platforms."""
    e, e64, more64 = _END, _END64, _wrapped("A-Za-z0-9_-")
    return [
        ("aws-access-key", re.compile(_lead("A(?:KIA|SIA|BIA|CCA)", r"[A-Z0-9]{16}" + e, 4)), None),
        ("github-token", re.compile(
            r"(?:" + _lead("gh[pousr]_", r"[A-Za-z0-9]{30,255}", 4) + "|"
            + _lead("github_pat_", r"[A-Za-z0-9_]{22,255}") + ")" + e + _wrapped("A-Za-z0-9_")), None),
        ("gitlab-token", re.compile(_lead("gl", r"(?:pat|ptt|dt|rt|soat)-[A-Za-z0-9_.-]{19,299}[A-Za-z0-9_-]"
                                          + _wrapped("A-Za-z0-9_.-"))), None),
        ("anthropic-key", re.compile(_lead("sk-ant-", r"[A-Za-z0-9_-]{20,400}" + more64)), None),
        ("openai-key", re.compile(_lead("sk-", r"(?!ant-)(?:proj-|svcacct-|admin-)?"  # a digit: not "sk-learn-..."
                                              r"(?=[A-Za-z0-9_-]{0,400}?\d)[A-Za-z0-9_-]{20,400}" + more64)), None),
        ("slack-webhook", re.compile(r"(https://hooks\.slack\.com/(?:services|workflows|triggers)/)"
                                     r"[A-Za-z0-9_/-]{20,300}" + _wrapped("A-Za-z0-9_/-")), _keep_first),
        ("slack-token", re.compile(_lead("x", r"(?:ox[abposre](?:\.xox[a-z])?|app)-[A-Za-z0-9-]{10,300}"
                                         + _wrapped("A-Za-z0-9-"))), None),
        *[("stripe-key", re.compile(_lead(p + "k_", r"(?:live|test)_[A-Za-z0-9]{16,300}" + _wrapped("A-Za-z0-9"))),
           None) for p in "srp"],
        ("stripe-key", re.compile(_lead("whsec_", r"[A-Za-z0-9+/]{24,100}={0,2}(?![A-Za-z0-9+/=_-])")), None),
        ("mailgun-key", re.compile(_lead("key-", r"(?=[a-z]{0,31}\d)(?=\d{0,31}[a-z])[0-9a-z]{32}" + e64)), None),
        ("square-token", re.compile(_lead("sq0", r"(?:atp-[A-Za-z0-9_-]{22,60}|csp-[A-Za-z0-9_-]{40,60})" + e64)),
         None),
        ("square-token", re.compile(_lead("EAAA", r"[A-Za-z0-9_-]{56,72}(?![A-Za-z0-9_+/=-])")), _mixed_case),
        ("doppler-token", re.compile(_lead(r"dp\.", r"(?:pt|st|ct|sa|scim|audit)\.(?:[A-Za-z0-9_-]{1,40}\.)?"
                                                  r"[A-Za-z0-9]{40,44}" + e, 3)), None),
        ("supabase-token", re.compile(_lead("sbp_", r"(?:v0_)?[a-f0-9]{40}" + e)), None),
        ("supabase-token", re.compile(_lead("sb_secret_", r"[A-Za-z0-9_-]{20,200}" + e64)), None),
        ("netlify-token", re.compile(_lead("nfp_", r"(?=[A-Za-z]{0,63}\d)[A-Za-z0-9]{36,64}" + e)), None),
        ("fly-token", re.compile(_lead("fo1_", r"[A-Za-z0-9_-]{30,100}" + e64)), None),
        ("fly-token", re.compile(_lead("fm[12]_", r"(?=[A-Za-z+/=_-]{0,99}\d)[A-Za-z0-9+/=_-]{40,4000}", 4)), None),
        ("google-api-key", re.compile(_lead("AIza", r"[A-Za-z0-9_-]{35}" + e)), None),
        ("google-oauth-token", re.compile(_lead(r"ya29\.", r"[A-Za-z0-9_-]{30,2000}" + more64, 5)), None),
        ("google-client-secret", re.compile(_lead("GOCSPX-", r"[A-Za-z0-9_-]{24,40}" + e64)), None),
        ("npm-token", re.compile(_lead("npm_", r"(?=[A-Za-z]{0,35}\d)[A-Za-z0-9]{36}" + e)), None),
        ("huggingface-token", re.compile(_lead("hf_", r"[A-Za-z0-9]{34,40}" + e)), _scrambled),
        ("pypi-token", re.compile(_lead("pypi-AgE", r"[A-Za-z0-9_-]{50,1000}" + more64)), None),
    ]


def _service_tokens() -> list[tuple[str, re.Pattern[str], Any]]:
    """Tokens a prefix or a shape names: mail, hosting, monitoring and chat services, age keys."""
    e, e64 = _END, _END64
    return [
        ("sendgrid-key", re.compile(_lead(r"SG\.", r"[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])", 3)),
         None),
        ("twilio-key", re.compile(_lead("SK", r"[0-9a-fA-F]{32}" + e)), None),
        ("digitalocean-token", re.compile(_lead("do", r"[opr]_v1_[a-f0-9]{64}" + e)), None),
        ("shopify-token", re.compile(_lead("shp", r"(?:at|ss|ca|pa)_[a-fA-F0-9]{32}" + e)), None),
        ("grafana-token", re.compile(_lead("gl", r"(?:sa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}" + e + "|"
                                           r"c_[A-Za-z0-9+/]{32,400}={0,2}(?![A-Za-z0-9+/=])"
                                           + _wrapped("A-Za-z0-9+/=") + ")")), None),
        ("linear-key", re.compile(_lead("lin_api_", r"[A-Za-z0-9]{40}" + e)), None),
        ("postman-key", re.compile(_lead("PMAK-", r"[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}" + e)), None),
        ("sentry-token", re.compile(_lead("sntry", r"(?:u_[a-f0-9]{64}" + e + "|"
                                              r"s_[A-Za-z0-9+/=_]{40,2000}" + _wrapped("A-Za-z0-9+/=_") + ")")), None),
        ("newrelic-key", re.compile(_lead("NRAK-", r"[A-Z0-9]{27}" + e)), None),
        ("atlassian-token", re.compile(_lead("ATATT3", r"[A-Za-z0-9_=-]{150,300}(?![A-Za-z0-9_=-])")), None),
        ("databricks-token", re.compile(_lead("dapi", r"[a-f0-9]{32}(?:-\d)?" + e)), None),
        ("age-secret-key", re.compile(_lead("AGE-SECRET-KEY-1", r"[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}" + e)), None),
        # why: the first part is a user id (digits) in base64url, so it starts M, N or O and then T, j, z or
        # D; a pattern per letter keeps a plain string in front, the engine skips to it
        *[("discord-token", re.compile(_lead(c, r"[TjzD][A-Za-z0-9_-]{21,26}\.[A-Za-z0-9_-]{6,7}\."
                                                r"[A-Za-z0-9_-]{27,40}" + e64)), _random_parts) for c in "MNO"],
        # why: starts with the literal ":AA" (the engine skips to it); the digits before are checked after
        ("telegram-bot-token", re.compile(r":AA(?<=[0-9]:AA)[A-Za-z0-9_-]{32,33}" + e64), _telegram),
    ]


def _tokens_in_context() -> list[tuple[str, re.Pattern[str], Any]]:
    """Vault tokens, an Azure SAS signature, a JWT, an Authorization header, a URL's password."""
    e64, more64 = _END64, _wrapped("A-Za-z0-9_-")
    legacy_vault = r"[sbr]\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.])"
    return [
        ("vault-token", re.compile(_lead("hv", r"[sbr]\.[A-Za-z0-9_-]{24,1000}" + e64 + more64)), None),
        # why: "s." and 24 letters and digits (Vault before 1.10) is too common a shape alone: only as
        # the token row of vault's output or after "vault login"
        ("vault-token", re.compile(r"(token(?<![^\n].{5})[ \t]+)" + legacy_vault), _keep_first),
        ("vault-token", re.compile(r"(" + _lead("vault", r"[ \t]+login(?:[ \t]+-\S+)*[ \t]+)") + legacy_vault),
         _keep_first),
        # why: only the 32-byte signature of an Azure SAS URL; "sig=" is a parameter of many other URLs
        ("azure-sas", re.compile(r"(sig=)(?<=[?&;]sig=)(?:[A-Za-z0-9+/]|%2[BbFf]){43}(?:=|%3[Dd])"
                                 r"(?![A-Za-z0-9+/%])"), _keep_first),
        ("jwt", re.compile(_lead("eyJ", r"[A-Za-z0-9_-]{5,4000}\.[A-Za-z0-9_-]{5,8000}\.[A-Za-z0-9_-]{8,4000}"
                                 + more64)), None),
        # why: "token <x>" only in an Authorization header: "the token authorization/..." is prose
        ("bearer", re.compile(r"((?:" + _lead("bearer") + "|" + _lead("basic") + r")\s+|" + _lead("authorization")
                              + r"[\"']?[ \t]*[:=][ \t]*[\"']?token[ \t]+)[A-Za-z0-9._~+/-]{16,4000}=*", re.I),
         _keep_first),
        # the user part may be empty; the password may hold "/", but "host:8080/path@x" is a port.
        # why: (?<!...) the colon of a marker in the user part ("https://ghp_...@github.com") is not a
        # separator: the marker is never redacted again
        ("url-password", re.compile(r"(?P<keep>://[^\s:/@]{0,200}:)(?<!\[REDACTED:)(?!\d{1,5}(?:[/?#]|$))"
                                    r"(?P<value>[^\s@\"'<>]{1,300})(?=@)"), _unless_reference),
    ]


def _passwords_after_commands() -> list[tuple[str, re.Pattern[str], Any]]:
    """Passwords given to a command (curl, docker, mysql, sudo, sshpass), a .netrc entry, a Twilio
    auth token after its account, a registry's base64 auth."""
    e = _END
    value = r"(?P<value>(?(q)[^\"'\n]{1,300}|[^\s\"']{1,300}))"  # to the closing quote, or a word
    # a value that may sit in a JSON string: no backslash (a quote around it may be escaped, \\"); 3
    # characters at least ("pw" and "x" are how docs write a password)
    plain_value = r"(?P<value>(?(q)[^\"'\n\\]{3,300}|[^\s\"'\\]{3,300}))"
    # sudo, its own options (some take an argument), then -S or --stdin
    sudo_stdin = _lead("sudo", r"(?:[ \t]+-(?:[A-Za-z]*[ugpCDhrtU][ \t]+[^\s-]\S*|-?[A-Za-z][A-Za-z-]*(?:=\S+)?))*?"
                               r"[ \t]+(?:-[A-Za-z]*S[A-Za-z]*|--stdin)(?![A-Za-z-])")
    host = r"[ \t]+(?=[^\s.]*[.\d]|localhost)\S+"  # a name with a dot or a digit: not "machine learning"
    piped = r"(?(q)(?P=q))[ \t]*\|[ \t]*" + sudo_stdin
    return [
        # why: "-u user:pw" is a password to curl only (``docker run -u 1000:1000`` is a uid)
        ("cli-password", re.compile(
            r"(?P<keep>" + _lead("curl", r"\b[^\n;|&]{0,500}?[ \t](?:-u|--user)(?:[ \t]+|=)"
                                 r"(?P<q>[\"'])?[^\s:\"']{0,200}:)(?<!\[REDACTED:)") + value), _unless_reference),
        ("cli-password", re.compile(
            r"(?P<keep>" + _lead("(?:docker|podman)", r"\b[^\n;|&]{0,300}?[ \t]login\b[^\n;|&]{0,300}?"
                                 r"[ \t](?:-p|--password)(?:[ \t]+|=)(?P<q>[\"'])?)", 6) + value), _unless_reference),
        # why: mysql's password is glued to -p: "-p secret" asks for it and "secret" is the database;
        # "-p3306:3306" is docker's port mapping on a line that names a mysql image. The match starts
        # at the option and _mysql looks back for the command: a scan from every "mysql" is quadratic.
        ("cli-password", re.compile(r"(?P<keep>-p(?<=[ \t]-p)(?P<q>[\"'])?)(?![\d.]+:[\d.:]*(?:/[a-z]+)?(?!\S))"
                                    + value), _mysql),
        # why: a password piped or fed as a here-string to "sudo -S" (it reads stdin); only sudo's own
        # options may come before the -S ("sudo pacman -Syu" is pacman's)
        ("cli-password", re.compile(r"(?P<keep>" + sudo_stdin + r"[^\n|;&]{0,300}?<<<[ \t]*(?P<q>\\{0,7}[\"'])?)"
                                    + plain_value), _unless_reference),
        ("cli-password", re.compile(r"(?P<keep>" + _lead("echo", r"(?:[ \t]+-[neE]{1,3})*[ \t]+(?P<q>\\{0,7}[\"'])?)")
                                    + plain_value + piped), _unless_reference),
        ("cli-password", re.compile(r"(?P<keep>" + _lead("printf", r"(?:[ \t]+(?:'%s[^'\n]*'|\"%s[^\"\n]*\"))?"
                                                                   r"[ \t]+(?P<q>\\{0,7}[\"'])?)")
                                    + plain_value + piped), _unless_reference),
        # .netrc: "machine h login u password p" on one line or several ("default" is any machine)
        *[("netrc-password", re.compile(r"(?P<keep>" + _lead(word, after + r"(?:\s+(?:login|account|port)[ \t]+\S+)"
                                                             r"{0,3}\s+password[ \t]+(?P<q>\\{0,7}[\"'])?)")
                                        + plain_value), _unless_reference)
          for word, after in (("machine", host), ("default", r"(?=\s+login[ \t])"))],
        # why: a Twilio auth token is 32 hex digits, like any MD5: only after the account SID it goes with
        ("twilio-auth-token", re.compile(r"(" + _lead("AC", r"[0-9a-f]{32}" + e + r"[^\n]{0,200}?") + r")"
                                         r"(?<![A-Za-z0-9_])[0-9a-f]{32}" + e), _keep_first),
        # docker's config.json "auth" and .npmrc's _auth: base64 of user:password
        ("registry-auth", re.compile(r"(auth(?<![A-Za-z0-9]auth)(?:" + _QUOTE + r")?[ \t]*[:=][ \t]*(?:" + _QUOTE
                                     + r")?)[A-Za-z0-9+/]{12,2000}={0,2}(?![A-Za-z0-9+/=_.(-])"), _base64_credentials),
        # why: sshpass's own options come before the command it runs: "ssh -p 22" after them is a port
        ("cli-password", re.compile(
            r"(?P<keep>" + _lead("sshpass", r"(?:[ \t]+-[ev]|[ \t]+-[fdP][ \t]*(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+))*"
                                 r"[ \t]+-p[ \t]*(?P<q>[\"'])?)") + value), _unless_reference),
    ]


# A quote, or a quote escaped in a JSON string (\", \\\" in JSON inside JSON): both around the name and
# around the value, the value's closing quote escaped like its opening one.
_QUOTE = r"\\{0,7}[\"']"
_WRAPPED_CHARS = "A-Za-z0-9+/=_-"  # a value's next line: base64 and base64url ("." would take "main2.py")
# why: the match starts at the keyword and the name's prefix is checked in Python: a regex that
# walks the prefix segments first is slow on long dashed words.
_VALUE = (
    # a quoted value: to the same quote on its line (the other quote may be inside), or a value of
    # no spaces wrapped onto up to 3 more lines before its closing quote (a terminal, a folded config)
    r"(?:(?P<qv>" + _QUOTE + r")(?P<quoted>(?:(?!(?P=qv))[^\n]){1,500}"
    r"|[^\s\"'\\]{1,500}(?:\r?\n[ \t]*[^\s\"'\\]{1,500}){1,3})(?P=qv)"
    # a YAML block scalar ("password: |" and the value on the indented lines below, at most 4)
    r"|(?P<block>[|>][-+]?)[ \t]*\r?\n(?P<lines>(?P<indent>[ \t]+)\S[^\n]{0,500}"
    r"(?:\r?\n(?P=indent)\S[^\n]{0,500}){0,3})"
    # why: the value runs to a space or a quote ("Tr0ub4dor&3" whole); "," ";" "&" end it only before
    # the next "name=" (?a=1&b=2, Uid=sa;Pwd=x) or at its end, and a closing bracket only if unopened.
    # Runs of plain characters, not one at a time: faster, and nothing after the value can fail
    r"|(?P<bare>(?:[^\s\"',;&(){}\[\]]{1,500}|[,;&](?=[^\s\"',;&)\]}])(?![A-Za-z_][\w.-]{0,100}=|amp;)"
    r"|[(\[{][^\s\"'(){}\[\]]{0,300}[)\]}]?){1,500})" + _wrapped(_WRAPPED_CHARS, "more") + ")")
_ASSIGNMENT = (
    r"(?P<name>" + _SECRET_WORD + r"(?:" + _QUOTE + r")?)(?![A-Za-z0-9_])"
    r"(?P<sep>[ \t]*(?::=|=|:)[ \t]*)"  # why: not across lines: "if not password:\n    raise"
    + _VALUE)
_NAME_WORDS = ("secret", "token", "pass", "cred", "pwd", "key")


def _named_pattern() -> str:
    """A keyword anywhere in a name (DB_PASS_2, signingKey, gcp_credentials), then a separator and a
    value; names.py judges the whole name (the characters before the keyword too) and the value, more
    strictly than _ASSIGNMENT does.

    # why: a name that is the keyword alone (pass:, KEY=, token=) is _ASSIGNMENT's: a name character
    # must come before or after it, which the regex checks, so that prose and code never reach Python;
    # nor do plurals (tokens:, keys:) and values that are references, structures or placeholders ($x,
    # (...), [...], {...}, <x>, ***). Compiled with re.IGNORECASE and run by _sub_folded (lower case).
    """
    alts = []
    for word in _NAME_WORDS:
        plural = "(?!s(?![a-z0-9_.-]))" if word in ("token", "key") else ""
        alts.append(f"{word}{plural}(?:[a-z0-9_.-]{{1,80}}+|(?<=[a-z0-9_-]{'.' * len(word)}))")
    # why: what names.py would keep anyway never reaches it: a value must hold a digit or a symbol
    # in its first word, or be 20 characters long, or be a YAML block ("str", "getpass()", "true"
    # stop), and not be a path, a URL or a short number
    worth = r"(?=(?:" + _QUOTE + r")?(?:[^\s\"'()\\]{0,300}?[0-9!#%&*+/<=>?@^|~-]|[^\s\"'()\\]{20})|[|>])"
    return (r"(?P<name>(?:" + "|".join(alts) + r")(?:" + _QUOTE + r")?)"
            r"(?P<sep>[ \t]*(?::=|=|:)[ \t]*)(?![$(\[{<*%/~.]|[a-z][a-z0-9+.-]*://|\d{1,7}(?![^\s,;\"'}\])]))"
            + worth + _VALUE)


# Name and value apart by spaces: a long option (--api-key x), a Dockerfile ENV, fish's set -x; the
# name must hold a keyword (checked ahead, so other options never reach Python)
_HAS_WORD = r"(?=[A-Za-z0-9_-]{0,80}?(?i:" + "|".join(_NAME_WORDS) + "))"
_SPACED = (
    r"--(?<![^\s\"'=]--)" + _HAS_WORD + r"(?P<name>[A-Za-z][A-Za-z0-9-]{0,80}+)(?:[ \t]+|=)(?![-$])" + _VALUE,
    *(start + r"[ \t]+" + _HAS_WORD + r"(?P<name>[A-Za-z_][A-Za-z0-9_]{0,80}+)[ \t]+(?![-$])" + _VALUE
      for start in (r"ENV(?<![^\s]ENV)", r"set(?<![^\s]set)(?:[ \t]+-[A-Za-z]+)+")),
)
# why: any identifier, then the name is checked in Python; a regex that searches for "key" inside
# the name backtracks quadratically on a megabyte-long word. The name is possessive ({1,100}+): no
# shorter name can be followed by a separator, and trying each was most of this rule's time.
_KEYISH = (
    r"(?<![A-Za-z0-9_])(?P<name>[A-Za-z0-9_]{1,100}+)"
    r"(?P<sep>(?:" + _QUOTE + r")?\s*(?::=|=|:)\s*(?:" + _QUOTE + r")?)"
    r"(?P<value>[A-Za-z0-9+/=_.~-]{" + str(_ENTROPY_LEN) + ",})" + _wrapped(_WRAPPED_CHARS, "more"))


@lru_cache(maxsize=1)
def _builtin() -> list[tuple[str, re.Pattern[str], Any]]:
    """Compiled once, on first use: the worker needs them, the hooks never import this module."""
    return _compile()


@lru_cache(maxsize=1)
def _named() -> tuple[re.Pattern[str], ...]:
    return (re.compile(_ASSIGNMENT, re.I), re.compile(_KEYISH), re.compile(_named_pattern(), re.I),
            *(re.compile(p) for p in _SPACED))


@lru_cache(maxsize=8)
def _twin(pattern: re.Pattern[str]) -> re.Pattern[str]:
    return re.compile(pattern.pattern, pattern.flags & ~re.IGNORECASE)


def _sub_folded(pattern: re.Pattern[str], replace, text: str) -> str:
    """``pattern.sub(replace, text)`` for a case-insensitive ``pattern`` written in lower case.

    # why: the case-sensitive twin of the pattern scanned over the lower-cased text finds the same
    # places several times faster than re.IGNORECASE (134 ms against 22 ms on a megabyte for the
    # assignments); each place is then matched again on the real text, for the real groups.
    """
    low = text.lower()
    if len(low) != len(text):  # a few characters grow when lower-cased: positions would not line up
        return pattern.sub(replace, text)
    out: list[str] = []
    last = 0
    for found in _twin(pattern).finditer(low):
        m = pattern.match(text, found.start())
        if m is None or m.start() < last:
            continue
        out += (text[last:m.start()], replace(m))
        last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


@lru_cache(maxsize=32)
def _custom(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns if p)


def redact(text: str, extra_patterns: Iterable[str] = ()) -> tuple[str, int]:
    """``text`` with credentials replaced by markers, and how many were replaced."""
    if not text:
        return text, 0
    counted = [0]

    def sub(pattern: re.Pattern[str], replace, text: str) -> str:
        def counting(m: re.Match[str]) -> str:
            new = replace(m) if callable(replace) else replace
            if new != m.group(0):  # why: the named rules may decide to keep a match
                counted[0] += 1
            return new
        if pattern.flags & re.IGNORECASE:
            return _sub_folded(pattern, counting, text)
        return pattern.sub(counting, text)

    for kind, pattern, replace in _builtin():
        mark = MARK.format(kind)
        text = sub(pattern, mark if replace is None else lambda m, r=replace, k=mark: r(m, k), text)
    text = _mailchimp(text, counted)
    assignment, keyish, named, *spaced = _named()
    text = sub(assignment, _replace_assignment, text)
    text = sub(keyish, _replace_keyish, text)
    text = sub(named, names.replace_named, text)
    for pattern in spaced:
        text = sub(pattern, names.replace_spaced, text)
    text, n = _aws_secrets(text)
    counted[0] += n
    for pattern in _custom(tuple(extra_patterns)):
        text = sub(pattern, MARK.format("custom"), text)
    return text, counted[0]


def redact_obj(obj: Any, extra_patterns: Iterable[str] = (), keys: bool = False) -> tuple[Any, int]:
    """A copy of a nested dict/list structure with every string redacted, and the count.

    Dict keys are kept as they are unless ``keys`` (for an untrusted object whose unknown keys get
    quoted in log lines); non-string leaves pass through unchanged.
    """
    extra = tuple(extra_patterns)
    if isinstance(obj, str):
        return redact(obj, extra)
    if isinstance(obj, dict):
        out: dict = {}
        count = 0
        for key, value in obj.items():
            if keys and isinstance(key, str):
                key, n = redact(key, extra)
                count += n
            out[key], n = redact_obj(value, extra, keys)
            count += n
        return out, count
    if isinstance(obj, (list, tuple)):
        items = []
        count = 0
        for value in obj:
            new, n = redact_obj(value, extra, keys)
            items.append(new)
            count += n
        return (type(obj)(items) if isinstance(obj, tuple) else items), count
    return obj, 0
