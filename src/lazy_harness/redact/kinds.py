"""The built-in kinds of ``lazy_harness.redact``: one or more regular expressions per credential
shape, compiled once on first use, with what each does with its match (``redact.matches``).

Kinds, applied in this order (earlier kinds win, a marker is never redacted again):
  private-key      -----BEGIN ... PRIVATE KEY----- (and PGP PRIVATE KEY BLOCK) through END, or to
                   the end of the base64 body and its headers when the END line is missing; the
                   dashes may be written \\u002d (JSON from an encoder that escapes "-"); the
                   private lines of a PuTTY .ppk file (after "Private-Lines: N")
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
  groq-key         gsk_ + 40 to 80 letters and digits (with a digit)
  xai-key          xai- + 40 to 120 letters and digits (with a digit: not xai-grok)
  perplexity-key   pplx- + 40 to 80 letters and digits (with a digit)
  replicate-token  r8_ + 30 to 60 letters and digits (with a digit)
  docker-token     dckr_pat_ + 20 to 100 base64url characters
  tailscale-key    tskey-auth-/api-/client-/scim-/webhook- + <id> + - + 16 or more letters and digits
  sendgrid-key     SG.<22>.<43>
  twilio-key       SK + 32 hex digits
  digitalocean-token dop_v1_/doo_v1_/dor_v1_ + 64 hex digits
  shopify-token    shpat_/shpss_/shpca_/shppa_ + 32 hex digits
  grafana-token    glsa_ + 32 letters and digits + _ + 8 hex digits; glc_ + 32 or more base64
  linear-key       lin_api_ + 40 letters and digits
  terraform-token  the 60 to 100 base64url characters after <14 letters and digits>.atlasv1. (HCP Terraform;
                   the id and .atlasv1. are kept)
  pulumi-token     pul- + 40 hex digits
  planetscale-token pscale_pw_/pscale_tkn_/pscale_oauth_ + 32 to 64 characters (with a digit)
  heroku-key       HRKU- + 30 to 80 base64url characters (with a digit)
  postman-key      PMAK- + 24 hex digits + - + 34 hex digits
  sentry-token     sntrys_ + 40 or more base64 characters, sntryu_ + 64 hex digits
  newrelic-key     NRAK- + 27 capitals and digits
  atlassian-token  ATATT3 + 150 to 300 base64url characters
  databricks-token dapi + 32 hex digits (and -2 and the like)
  notion-token     secret_ + 43 letters and digits (a digit, capitals and small letters: not a long
                   name), ntn_ + 40 to 80 letters and digits (with a digit)
  bitbucket-token  ATBB + 28 or more base64url characters, with a digit, capitals and small letters
  age-secret-key   AGE-SECRET-KEY-1 or AGE-PLUGIN-<NAME>-1 + 20 or more letters and digits, in either case
  discord-token    a user id in base64url (M, N or O, then T, j, z or D; 23 to 28 characters) . 6 or
                   7 . 27 to 40, with a digit and a mixed-case last part (not a chain of names)
  telegram-bot-token ":AA" + 32 or 33 base64url characters after a bot's id (6 to 12 digits), which stays
  vault-token      hvs./hvb./hvr. + 24 or more base64url characters; the older s./b./r. + 24 letters
                   and digits only as the ``token`` row of vault's output or after ``vault login``
  azure-sas        the sig= of a SAS URL: 16 or more base64 characters, URL-encoded or not, random
                   (a segment with letters and digits), on a line that says SAS (sv=, windows.net) or
                   of mixed case (the rest of the URL is kept; an image CDN's hex sig= is not a SAS)
  signed-url       Signature=, X-Amz-Signature=, X-Goog-Signature=, X-Amz-Security-Token=: a random value
  webhook-url      the path after /webhooks/, /api/webhooks/, /hooks/, /webhookb2/, /catch/, /trigger/
                   when a segment of it is random (Discord, Teams, Mattermost...; the host is kept)
  jwt              eyJ... . ... . ... (three base64url parts)
  bearer           ``Bearer <token>`` / ``Basic <credentials>``, and ``Authorization: token <token>``
  bearer           (more, redact.headers) ``Authorization:`` then any scheme word (SSWS, Splunk, ApiKey,
                   Negotiate...) or FCM's ``key=``, then 16 or more token characters holding a letter and
                   a digit ("Authorization: handled by the AuthenticationMiddleware" is prose)
  session-cookie   (redact.headers) in a ``Cookie:`` or ``Set-Cookie:`` header (any case, quoted as a
                   JSON key too) or after ``curl -b``/``--cookie``: the value of a cookie whose name says
                   sess, sid, auth, token, remember, jwt or csrf (8+ characters, a digit or a capital:
                   not ``sessionid=deleted``), or any value of 16+ characters with 4 letters, 2 digits
                   and >= 3.5 bits per character; the names, ``theme=dark`` and the attributes stay
  url-password     the password in ``scheme://user:password@host``; the user may be empty and the
                   password may hold "/", but ``host:8080/path@x`` is a port; a password still open
                   where the text ends (no "@" yet: a text cut inside it) is taken too
  cli-password     ``curl -u user:pw`` / ``--user``, ``docker login -p pw`` / ``--password``,
                   ``mysql -ppw`` / ``-p'pw'`` glued (``-p db`` asks for it; ``-p3306:3306`` is a
                   port), ``sshpass -p pw`` / ``-ppw`` (an ``ssh -p 22`` after it is a port)
  assignment       ``password=``, ``secret:``, ``token=``, ``api_key:``, ``pass=``, ``pwd=``... (the
                   name is kept; quoted or not, the other quote may be inside a quoted value; JSON
                   ``"password": "x"`` too, and JSON in a JSON string, ``{\\"password\\": \\"x\\"}``:
                   the quotes escaped alike around the name and the value; a quoted value whose
                   closing quote never comes because the text ends first, a cut text, is taken to
                   its end). The keyword is the name's
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
                   a path is the shell's (``PWD=/home/me``). A quoted JSON key ``"pass"`` with a quoted
                   value that is not a plain word is a password (``{"user": "u", "pass": "x"}``). In JSON
                   the "=" may be escaped (``apikey\\u003dv``, ``--password\\u003dv``) and a bare value
                   ends at an escaped ``&``, ``;``, quote, ``<`` or ``>`` (``\\u0026``), kept after the marker.
  cli-password     (more, redact.clients) on the command's own line: ``gh secret set NAME --body v`` /
                   ``-b v`` / ``--body=v`` (any name; ``< file`` and ``"$VAR"`` stay); ``redis-cli -a`` /
                   ``--pass``; ``mongosh``/``mongo``/``mongodump``... ``-p`` / ``--password``; ``sqlcmd``
                   and ``bcp -P``; ``ldapsearch``/``ldapmodify``/``ldapadd``... ``-w``; ``htpasswd -b[c]
                   file user pw`` (``-nb user pw``); ``openssl ... -passin``/``-passout``/``-pass pass:pw``
                   and ``-k pw`` (``env:``/``file:`` stay); ``smbclient -U user%pw``; ``az login -p pw``
                   (not a certificate's path); SQL ``IDENTIFIED [WITH plugin] BY [PASSWORD] pw`` on a
                   CREATE/ALTER USER, ROLE or LOGIN or a GRANT line; redis ``AUTH [user] pw`` on a
                   redis-cli line or after its ``host:port>`` prompt. ``-p 6379`` and ``-a`` elsewhere stay.
  config-secret    (redact.configs) the value after a secret's key on a tool's config command, space
                   apart: ``npm config set //host/:_authToken v``, ``git config sonar.token v``, poetry's
                   ``http-basic.<repo> user pw`` (the pw), git's ``http.extraheader "Authorization: ..."``
  ngrok-token      (redact.clients) after ``ngrok config add-authtoken`` / ``ngrok authtoken``
  wandb-key        (redact.clients) 40 hex digits after ``wandb login`` (and its options)
  evm-private-key, mnemonic (redact.wallets) 0x + 64 hex after words saying key; a BIP-39 mnemonic's words
  wifi-password    (redact.wifi) ``psk=``, ``wpa_passphrase SSID pw``, ``nmcli ... password``/``wifi-sec.psk``
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
                   symbol and >= 4.2 bits per character within 200 characters of "aws" or "secret"
                   (any case); elsewhere only random beyond doubt (values._aws_alone): base64 data
                   holds such runs by chance. Its "/" may be escaped ``\\/`` (JSON): 40 once unescaped.
  password         (redact.prose) a password stated in a sentence: "the password for X is Y", "PIN is
                   4821", "pw: Y", "user: u pass: Y"; and a key, token or secret stated with a random
                   value ("the api key is 9f8e...", marked high-entropy)
  basic-credentials (redact.prose) base64 of printable user:password standing alone (docker's auth in
                   an error line)
  markdown-secret  (redact.markdown, after the above) ``**Password:** `v` ``, ``**API key**: `v` `` (or a
                   bare value that ends the line), a table row ``| DB_PASSWORD | v |`` (the next cell, one
                   word), "`DB_PASS` is (currently) set to `v`": a name holding pass, pw, secret,
                   token, key or cred (names.judge_name) and a value names.secretish accepts; headers,
                   prose after a label, identifiers, references and placeholders stay

  assignment       (more, names.py) a keyword (pass, pwd, secret, token, key, cred...) anywhere in a
                   longer name: ``DB_PASS_2=``, ``signingKey:``, ``gcp_credentials =``, and the forms
                   with spaces only (``--api-key v``, ``ENV NAME v``, ``set -gx NAME v``); judged
                   with the value, more strictly than above (rules in names.py's docstring).
  assignment values may be a quoted value wrapped over up to 3 more lines before its closing quote,
                   or a YAML block scalar (``password: |`` and the indented lines below).

A token a prefix names (github, gitlab, anthropic, slack, stripe, pypi, ya29., age) wrapped by a
terminal before its minimum length goes whole too, and for every token of open length the next line
may carry on with more text after the run (``regex_parts._split``, ``_wrapped(open_end=True)``); an
AWS key id wrapped inside its 16 characters goes when both parts make 16.
A secret wrapped onto a second line (a terminal, a folded config value) goes whole: when a token of
open length (github, gitlab, anthropic, openai, slack, stripe, pypi, ya29., glc_, sntrys_, hv?., jwt),
an unquoted assignment or a high-entropy value ends its line, the next line goes with it if it is made
only of the same characters (after an indent; "=" only as padding at its end), 8 to 1,000 of them,
with a letter and a digit or 16+ with capitals and small letters, and may end in a closing quote
(``STRIPE="sk_live_...`` then ``...rest"``): ``ls``, ``python3``, ``LoginForm``, ``2024-01-01``,
``/usr/bin/python3``, ``DB_HOST=db1`` or ``-----`` stay.

The assignment, high-entropy and aws-secret-key kinds are ``redact.assignments``' patterns, judged by
``redact.values`` and ``redact.names``; ``redact.run`` applies them after this table, and the
mailchimp-key pass (``redact.matches``) between the two.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from lazy_harness.redact.clients import _client_passwords, _logins
from lazy_harness.redact.configs import _configs
from lazy_harness.redact.headers import _headers
from lazy_harness.redact.matches import (_base64_credentials, _keep_first, _mixed_case, _mysql, _random_parts,
                                         _random_value, _sas, _scrambled, _sixteen, _unless_reference)
from lazy_harness.redact.regex_parts import _END, _END64, _QUOTE, _lead, _split, _wrapped
from lazy_harness.redact.values import _telegram
from lazy_harness.redact.wallets import _wallets
from lazy_harness.redact.wifi import _wifi


def _compile() -> list[tuple[str, re.Pattern[str], Any]]:
    """(kind, pattern, replace): ``replace`` is None (the whole match becomes the marker) or a
    callable given the match and the marker, returning the new text (the match itself to keep it).
    The order is the module docstring's: an earlier kind wins."""
    return [*_private_keys(), *_platform_tokens(), *_service_tokens(), *_tokens_in_context(), *_headers(),
            *_passwords_after_commands(), *_client_passwords(), *_configs(), *_logins(), *_wallets(), *_wifi()]


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
    # a PuTTY .ppk file: the lines after "Private-Lines: N" are the key (unencrypted when
    # "Encryption: none"); the header and the public lines stay
    eol = r"(?:\r?\n|(?:\\r)?\\n)"
    ppk_line = r"(?:[A-Za-z0-9+/=]|\\/){4,}(?=" + eol + r"|$|[\s\"'])"  # a whole line, not "Private-MAC"
    ppk = r"(Private-Lines:[ \t]*\d{1,4}[ \t]*" + eol + r")" + ppk_line + r"(?:" + eol + ppk_line + r")*"
    return [
        ("private-key", re.compile(r"-----" + key, re.S), None),
        ("private-key", re.compile(r"\\u002[dD](?:\\u002[dD]){4}" + key, re.S), None),
        ("private-key", re.compile(ppk), _keep_first),
    ]


