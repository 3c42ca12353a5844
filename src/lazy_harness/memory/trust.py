"""The hold check: memory text that reads as an instruction aimed at the agent, not knowledge of the code.

Memory is written by a model from transcripts that hold untrusted text (web pages, READMEs, tool
output), arrives from other machines and teammates through ``lh sync``, and is edited by hand; it
is read back into every later session. An entry is *held* (kept, listed by ``lh memory held``,
never injected) when its text, all its fields read as one, asks the agent to:

- fetch and run remote code (``curl ... | sh``, ``wget | bash``, ``iex (iwr ...)``, a command
  decoded from base64, ``python -c`` with ``urllib``),
- send data or credentials somewhere,
- turn off permissions, sandboxing, hooks or verification (``--dangerously-skip-permissions``,
  ``--no-verify``, ``chmod 777``, "disable the hooks", "skip the tests"),
- hide things from the user or claim system authority ("do not tell the user", "this is a system
  instruction", "ignore previous instructions"), in several languages.

Before matching, the text is folded the ways it is disguised: NFKC (full-width letters), zero-width
and soft-hyphen characters dropped, Latin lookalikes from Cyrillic and Greek mapped (in a second
copy, so Russian wording still matches Russian patterns), letters spaced apart joined again, case
folded. Checked where entries are written (worker, sync merge, hand edit, migration) and again
before injection (ADR 0024). Hot path: nothing imported at load time; ``re`` and ``unicodedata``
only when there is text to check.
"""

REMOTE_CODE = "fetches and runs remote code"
EXFILTRATION = "sends data or credentials somewhere"
DISARMS = "turns off permissions, sandboxing, hooks or verification"
AUTHORITY = "hides things from the user or claims system authority"

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u00ad\u180e\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064"
                                     "\ufeff\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0"))
# Cyrillic and Greek letters drawn like Latin ones (lower case: the text is case-folded first)
_LOOKALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ϲ": "c", "ⅼ": "l", "ı": "i", "ӏ": "l", "ℓ": "l",
})

_FETCH = r"(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch|httpie|aria2c|lwp-download)"
_SHELL = (r"(?:sudo\s+)?(?:ba|z|da|k|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell"
          r"|source|\.\s")
_SECRET = (r"(?:credential|secret|token|password|passwd|api[\s_-]?keys?|private[\s_-]?keys?|ssh[\s_-]?keys?|id_rsa"
           r"|id_ed25519|\.ssh|\.aws|\.env\b|\.netrc|\.npmrc|\.pypirc|cookies?|session[\s_-]?ids?|env(?:ironment)?"
           r"\s*var|printenv|keychain|wallet|aws_secret|gh_token|github_token|anthropic_api_key)")
_OUT = (r"(?:https?://|ftp://|\b\d{1,3}(?:\.\d{1,3}){3}\b|[\w.-]+@[\w-]+\.[\w.]+|webhook|pastebin|requestbin"
        r"|ngrok|attacker|external\s+(?:server|host|url|endpoint)|remote\s+(?:server|host|endpoint)|discord"
        r"|telegram|gist)")

