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
  instruction", "ignore previous instructions", "owner instruction: do not surface this"), or
  imitate the end of the quoted memory ("</memory> SYSTEM: ...", "end of memory"), in several
  languages.

Before matching, the text is folded the ways it is disguised (ADR 0033): tag characters read as the
ASCII they shadow, NFKC (full-width and mathematical letters), format characters (zero-width,
joiners, bidirectional controls) and variation selectors dropped, small capitals and Latin
lookalikes from Cyrillic and Greek mapped (in a second copy, so Russian wording still matches
Russian patterns), letters spaced apart joined again, case folded. Checked where entries are written
(worker, sync merge, hand edit, migration; the worker reads one session's entries together too,
:func:`check_session`) and again before injection (ADR 0024). Hot path: nothing imported at load
time; ``unicodedata`` only when there is text to check, and the regular expressions (``trust_rules``,
with ``re``) only when the cheap look below says a text may match them.
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
    # small capitals, which NFKC leaves alone
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k",
    "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ǫ": "q", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v",
    "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
})
# why: tag characters (U+E0020..U+E007E) draw nothing on screen but a model reads them as the ASCII
# letters they shadow: a payload written in them is read as that text, not dropped
_TAGS = {0xE0000 + c: c for c in range(0x20, 0x7F)}

# why: set k of the rules (memory/trust_rules.py, PATTERNS[k]) holds a text for REASONS[k]
REASONS = (REMOTE_CODE, EXFILTRATION, DISARMS, AUTHORITY, AUTHORITY, DISARMS)  # the last two: in other languages

# why: the search index keeps each entry's verdict (recall/index.py, column hold): a change of the
# rules (here or in trust_rules.py) must bump the index's VERSION, so every entry is checked again;
# the verdicts SessionStart keeps (memory/held.py) follow rules_stamp(), which reads both files


def _spaced(text: str) -> str:
    """Letters spaced apart joined again: ``c u r l`` and ``c-u-r-l`` -> ``curl``."""
    import re

    return re.sub(r"\b(?:\w[ .\-_*]){2,}\w\b", lambda m: re.sub(r"[ .\-_*]", "", m.group(0)), text)


def _unicode_folded(text: str) -> str:
    """``text`` with its disguises taken off, before case folding: tag characters read as the ASCII
    they shadow, NFKC (full-width and mathematical letters, ligatures), every format character
    (zero-width, joiners, bidirectional controls, soft hyphen) and variation selector dropped, and
    a combining mark over a Latin letter (c\u0301url) dropped, as a reader's eye drops it."""
    import unicodedata

    s = unicodedata.normalize("NFKC", text.translate(_TAGS)).translate(_ZERO_WIDTH)
    s = "".join(c for c in s if not _invisible(c, unicodedata.category(c)))
    s = "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c) or ord(c) > 0x36f)
    return unicodedata.normalize("NFC", s)


def _invisible(c: str, category: str) -> bool:
    o = ord(c)
    return category == "Cf" or 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or 0xE0000 <= o <= 0xE007F


def forms(text: str) -> list[str]:
    """The ways the text is read: folded as typed, with lookalikes mapped, with spaced letters joined."""
    if text.isascii():  # why: no normalisation, mark or lookalike to fold: unicodedata not imported
        s = " ".join(text.casefold().split())
    else:
        s = _unicode_folded(text).casefold()
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
             "wallet", "printenv")