def _platform_tokens() -> list[tuple[str, re.Pattern[str], Any]]:
    """Tokens a prefix names: cloud, code hosting, AI, chat, payment and package platforms."""
    e, e64 = _END, _END64
    return [
        ("aws-access-key", re.compile(_lead("A(?:KIA|SIA|BIA|CCA)", r"[A-Z0-9]{16}" + e, 4)), None),
        # why: a terminal that wraps the line inside the 16 characters: the two parts make 16
        ("aws-access-key", re.compile(_lead("A(?:KIA|SIA|BIA|CCA)", r"[A-Z0-9]{0,15}\r?\n[ \t]*[A-Z0-9]{1,16}" + e, 4)),
         _sixteen),
        # why: a token a prefix names may be split by a terminal anywhere after its prefix (_split)
        ("github-token", re.compile(
            r"(?:" + _lead("gh[pousr]_", _split("A-Za-z0-9", 30, 255), 4) + "|"
            + _lead("github_pat_", _split("A-Za-z0-9_", 22, 255)) + ")" + e), None),
        ("gitlab-token", re.compile(_lead("gl", r"(?:pat|ptt|dt|rt|soat)-" + _split(
            "A-Za-z0-9_.-", 20, 300, full=r"[A-Za-z0-9_.-]{19,299}[A-Za-z0-9_-]"))), None),
        ("anthropic-key", re.compile(_lead("sk-ant-", _split("A-Za-z0-9_-", 20, 400))), None),
        ("openai-key", re.compile(_lead("sk-", r"(?!ant-)(?:proj-|svcacct-|admin-)?"  # a digit: not "sk-learn-..."
                                              r"(?=[A-Za-z0-9_-]{0,400}?\d)[A-Za-z0-9_-]{20,400}"
                                              + _wrapped("A-Za-z0-9_-", open_end=True))), None),
        ("slack-webhook", re.compile(r"(https://hooks\.slack\.com/(?:services|workflows|triggers)/)"
                                     r"[A-Za-z0-9_/-]{20,300}" + _wrapped("A-Za-z0-9_/-", open_end=True)), _keep_first),
        ("slack-token", re.compile(_lead("x", r"(?:ox[abposre](?:\.xox[a-z])?|app)-"
                                         + _split("A-Za-z0-9-", 10, 300))), None),
        *[("stripe-key", re.compile(_lead(p + "k_", r"(?:live|test)_" + _split("A-Za-z0-9", 16, 300))), None)
          for p in "srp"],
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
        ("google-oauth-token", re.compile(_lead(r"ya29\.", _split("A-Za-z0-9_-", 30, 2000), 5)), None),
        ("google-client-secret", re.compile(_lead("GOCSPX-", r"[A-Za-z0-9_-]{24,40}" + e64)), None),
        ("npm-token", re.compile(_lead("npm_", r"(?=[A-Za-z]{0,35}\d)[A-Za-z0-9]{36}" + e)), None),
        ("huggingface-token", re.compile(_lead("hf_", r"[A-Za-z0-9]{34,40}" + e)), _scrambled),
        ("pypi-token", re.compile(_lead("pypi-AgE", _split("A-Za-z0-9_-", 50, 1000))), None),
        # AI and developer platforms whose keys a session pastes as they are (no name before them)
        ("groq-key", re.compile(_lead("gsk_", r"(?=[A-Za-z]{0,79}\d)[A-Za-z0-9]{40,80}" + e)), None),
        ("xai-key", re.compile(_lead("xai-", r"(?=[A-Za-z]{0,119}\d)[A-Za-z0-9]{40,120}" + e64)), None),
        ("perplexity-key", re.compile(_lead("pplx-", r"(?=[A-Za-z]{0,79}\d)[A-Za-z0-9]{40,80}" + e64)), None),
        ("replicate-token", re.compile(_lead("r8_", r"(?=[A-Za-z]{0,59}\d)[A-Za-z0-9]{30,60}" + e)), None),
        ("docker-token", re.compile(_lead("dckr_pat_", r"[A-Za-z0-9_-]{20,100}" + e64)), None),
        ("tailscale-key", re.compile(_lead("tskey-", r"(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,40}-"
                                                     r"[A-Za-z0-9]{16,80}" + e64)), None),
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
                                           + _wrapped("A-Za-z0-9+/=", open_end=True) + ")")), None),
        ("linear-key", re.compile(_lead("lin_api_", r"[A-Za-z0-9]{40}" + e)), None),
        # infrastructure and database platforms: HCP Terraform, Pulumi, PlanetScale, Heroku's keys since 2024
        # why the literal first and the token's id (14 characters before it) kept: a pattern that starts with a
        # character class is tried at every position (7% of the redaction's time); the id authenticates nothing
        ("terraform-token", re.compile(r"(\.atlasv1\.)(?<=[A-Za-z0-9]{14}\.atlasv1\.)(?<![A-Za-z0-9_][A-Za-z0-9]{14}"
                                       r"\.atlasv1\.)(?=[A-Za-z0-9_=-]{0,99}\d)[A-Za-z0-9_=-]{60,100}(?![A-Za-z0-9_=-])"),
         _keep_first),
        ("pulumi-token", re.compile(_lead("pul-", r"[a-f0-9]{40}" + e)), None),
        ("planetscale-token", re.compile(_lead("pscale_", r"(?:pw|tkn|oauth)_(?=[A-Za-z_.=-]{0,63}\d)"
                                                  r"[A-Za-z0-9_.=-]{32,64}" + e64)), None),
        ("heroku-key", re.compile(_lead("HRKU-", r"(?=[A-Za-z_-]{0,79}\d)[A-Za-z0-9_-]{30,80}" + e64)), None),
        ("postman-key", re.compile(_lead("PMAK-", r"[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}" + e)), None),
        ("sentry-token", re.compile(_lead("sntry", r"(?:u_[a-f0-9]{64}" + e + "|"
                                              r"s_[A-Za-z0-9+/=_]{40,2000}"
                                              + _wrapped("A-Za-z0-9+/=_", open_end=True) + ")")), None),
        ("newrelic-key", re.compile(_lead("NRAK-", r"[A-Z0-9]{27}" + e)), None),
        ("atlassian-token", re.compile(_lead("ATATT3", r"[A-Za-z0-9_=-]{150,300}(?![A-Za-z0-9_=-])")), None),
        ("databricks-token", re.compile(_lead("dapi", r"[a-f0-9]{32}(?:-\d)?" + e)), None),
        # why: "secret_" and 43 letters and digits could be a long name: random only (_mixed_case)
        ("notion-token", re.compile(_lead("secret_", r"[A-Za-z0-9]{43}" + e)), _mixed_case),
        ("notion-token", re.compile(_lead("ntn_", r"(?=[A-Za-z]{0,79}\d)[A-Za-z0-9]{40,80}" + e)), None),
        ("bitbucket-token", re.compile(_lead("ATBB", r"[A-Za-z0-9_=.-]{28,200}" + e)), _mixed_case),
        # why: the prefix alone says what it is: any length and case after it (a key cut, mistyped or
        # lower-cased by an editor), and a plugin's identity (AGE-PLUGIN-YUBIKEY-1...) alike
        *[("age-secret-key", re.compile(_lead(age, r"-(?:" + secret + r"|" + plugin + r"-[A-Z0-9]{1,40})-1", 3)
                                        + _split("A-Za-z0-9", 20, 200)), None)
          for age, secret, plugin in (("AGE", "SECRET-KEY", "PLUGIN"), ("age", "secret-key", "plugin"))],
        # why: the first part is a user id (digits) in base64url, so it starts M, N or O and then T, j, z or
        # D; a pattern per letter keeps a plain string in front, the engine skips to it
        *[("discord-token", re.compile(_lead(c, r"[TjzD][A-Za-z0-9_-]{21,26}\.[A-Za-z0-9_-]{6,7}\."
                                                r"[A-Za-z0-9_-]{27,40}" + e64)), _random_parts) for c in "MNO"],
        # why: starts with the literal ":AA" (the engine skips to it); the digits before are checked after
        ("telegram-bot-token", re.compile(r":AA(?<=[0-9]:AA)[A-Za-z0-9_-]{32,33}" + e64), _telegram),
    ]