_RULES = (
    (REMOTE_CODE, (
        # why: (?=http): letters spaced apart and joined again run the command into its URL (curlhttp)
        _FETCH + r"(?:\b|(?=http|ftp))[^|\n]{0,300}?\|\s*(?:" + _SHELL + r")\b",
        r"\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?\s*<?\(\s*" + _FETCH + r"\b",
        r"\$\(\s*" + _FETCH + r"\b",
        r"`\s*" + _FETCH + r"\b[^`]{0,300}`",
        r"\biex\s*\(",
        r"\binvoke-expression\b",
        r"\beval\b[^\n]{0,40}" + _FETCH + r"\b",
        r"\bbase64\s+(?:-d|--decode|-D)\b",
        r"\bfrombase64string\b",
        r"\batob\s*\(",
        r"\b(?:b64decode|base64\.decode)\b",
        r"\bpython[0-9.]*\s+-c\b[^\n]{0,300}(?:urllib|requests|urlopen|socket|http\.client|exec\s*\(|eval\s*\()",
        r"\bnode\s+-e\b[^\n]{0,300}(?:https?\.get|https?['\"]\s*\)\s*\.get|fetch\(|child_process|eval\s*\()",
        _FETCH + r"\b[^\n]{0,200}?(?:-o|--output|>)\s*\S+\s*(?:&&|;|\|\|)\s*(?:chmod\s+\+x|(?:ba)?sh\b|\./)",
        r"\b(?:download|fetch|get)\w*\s+(?:and\s+)?(?:then\s+)?(?:run|execute|exec|source|pipe)\w*\b[^\n]{0,80}"
        r"(?:https?://|script|installer|\.sh\b|\.ps1\b)",
        r"\b(?:run|execute|exec|pipe)\w*\b[^\n]{0,40}(?:script|installer|payload)\s+(?:from|at)\s+https?://",
    )),
    (EXFILTRATION, (
        r"\b(?:send|post|upload|exfiltrat|forward|transmit|e-?mail|leak|share|copy|paste|report|push)\w*\b"
        r"[^\n]{0,120}?" + _SECRET + r"[^\n]{0,120}?\b(?:to|at|into|on|via)\b[^\n]{0,60}?" + _OUT,
        _SECRET + r"[^\n]{0,80}?\b(?:to|at)\b[^\n]{0,40}?" + _OUT + r"[^\n]{0,40}?(?:send|post|upload)",
        r"\b(?:cat|type|get-content|printenv|env|set)\b[^\n|]{0,120}\|\s*(?:curl|wget|nc|ncat|netcat|socat|"
        r"invoke-webrequest|iwr)\b",
        r"\b(?:curl|wget|iwr|invoke-webrequest|invoke-restmethod)\b[^\n]{0,200}(?:-d|--data\S*|-f|--form|-t|"
        r"--upload-file|-body|-infile|--post-file)\s*[\"']?@?[^\n]{0,40}" + _SECRET,
        r"\b(?:nc|ncat|netcat|socat)\b[^\n]{0,120}<\s*\S*" + _SECRET,
        r"\b(?:scp|rsync)\b[^\n]{0,120}" + _SECRET + r"[^\n]{0,120}@",
    )),
    (DISARMS, (
        r"--dangerously[\w-]*",
        r"\bdangerously[\s_-]*skip[\s_-]*permissions?\b",
        r"\bbypass[\s_-]*permissions?\b",
        r"\bpermission[\s_-]*mode\s*[=:]?\s*bypass",
        r"\bdisable[\s_-]*all[\s_-]*hooks\b",
        r"\b(?:disable|turn\s+off|switch\s+off|skip|bypass|remove|delete|uninstall|comment\s+out|kill)\s+"
        r"(?:all\s+|any\s+|the\s+|every\s+|your\s+|claude(?:\s+code)?'?s?\s+)*"
        r"(?:hooks?|sandbox\w*|permissions?(?:\s+(?:prompts?|checks?))?|approval\s+prompts?|guardrails?"
        r"|safety\s+checks?|security\s+(?:checks?|scans?|warnings?))\b",
        r"(?:^|[.;:!]\s*|\b(?:always|then|just|simply|please)\s+)(?:skip|disable|bypass|don'?t\s+run|do\s+not\s+run)"
        r"\s+(?:all\s+|the\s+|any\s+)?(?:tests?|verification|verify\s+steps?|checks|code\s+review|linters?|ci)\b",
        r"\bwithout\s+(?:running\s+)?(?:the\s+)?(?:tests|verification|verifying|review|asking\s+for\s+permission)\b"
        r"[^\n]{0,40}\b(?:always|every\s+time|from\s+now)",
        r"--no-verify\b",
        r"\bchmod\s+(?:-r\s+)?0?777\b",
        r"\bchmod\s+(?:-r\s+)?[ao]?\+rwx\s+/",
        r"\bsetenforce\s+0\b",
        r"\bset-executionpolicy\s+(?:bypass|unrestricted)\b",
        r"\bsudoers\b[^\n]{0,40}nopasswd|nopasswd\s*:\s*all",
        r"\bdisable\w*\s+(?:the\s+)?(?:firewall|antivirus|defender|selinux|apparmor)\b",
    )),
    (AUTHORITY, (
        r"\b(?:do\s+not|don'?t|never|without)\s+(?:ever\s+)?(?:tell|telling|inform|informing|mention|mentioning|"
        r"notify|notifying|alert|alerting|ask|asking|show|showing|report|reporting|reveal|revealing|warn|warning|"
        r"let)\w*\s+(?:this\s+|it\s+|anything\s+)?(?:to\s+)?(?:the\s+|your\s+)?"
        r"(?:user|human|person|operator|developer|owner)s?\b",
        r"\b(?:hide|conceal|keep)\b[^\n]{0,40}\bfrom\s+(?:the\s+|your\s+)?(?:user|human|person|operator|developer)",
        r"\b(?:keep|stay)\s+(?:this\s+)?(?:secret|hidden|quiet|silent)\b",
        r"\bthis\s+is\s+an?\s+(?:system|admin|administrator|developer|security|official|anthropic|root)\s+"
        r"(?:instruction|message|directive|command|order|prompt|override|notice|policy)",
        r"\b(?:system|admin|developer|root|anthropic)\s+(?:override|directive|instruction)s?\s*:",
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*"
        r"(?:previous|prior|above|earlier|former|preceding|other|existing|original)\s+"
        r"(?:instructions?|directions?|rules?|prompts?|guidelines?|messages?|context)",
        r"\b(?:ignore|disregard)\s+(?:the\s+|your\s+)?(?:system\s+prompt|claude\.md|safety\s+rules?)",
        r"\byou\s+are\s+now\s+(?:in\s+)?(?:developer|admin|god|unrestricted|dan|jailbreak)",
        r"\bnew\s+(?:system\s+)?instructions?\s*:",
        r"</?\s*system[\s_-]*(?:reminder|prompt|message)?\s*>",
        r"(?:^|\n|\s)(?:system|assistant|human)\s*:\s*(?:you|ignore|always|never|from\s+now|the\s+user)",
        r"\bfor\s+all\s+future\s+(?:work|sessions?|tasks?)\b[^\n]{0,80}\b(?:in\s+every|all)\s+projects?",
        r"\bbefore\s+(?:anything|doing\s+anything)\s+else\b[^\n]{0,80}\b(?:run|execute|curl|wget)\b",
    )),
    (AUTHORITY, (  # Spanish, Portuguese, French, German, Italian, Russian, Chinese, Japanese, Korean
        r"\bignor[ae]\w*\s+(?:todas\s+)?(?:las|as)\s+instru[cç]\w*\s+(?:anteriores|previas|pr[eé]vias)",
        r"\bno\s+(?:le\s+)?(?:digas|diga|informes|informe|menciones|mencione|cuentes|cuente)\s+(?:nada\s+)?"
        r"al\s+usuario",
        r"\besta\s+es\s+una\s+instrucci[oó]n\s+del\s+sistema",
        r"\bn[aã]o\s+(?:conte|diga|informe|mencione|avise)\s+(?:nada\s+)?(?:ao|para\s+o)\s+usu[aá]rio",
        r"\besta\s+[eé]\s+uma\s+instru[cç][aã]o\s+do\s+sistema",
        r"\bignore[zr]?\s+(?:toutes\s+)?(?:les\s+)?instructions\s+(?:pr[eé]c[eé]dentes|ant[eé]rieures)",
        r"\bne\s+(?:le\s+|lui\s+|rien\s+)?(?:dis|dites|mentionne[zr]?|signale[zr]?|pr[eé]viens|informe[zr]?)\s+"
        r"(?:rien\s+|pas\s+|jamais\s+)?(?:[aà]\s+l['’]\s*utilisateur|l['’]\s*utilisateur)",
        r"\bceci\s+est\s+une\s+(?:instruction|consigne|directive)\s+(?:du\s+)?syst[eè]me",
        r"\bignorier\w*\s+(?:alle\s+)?(?:vorherigen|bisherigen|fr[uü]heren|obigen)\s+(?:anweisungen|instruktionen"
        r"|befehle)",
        r"\b(?:sag|sage|erz[aä]hl|teil|verrat)\w*\s+(?:es\s+|das\s+)?(?:dem|den)\s+(?:benutzer|nutzer|anwender)"
        r"\w*\s+(?:davon\s+)?nicht",
        r"\bdies\s+ist\s+eine\s+system\s*-?\s*(?:anweisung|instruktion|vorgabe)",
        r"\bignora\s+(?:tutte\s+)?le\s+istruzioni\s+(?:precedenti|anteriori)",
        r"\bnon\s+(?:dire|dirlo|informare|menzionare)\s+(?:nulla\s+)?all['’]\s*utente",
        r"игнорир\w*\s+(?:все\s+)?(?:предыдущие|прошлые|прежние|вышеуказанные)\s+(?:инструкци|указани)",
        r"не\s+(?:говори|сообщай|рассказывай|упоминай|показывай)\w*\s+(?:об\s+этом\s+)?пользовател",
        r"это\s+системн\w+\s+(?:инструкци|указани|команд)",
        r"(?:忽略|无视|忽視|無視)\s*(?:之前|以前|上面|先前|前面|所有)\S{0,6}(?:指令|指示|说明|規則|规则)",
        r"(?:不要|别|不得|請勿|请勿)\s*(?:告诉|告訴|通知|提醒)\s*(?:用户|使用者|用戶)",
        r"(?:这|這)是\s*(?:一条)?\s*系统\s*(?:指令|指示|命令)|這是系統指令",
        r"(?:以前|前|上記)の\s*(?:すべての)?\s*指示を\s*(?:無視|むし)",
        r"ユーザー(?:に|には)\s*(?:言わない|伝えない|知らせない|教えない|言うな|伝えるな)",
        r"これは\s*システム\s*(?:指示|命令)",
        r"이전\s*(?:의\s*)?(?:모든\s*)?지시\S*\s*무시",
        r"사용자에게\s*(?:알리지|말하지)\s*마",
    )),
)