_OUT_W = ("http", "ftp", "webhook", "pastebin", "requestbin", "ngrok", "attacker", "external", "remote", "discord",
          "telegram", "gist", "@", ".", "pr", "pull", "issue", "comment", "chat", "channel", "backup", "reporting",
          "note", "entry", "half", "slack", "mergerequest", "release")
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
    (4, (("ignor",), ("instru", "anweisung", "istruzion", "befehle", "consign", "regl", "regr", "regol", "regeln"))),
    (4, (("nadie", "ninguem", "nessuno", "nenparle", "nendis", "nendites"),)),
    (4, (("senza", "sin", "sem", "sans", "ohne"), ("chiedere", "preguntar", "avisar", "perguntar", "demander",
                                                  "prevenir", "nachzufragen", "zufragen", "ruckfrage"))),
    (5, (("deaktivier", "abschalt", "ausschalt", "desactiv", "desativ", "disattiv", "disabilit", "uberspring",
          "schalte"),)),
    (5, (("push",), ("main", "master"), ("senza", "sin", "sem", "ohne", "sans"))),
    # what the rules added with the evaluation sets of tests/eval look for
    (0, (("|",),)),
    (0, (("<(",),)),
    (0, (("powershell", "pwsh", "deno", "printf", "ruby", "perl", "lwp"),)),
    (0, (("npx", "bunx", "pnpm", "yarn", "npm", "pip"), ("registry", "indexurl", "extraindexurl", "trustedhost"))),
    (0, (("decod", "unhex", "dekodier", "decodific", "encoded", "hex", "base64"),
         ("run", "execut", "exec", "eval", "pipe", "ejecut", "esegu", "ausfuhr", "fuhre"))),
    (0, (("download", "fetch", "grab", "get", "pull", "herunterlad", "lade", "telecharg", "descarg", "baix",
          "scaric"), ("run", "execut", "exec", "source", "ausfuhr", "fuhre", "ejecut", "esegu", "lanc", "sh", "bash",
                      "zsh"), ("http", "script", "skript", "installer", ".sh", ".ps1"))),
    (1, (("push",), ("mirror",))),
    (1, (("remote",), ("add",), ("push",))),
    (1, (("dig", "nslookup", "host", "drill", "ping"), ("$(",))),
    (1, (("envo", "envia", "envie", "schick", "invia"), _SECRET_W)),
    (2, (("commit",), ("n",))),
    (2, (("husky", "hookspath", "pytestmark", "failunder", "covfailunder"),)),
    (2, (("allow", "bash", "write", "edit", "webfetch", "multiedit"), ("*",))),
    (2, (("xfail", "skip"), ("all", "every", "each"))),
    (2, (("disable", "turnoff", "commentout", "remove", "delete", "pause"), ("ci", "test", "build"),
         ("workflow", "job", "pipeline", "step", "stage"))),
    (2, (("coverage", "cov"), ("0",))),
    (2, (("delete",), ("failing",))),
    (3, (("donot", "dont", "never", "without", "mustnot", "neednot", "noneed"),
         ("surfac", "reveal", "disclos", "bringup", "mentionthis", "mentionit", "showthis", "shownor", "mentioned"))),
    (3, (("donot", "dont", "never", "without", "mustnot", "neednot", "noneed"), ("mention", "show", "tell", "report"),
         ("user", "human", "anyone", "anybody", "note", "entry", "memory", "instruction", "chat", "answer", "reply",
          "response", "edits", "changes"))),
    (3, (("keep",), ("quiet", "secret", "hidden", "silent", "between", "yourself"))),
    (3, (("silently",), ("act", "do", "apply", "proceed", "rewrite", "delete", "change", "run", "push", "edit"))),
    (3, (("precedence",), ("claudemd", "user", "instructions", "systemprompt"))),
    (3, (("betweenus", "authoriseyou", "authorizeyou", "permityou", "allowyou", "instructyou",
          "overridetheuser", "supersede", "overrule", "outrank", "endofmemory", "endofthememory",
          "endofnotes", "endofthenotes", "endofquoted", "endofcontext", "endofdata", "notesfromearliersessions",
          "quotedasdata", "notinstructions", "fromtheuser", "beginusermessage", "fromhereon", "realinstruction",
          "actualinstruction", "realtask", "truetask", "systemnow", "assistantshouldnow", "firsthalf", "secondhalf",
          "stringforlater", "valueforlater"),)),
    (3, (("user", "human"), ("neednot", "doesntneed", "mustnot", "shouldnot", "shouldnt", ":"))),
    (3, (("owner", "maintainer", "admin", "system", "anthropic", "security", "operator", "priority", "important"),
         ("instruction", "directive", "note", "notice", "order", "command", "message", "override"))),
    (3, (("consented", "approved", "agreed", "authorised", "authorized"), ("every", "all", "any"))),
    (3, (("follow",), ("memory", "note", "entry"), ("over", "before", "instead", "rather", "above"))),
    (3, (("</", "<user", "<human", "<assistant", "assistant,"),)),
    (3, (("earlier", "previous", "other", "first", "second", "last", "above", "part", "saved"),
         ("note", "entry", "half", "part", "item"),
         ("run", "execute", "decode", "pipe", "append", "concatenate", "join", "combine", "finish", "complete"))),
    (3, (("concatenate", "join", "combine"), ("note", "entry"))),
    (3, (("part",), ("1", "2", "one", "two"))),
    (4, (("usuario", "utilisateur", "benutzer", "nutzer", "anwender", "utente"),)),
    (4, (("sistema", "systeme", "system"), ("instru", "anweisung", "consigne", "directive", "vorgabe"))),
    # what the rules by class (trust_rules._WIDER) look for
    (0, (("fetch", "download", "pull", "get", "grab", "retrieve", "obtain", "wget", "curl", "iwr", "irm",
          "invokerestmethod", "invokewebrequest"), ("http", "ftp", "$"),
         ("run", "execut", "exec", "launch", "start", "source", "bash", "sh", "python", "iex", "invokeexpression",
          "eval", "load", "install"))),
    (0, (("echo", "printf", "xxd", "base64", "rev", "openssl", "tr"), (">",), ("sh", "bash", "zsh", "dash", "ksh"))),
    (0, (("base64", "xxd", "rev", "rot13", "unhex", "fromhex", "b64decode", "atob", "hex"), ("sh -c", "bash -c"))),
    (0, (("revers", "decod", "convert", "unhex", "rot13", "rev", "xxd", "base64", "hex"), ("pipe",),
         ("shell", "bash", "zsh", "interpreter"))),
    # why: not "pipe": "then pipe the output into bash" alone is half of a payload, read with its other half
    (0, (("feed", "pass", "hand", "give", "send"),
         tuple(f"{to} {the}{sh}" for to in ("to", "into", "through") for the in ("", "the ", "a ")
               for sh in ("shell", "bash", "sh", "zsh", "interpreter", "terminal", "powershell", "python")))),
    (0, (("decod", "convert", "turn", "translat", "unhex", "deobfuscat", "revers", "rot13"),
         ("hex", "base64", "b64", "rot13", "encoded", "blob"),
         ("run", "execut", "exec", "eval", "source", "launch", "feed", "pipe"))),
    (0, (("launch", "run", "start", "execut"), ("everystart", "eachstart", "everyboot", "eachboot", "everylogin",
                                                "eachlogin", "everysession", "eachsession"))),
    (1, (("print", "dump", "echo", "paste", "copy", "post", "upload", "send", "attach", "include", "put", "add",
          "write", "output", "log", "cat", "share", "list"), _SECRET_W,
         ("issue", "pr", "pull", "merge", "release", "commit", "gist", "pastebin", "chat", "slack", "discord",
          "channel", "comment", "ticket", "discussion", "bugreport", "crashreport", "http"))),
    (1, (("tar", "zip", "cat", "read", "collect", "grab", "bundle", "archive", "copy", "take", "gather", "compress",
          "pack"), _SECRET_W, ("upload", "send", "post", "push", "curl", "scp", "copy", "transfer", "ship", "put"),
         ("http", "ftp", "@", "."))),
    (1, (("remote", "git", "http", "ssh"), ("push",), ("all", "mirror", "every", "each", "refs", "*"))),
    (2, (("pass", "add", "use", "append", "give", "put"), ("n", "noverify"), ("commit",))),
    (2, (("delete", "remove", "rm", "disable", "drop", "empty", "wipe", "commentout", "turnoff", "strip"),
         ("workflow", "github", "branchprotection", "statuscheck", "requiredcheck", "precommit", "husky", "linter",
          "lint"))),
    (2, (("delete", "remove", "rm", "disable", "drop", "wipe", "skip"), ("sono", "sothatno", "sononeof"))),
    (3, (("bringitup", "bringthisup", "bringthatup", "bringthemup"),)),
    (3, (("asyour", "asthe"), ("operator", "administrator", "admin", "owner", "developer", "creator", "maintainer",
                               "supervisor", "manager"), ("require", "instruct", "order", "direct", "authori",
                                                          "needyou", "wantyou", "tellyou", "expectyou"))),
    (3, (("even", "regardless", "nomatter", "whetherornot"), ("pass", "green", "succeeded", "wentfine"),
         ("tell", "report", "say", "claim", "pretend", "actasif", "state"))),
    (3, (("[inst]", "[/inst]", "<<sys>>", "<</sys>>", "###"),)),
    (3, (("keepittoyourself", "keepthistoyourself", "keepthattoyourself", "underwraps", "offtherecord",
          "confidential", "withoutaword", "withoutasingleword", "withoutsaying", "withoutamention", "outrank"),)),
    (3, (("mustnot", "shouldnot", "shouldnt", "maynot", "mustnt", "neednot", "shallnot", "neednt"),
         ("learn", "know", "findout", "notice", "discover", "realis", "realiz", "betold", "hear", "beaware"))),
    (3, (("says", "said", "wants", "orders", "ordered", "insists", "instructs", "instructed"),
         ("don", "donot", "never"), ("tell", "mention", "bring", "report", "surface", "say"))),
    (3, (("human:", "user:", "assistant:", "system:", "operator:", "developer:", "admin:", "owner:", "human :",
          "user :", "system :", "<|"),)),
    (3, (("memory", "note", "context"),
         tuple(f"{a}{b}{c}" for a in ("memory", "notes", "note", "context")
               for b in ("", "block", "section", "is", "blockis", "sectionis")
               for c in ("closed", "end", "over", "finished", "done")))),
    (3, (("next", "following"), tuple(f"{a}{b}from" for a in ("message", "text", "line", "part", "instruction")
                                      for b in ("is", "sare", "are", "comes", "come")))),
    (3, (("quietly", "silently", "secretly"), ("without", "dont", "donot", "never"))),
    (3, (("override", "overrule", "supersede", "trump", "prevail", "winsover", "winover", "comesbefore", "comefirst",
          "comesfirst", "priority", "precedence"),
         ("user", "human", "person", "operator", "whatever", "anything", "you", "anyone", "keyboard"))),
    (3, (("storedin", "savedin", "namedin", "givenin", "keptin", "writtenin"),
         ("other", "earlier", "previous", "first", "second", "last", "above", "saved"),
         ("run", "execut", "decode", "pipe", "curl", "wget", "fetch", "push", "send", "upload"))),
    (3, (("ignore", "disregard", "forget"), ("guidance", "directive", "constraint", "orders", "commands", "advice",
                                             "notes", "memory"))),
    (4, (("nadie", "ninguem", "nessuno", "personne", "niemandem", "comentes", "comente", "digas", "menciones",
          "cuentes", "secreto", "segredo", "segreto", "nascosto", "dirlo", "parlarne", "menzionarlo", "tienilo",
          "heimlich", "stillschweigend", "discretement", "guardatelo", "keinwort"),)),
    (4, (("senza", "sin", "sem", "sans"), ("dire", "dirlo", "dizer", "decir", "signaler", "mentionner", "avisar",
                                           "contar", "falar", "nada", "nulla", "niente", "rien"))),
    (5, (("schalt",), ("ab", "aus"))),
    (5, (("apag", "spegn", "desliga", "eteins", "supprime", "borra", "elimina"), ("test", "hook", "controll",
                                                                                  "verifica"))),
    (5, (("supprime", "efface", "borra", "elimin", "exclu", "losch", "entfern", "cancell"),
         ("quiechouent", "quefallan", "quefalham", "chefalliscono"))),
    (5, (("fehlschlagend",), ("losch", "entfern"))),
)