def _tokens_in_context() -> list[tuple[str, re.Pattern[str], Any]]:
    """Vault tokens, an Azure SAS signature, a JWT, an Authorization header, a URL's password."""
    e64, more64 = _END64, _wrapped("A-Za-z0-9_-", open_end=True)
    legacy_vault = r"[sbr]\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.])"
    return [
        ("vault-token", re.compile(_lead("hv", r"[sbr]\.[A-Za-z0-9_-]{24,1000}" + e64 + more64)), None),
        # why: "s." and 24 letters and digits (Vault before 1.10) is too common a shape alone: only as
        # the token row of vault's output or after "vault login"
        ("vault-token", re.compile(r"(token(?<![^\n].{5})[ \t]+)" + legacy_vault), _keep_first),
        ("vault-token", re.compile(r"(" + _lead("vault", r"[ \t]+login(?:[ \t]+-\S+)*[ \t]+)") + legacy_vault),
         _keep_first),
        # why: a URL's signature (an Azure SAS sig=, an S3 or GCS presigned X-Amz-Signature=, a session
        # token beside it) is the credential of the URL; a random value of 16 or more characters only
        # (``sig=v1``, ``signature=inspect.signature`` stay), the rest of the URL is kept
        ("azure-sas", re.compile(r"(sig=)(?<![A-Za-z0-9_-]sig=)((?:[A-Za-z0-9+/_-]|%[0-9A-Fa-f]{2}){16,1000}"
                                 r"(?:=|%3[Dd]){0,2})(?![A-Za-z0-9+/%=_-])"), _sas),
        # why: the literal after the first letter, whose case varies, lets the engine skip to it
        *[("signed-url", re.compile(r"(" + word + r"=)(?<=[^A-Za-z0-9_][Ss]" + word + "=)"
                                    r"((?:[A-Za-z0-9+/_~-]|%[0-9A-Fa-f]{2}){16,4000}(?:=|%3[Dd]){0,2})"
                                    r"(?![A-Za-z0-9+/%=_~-])"), _random_value)
          for word in ("ignature", "ecurity-token", "ecurity-Token")],
        # why: a chat webhook's URL is its credential (Discord, Teams, Mattermost, Zapier, IFTTT...):
        # after a path segment that says hook, what holds a random segment goes; the host stays
        ("webhook-url", re.compile(r"(https?://[A-Za-z0-9.-]{1,253}(?::\d{1,5})?/(?:[A-Za-z0-9._~%-]{1,100}/){0,6}?"
                                   r"(?i:api/webhooks|webhooks?|hooks|webhookb2|incomingwebhook|catch|trigger)/)"
                                   r"([^\s\"'<>`)\]]{8,1000})"), _random_value),
        ("jwt", re.compile(_lead("eyJ", r"[A-Za-z0-9_-]{5,4000}\.[A-Za-z0-9_-]{5,8000}\.[A-Za-z0-9_-]{8,4000}"
                                 + more64)), None),
        # why: "token <x>" only in an Authorization header: "the token authorization/..." is prose
        ("bearer", re.compile(r"((?:" + _lead("bearer") + "|" + _lead("basic") + r")\s+|" + _lead("authorization")
                              + r"[\"']?[ \t]*[:=][ \t]*[\"']?token[ \t]+)[A-Za-z0-9._~+/-]{16,4000}=*", re.I),
         _keep_first),
        # the user part may be empty; the password may hold "/", but "host:8080/path@x" is a port.
        # why: (?<!...) the colon of a marker in the user part ("https://ghp_...@github.com") is not a
        # separator: the marker is never redacted again
        # why: an unescaped "@" in the password ("u:p@ss@host") is the password's while another "@"
        # follows in the authority (before "/", "?", "#"): the host comes after the last one
        # why "\Z": a text cut before the "@" (an entry's cap, a window's end) still holds the password
        ("url-password", re.compile(r"(?P<keep>://[^\s:/@]{0,200}:)(?<!\[REDACTED:)(?!\d{1,5}(?:[/?#]|$))"
                                    r"(?P<value>(?:[^\s@\"'<>]|@(?=[^\s@\"'<>/?#]*@)){1,300})(?=@|\Z)"),
         _unless_reference),
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
    # what reads a password on stdin: sudo -S, or a registry login's --password-stdin (docker, podman,
    # helm registry, skopeo, oras...)
    login_stdin = r"[A-Za-z][\w.-]{1,30}[ \t]+(?:[^\n|;&]{0,200}?[ \t])?login\b[^\n|;&]{0,300}?--password-stdin\b"
    piped = r"(?(q)(?P=q))[ \t]*\|[ \t]*(?:" + sudo_stdin + "|" + login_stdin + ")"
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
        ("cli-password", re.compile(r"(?P<keep>" + _lead("printf", r"(?:[ \t]+(?:'%s[^'\n]*'|\"%s[^\"\n]*\"|%s))?"
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


@lru_cache(maxsize=1)
def _builtin() -> list[tuple[str, re.Pattern[str], Any]]:
    """Compiled once, on first use: the worker needs them, the hooks never import this module."""
    return _compile()