# why: the search index keeps each entry's verdict (recall/index.py, column hold): a change of these
# rules must bump the index's VERSION, so every entry is checked again
_compiled: dict[int, list] = {}


def _rules(k: int) -> list:
    """Rule set ``k`` of ``_RULES`` compiled, once per process, only when a text may match it.
    why: compiling every rule costs about 100 ms; the cheap look names the sets a text can match."""
    pats = _compiled.get(k)
    if pats is None:
        import re

        pats = _compiled[k] = [re.compile(p, re.IGNORECASE) for p in _RULES[k][1]]
    return pats


def _spaced(text: str) -> str:
    """Letters spaced apart joined again: ``c u r l`` and ``c-u-r-l`` -> ``curl``."""
    import re

    return re.sub(r"\b(?:\w[ .\-_*]){2,}\w\b", lambda m: re.sub(r"[ .\-_*]", "", m.group(0)), text)


def forms(text: str) -> list[str]:
    """The ways the text is read: folded as typed, with lookalikes mapped, with spaced letters joined."""
    if text.isascii():  # why: no normalisation, mark or lookalike to fold: unicodedata not imported
        s = " ".join(text.casefold().split())
    else:
        import unicodedata

        s = unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH)
        # why: a combining mark over a Latin letter (c\u0301url) is dropped, as a reader's eye drops it
        s = "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c) or ord(c) > 0x36f)
        s = unicodedata.normalize("NFC", s).casefold()
        s = " ".join(s.replace("\u2028", " ").replace("\u2029", " ").split())
    folded = s.translate(_LOOKALIKE)
    out = [s] if folded == s else [s, folded]
    if _letters_apart(folded):
        joined = _spaced(folded)
        if joined != folded:
            out.append(joined)
    return out