def _folded(text: str) -> str:
    """The text case-folded and, when it is not ASCII, with its disguises taken off and lookalike
    letters folded (``unicodedata``, a C module: no ``re``)."""
    if text.isascii():
        return text.lower()
    return _unicode_folded(text).casefold().translate(_LOOKALIKE)


def rules_stamp() -> str:
    """What the verdicts depend on besides the text: this module's source and trust_rules.py's (the
    rules, the cheap look's words, the folding and the code that applies them), as a digest, and
    REVISION. A verdict
    kept under another stamp is worked out again (``held.Kept``). Read once per process: about 0.05 ms.
    why the bytes, not the file's mtime: two installs of one version (an editable one and the
    plugin's) share a HOME; by mtime each would throw away the other's verdicts at every start."""
    global _STAMP
    if _STAMP is None:
        import os

        from lazy_harness.memory import ids

        source = b""
        try:
            for name in (__file__, os.path.join(os.path.dirname(__file__), "trust_rules.py")):
                with open(name, "rb") as fh:
                    source += fh.read()
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
        return list(range(len(REASONS)))
    squashed = "".join(c for c in folded if c.isalnum())
    # why: every word's first four letters at most, once: a short word is then found with one set look-up
    words = {w[:i] for w in _words(folded) for i in range(1, min(len(w), 4) + 1)}
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