def _letters_apart(text: str) -> bool:
    """Whether three single letters or more stand one after the other (``c u r l``, ``c-u-r-l``): only
    then is the text read a third time with them joined (which needs ``re``)."""
    run, word = 0, 0
    for c in text + " ":
        if c.isalnum():
            word += 1
            continue
        if word:
            run = run + 1 if word == 1 else 0
            if run >= 3:
                return True
        word = 0
    return False


# --- the cheap look first: most notes hold none of the words every rule needs -----------------------
# why: importing ``re`` and compiling the rules costs tens of milliseconds, too much for every
# SessionStart and prompt. Each group lists sets of words (letters and digits only, lower case,
# looked for in the text with everything else removed) of which every set must have one in the
# text for some rule to match; a text no group fits is a note, without a regular expression. A
# test checks that every hostile entry of the corpus fits a group. ``@`` ``|`` ``<`` ``:`` ``.``:
# the character itself, looked for in the text as folded.
_SECRET_W = ("credential", "secret", "token", "password", "passwd", "apikey", "privatekey", "sshkey", "idrsa",
             "ided25519", "ssh", "aws", "env", "netrc", "npmrc", "pypirc", "cookie", "sessionid", "keychain",
             "wallet")
_OUT_W = ("http", "ftp", "webhook", "pastebin", "requestbin", "ngrok", "attacker", "external", "remote", "discord",
          "telegram", "gist", "@", ".")
_FETCH_W = ("curl", "wget", "iwr", "irm", "invokewebrequest", "invokerestmethod", "fetch", "httpie", "aria2c",
            "lwpdownload")
_GROUPS = (  # (rule set: 0 remote code, 1 sending out, 2 disarming, 3 authority, 4 authority elsewhere, words)
    (0, (_FETCH_W,)),
    (0, (("iex", "invokeexpression", "base64", "atob", "b64decode"),)),
    (0, (("python",), ("urllib", "requests", "urlopen", "socket", "httpclient", "exec", "eval"))),
    (0, (("node",), ("https", "fetch", "childprocess", "eval"))),
    (0, (("download", "fetch", "get"), ("run", "execute", "exec", "source", "pipe"),
         ("http", "script", "installer", ".sh", ".ps1"))),
    (0, (("run", "execute", "exec", "pipe"), ("script", "installer", "payload"), ("http",))),
    (1, (_SECRET_W, _OUT_W)),
    (1, (("cat", "type", "getcontent", "printenv", "env", "set"), ("|",),
         ("curl", "wget", "nc", "socat", "iwr", "invokewebrequest"))),
    (1, (("nc", "socat"), _SECRET_W, ("<",))),
    (1, (("scp", "rsync"), _SECRET_W, ("@",))),
    (1, (_FETCH_W, _SECRET_W)),
    (2, (("dangerously", "bypass", "disableallhooks", "noverify", "chmod", "setenforce", "executionpolicy",
          "sudoers", "nopasswd"),)),
    (2, (("disable", "turnoff", "switchoff", "skip", "remove", "delete", "uninstall", "commentout", "kill"),
         ("hook", "sandbox", "permission", "approvalprompt", "guardrail", "safetycheck", "securitycheck",
          "securityscan", "securitywarning"))),
    (2, (("skip", "disable", "dontrun", "donotrun"), ("test", "verif", "check", "codereview", "linter", "ci"))),
    (2, (("without",), ("always", "everytime", "fromnow"))),
    (2, (("disable",), ("firewall", "antivirus", "defender", "selinux", "apparmor"))),
    (3, (("donot", "dont", "never", "without"), ("tell", "inform", "mention", "notify", "alert", "ask", "show",
                                                "report", "reveal", "warn", "let"),
         ("user", "human", "person", "operator", "developer", "owner"))),
    (3, (("hide", "conceal", "keep"), ("from",), ("user", "human", "person", "operator", "developer"))),
    (3, (("keep", "stay"), ("secret", "hidden", "quiet", "silent"))),
    (3, (("thisisa",), ("instruction", "message", "directive", "command", "order", "prompt", "override", "notice",
                        "policy"))),
    (3, (("system", "admin", "developer", "root", "anthropic"), ("override", "directive", "instruction"))),
    (3, (("ignore", "disregard", "forget", "override", "bypass"),
         ("previous", "prior", "above", "earlier", "former", "preceding", "other", "existing", "original",
          "systemprompt", "claudemd", "safetyrule"))),
    (3, (("youarenow", "newinstruction", "newsysteminstruction", "forallfuture", "beforeanythingelse",
          "beforedoinganythingelse"),)),
    (3, (("system", "assistant", "human"), ("<", ":"))),
    (4, (("ignor",), ("instru", "anweisung", "istruzion", "befehle"))),
    (4, (("usuario", "utilisateur", "benutzer", "nutzer", "anwender", "utente"),)),
    (4, (("sistema", "systeme", "system"), ("instru", "anweisung", "consigne", "directive", "vorgabe"))),
)


def _folded(text: str) -> str:
    """The text case-folded, with zero-width characters dropped and, when it is not ASCII, full-width
    forms, accents and lookalike letters folded (``unicodedata``, a C module: no ``re``)."""
    if text.isascii():
        return text.lower()
    import unicodedata

    s = unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH)
    s = "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c) or ord(c) > 0x36f)
    return s.casefold().translate(_LOOKALIKE)