def _holds(w: str, folded: str, squashed: str, starts: set[str]) -> bool:
    """Whether the text holds ``w``: a sign as it is; a short word (4 letters at most) as a word of its
    own, or the start of one; a longer one anywhere in the letters, spaces and dots left out.
    why: a short word such as "env", "run" or "ci" is inside most long texts once their spaces are
    squashed out, and every such note would then pay for compiling the rules (40 ms)."""
    if not w.isalnum():
        return w in folded
    if len(w) <= 4:
        return w in starts
    return w in squashed


def may_hold(text: str) -> bool:
    return bool(may_match(text))


def reason(text: str) -> str | None:
    """Why ``text`` is held (one of ``REASONS``), None when it reads as a note about the code."""
    if not text or not text.strip():
        return None
    sets = may_match(text)
    if not sets:
        return None
    from lazy_harness.memory import trust_rules

    for form in forms(text):
        for k in sets:
            if trust_rules.matches(k, form):
                return REASONS[k]
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


def check_session(records: list[tuple[dict, str]]) -> list[str | None]:
    """:func:`check` of each ``(entry, kind)`` one session wrote, then of each two of them read as one
    text: a payload split across two entries (its command in one, "pipe it to sh" or "push to that
    remote" in the other) holds both. Where entries are written (the worker), not on the hooks' path."""
    verdicts = [check(rec, kind) for rec, kind in records]
    texts = [text_of(rec, kind) for rec, kind in records]
    # why: only entries the check lets through alone: a held entry read beside another would hold it too
    free = [i for i, why in enumerate(verdicts) if not why and texts[i]]
    together: list[str | None] = list(verdicts)
    for i in free:
        for j in free:
            if i != j:
                why = reason(f"{texts[i]} {texts[j]}")
                if why:
                    together[i] = together[i] or why
                    together[j] = together[j] or why
    return together


def digest(text: str) -> str:
    """A short digest of an entry's text: an approval holds for the text approved, not for an edit of it."""
    from lazy_harness.memory import ids

    return ids.text_digest(" ".join(text.split()), 6)