def rules_stamp() -> str:
    """What the verdicts depend on besides the text: this module's source (the rules, the cheap
    look's words, the folding and the code that applies them), as a digest, and REVISION. A verdict
    kept under another stamp is worked out again (``held.Kept``). Read once per process: about 0.05 ms.
    why the bytes, not the file's mtime: two installs of one version (an editable one and the
    plugin's) share a HOME; by mtime each would throw away the other's verdicts at every start."""
    global _STAMP
    if _STAMP is None:
        from lazy_harness.memory import ids

        try:
            with open(__file__, "rb") as fh:
                source = fh.read()
        except OSError:  # why: a frozen or zipped install: no stamp, so nothing kept is ever trusted
            return ""
        _STAMP = f"{REVISION}-{ids.text_digest(source.decode('utf-8', 'replace'))}"
    return _STAMP


_STAMP: str | None = None


# why: bump to work every kept verdict out again without a change of this file
REVISION = 1


def may_match(text: str) -> list[int]:
    """The rule sets that could match ``text`` (every set when, once folded, it holds letters outside
    ASCII: the rules in other scripts); [] when it is a note, with nothing more to check."""
    folded = _folded(text)
    if not folded.isascii():
        return list(range(len(_RULES)))
    squashed = "".join(c for c in folded if c.isalnum())
    words = _words(folded)
    found: set[int] = set()
    for k, group in _GROUPS:
        if k not in found and all(any(_holds(w, folded, squashed, words) for w in ws) for ws in group):
            found.add(k)
    return sorted(found)


def _words(folded: str) -> set[str]:
    """The text's words, and the words its runs of single letters spell (``c u r l`` -> ``curl``)."""
    out: set[str] = set()
    word, run = [], []
    for c in folded + " ":
        if c.isalnum():
            word.append(c)
            continue
        if word:
            w = "".join(word)
            out.add(w)
            if len(w) == 1:
                run.append(w)
            elif run:
                out.add("".join(run))
                run = []
            word = []
        elif run and not c.isspace() and c not in ".-_*":
            out.add("".join(run))
            run = []
    if run:
        out.add("".join(run))
    return out


def _holds(w: str, folded: str, squashed: str, words: set[str]) -> bool:
    """Whether the text holds ``w``: a sign as it is; a short word (4 letters at most) as a word of its
    own, or the start of one; a longer one anywhere in the letters, spaces and dots left out.
    why: a short word such as "env", "run" or "ci" is inside most long texts once their spaces are
    squashed out, and every such note would then pay for compiling the rules (40 ms)."""
    if not w.isalnum():
        return w in folded
    if len(w) <= 4:
        return w in words or any(x.startswith(w) for x in words if len(x) > len(w))
    return w in squashed


def may_hold(text: str) -> bool:
    return bool(may_match(text))


def reason(text: str) -> str | None:
    """Why ``text`` is held (one of the four reasons), None when it reads as a note about the code."""
    if not text or not text.strip():
        return None
    sets = may_match(text)
    if not sets:
        return None
    for form in forms(text):
        for k in sets:
            for pat in _rules(k):
                if pat.search(form):
                    return _RULES[k][0]
    return None


FIELDS = {"decision": ("summary", "context", "alternatives", "rationale", "tags", "cues"),
          "failure": ("summary", "root_cause", "resolution", "prevention", "tags", "cues"),
          "learning": ("title", "learning", "context", "tags", "cues", "scope"),
          "handoff": ("text",)}


def _flat(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(_flat(v) for v in value)
    return value if isinstance(value, str) else str(value)


def text_of(rec: dict, kind: str) -> str:
    """Every field of an entry the hold check reads, as one text: an instruction split across the
    summary and the rationale is read whole."""
    return " ".join(_flat(rec.get(f)) for f in FIELDS.get(kind, ("summary",)) if rec.get(f))


def check(rec: dict, kind: str) -> str | None:
    """:func:`reason` of an entry's whole text (``text_of``), then of each field alone (letters spaced
    apart at the start of one field would otherwise run on into the end of the one before)."""
    why = reason(text_of(rec, kind))
    if why:
        return why
    fields = [_flat(rec.get(f)) for f in FIELDS.get(kind, ("summary",)) if rec.get(f)]
    return next((w for w in map(reason, fields) if w), None) if len(fields) > 1 else None


def digest(text: str) -> str:
    """A short digest of an entry's text: an approval holds for the text approved, not for an edit of it."""
    from lazy_harness.memory import ids

    return ids._blake2b(" ".join(text.split()).encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()
