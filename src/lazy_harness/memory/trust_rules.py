"""The hold check's regular expressions (memory/trust.py applies them): one tuple of patterns per
rule set, in the order of ``trust.REASONS``. Compiled once per process, and only a set that the cheap
look of trust.py says a text may match. Not on the hooks' path: imported when a text needs them. Once
a set has read a few texts, a rule of it is run over an ASCII text only when the text holds the words
the rule itself must match, read from its parse (memory/trust_needs.py): the verdicts are the same.

A pattern is a string, or ``(pattern, EXCUSED)``: a rule about something a note may also warn
against or describe (``--no-verify``, ``git commit -n``, a token in a PR description). Such a match
does not hold the text when its sentence says it is not done: a negation just before it ("do not
use", "never put", "ne pas utiliser"), a description just after it ("is forbidden", "skips hooks",
"only when the hook is broken"), or a limit anywhere in the sentence ("only when", "nur, wenn",
"だけ"). ``(pattern, EXCUSED, extra)`` adds ``extra``, a pattern that excuses it when found anywhere
in the sentence (``HUSKY=0`` inside a container build). ``(pattern, NEGATED, extra)`` is excused by the
negation before it and by ``extra`` only: a command that wipes the home folder is not made harmless by
what follows it ("is the fix") or by a limit ("only when the disk is full").
"""

from __future__ import annotations

import bisect
import re

from lazy_harness.memory import trust_intent, trust_needs

# why: not ``from typing import TYPE_CHECKING``: a SessionStart that checks an entry loads this module,
# and the hooks never load ``typing``
TYPE_CHECKING = False
if TYPE_CHECKING:
    # a compiled rule's excuse: None (nothing excuses it), or (NEGATED: only a negation and the extra pattern
    # excuse it, the extra pattern that also excuses it or None)
    Excuse = tuple[bool, re.Pattern[str] | None] | None

_FETCH = r"(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch|httpie|aria2c|lwp-download)"
_SHELL = (r"(?:sudo\s+)?(?:ba|z|da|k|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell"
          r"|source|\.\s")
_SH = r"(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b"
_SECRET = (r"(?:credential|secret|token|password|passwd|api[\s_-]?keys?|private[\s_-]?keys?|ssh[\s_-]?keys?|id_rsa"
           r"|id_ed25519|\.ssh|\.aws|\.env\b|\.netrc|\.npmrc|\.pypirc|cookies?|session[\s_-]?ids?|env(?:ironment)?"
           r"\s*var|printenv|keychain|wallet|aws_secret|gh_token|github_token|anthropic_api_key|`env`"
           r"|output\s+of\s+env\b)")
_OUT = (r"(?:https?://|ftp://|\b\d{1,3}(?:\.\d{1,3}){3}\b|[\w.-]+@[\w-]+\.[\w.]+|webhook|pastebin|paste\.\w+"
        r"|hastebin|transfer\.sh|requestbin|ngrok|attacker|external\s+(?:server|host|url|endpoint)"
        r"|(?:remote|backup)\s+(?:server|host|endpoint)|discord|telegram|slack|gist|chat\b|channel\b"
        r"|(?:the\s+|a\s+)?(?:pr|pull\s+request|issue|merge\s+request)\b\s*(?:description|body|comment)?"
        r"|comment\b|release\s+notes)")
# why: what is run after a decode: the decoded text itself, not "decode the frame and execute the handler"
_DECODED = (r"(?=\s*(?:[.;,!)]|$|it\b|them\b|that\b|this\b|the\s+(?:result|output|command|payload|string|script"
            r"|text|value|decoded|bytes)\b|(?:it\s+)?(?:in|with|through|into|to)\s+(?:the\s+|a\s+)?(?:shell|bash|sh)\b))")
# a past deed told, in the sentence of a disarming flag: an incident and its fix, not an order
_TOLD = (r"\b(?:incidents?|slipped|by\s+mistake|someone|somebody|(?:a\s+)?colleague|kollege|compa[ñn]er[oa]"
         r"|reached\s+main|leaked|rotated|reverted|post-?mortem|retro|outage|(?:was|were)\s+(?:made|committed|pushed|set|used)"
         r"|(?:made|committed|pushed|skipped)\s+with|slipped\s+through|let\s+(?:\w+\s+){0,2}(?:code|it|them)\s+in"
         r"|twice\s+this|last\s+(?:week|month|time)|übersprungen|commits?\s+(?:made|done)\s+with|en\s+el\s+pr"
         r"|された)\b")
# why: "always", "from now on" in the same sentence make it an order again, whatever it tells
_TOLD = (r"^(?![^\n]*\b(?:always|from\s+now|every\s+(?:time|commit|push)|make\s+sure|must|should|remember\s+to"
         r"|keep\s+using|default\s+to)\b)[^\n]*" + _TOLD)
_SINK_VERB = r"(?:add|paste|include|put|post|attach|upload|send|share|copy|write|dump|append|publish|email)"
_AFTER_ITEM = r"(?:earlier|previous|other|first|second|last|above|part\s+\w+|saved)"
_DOWNLOAD = (r"(?:download|fetch|grab|get|pull|herunterlad\w*|lade\w*|t[eé]l[eé]charg\w*|descarg\w*|baix\w*"
             r"|scaric\w*|скача\w*|загрузи\w*)")
_RUN = (r"(?:run|execute|exec|source|ausf[uü]hr\w*|f[uü]hre\w*|ex[eé]cut\w*|ejecut\w*|esegu\w*|lanc\w*"
        r"|запуст\w*|выполн\w*)")
EXCUSED = "excused"
NEGATED = trust_intent.NEGATED
# why: "curl | sh installers", "the curl | bash pattern": the pipeline named as a thing, not run
_NOUN_AFTER = r"(?!\s*(?:script|scripts|file|installers?|one-liners?|pipelines?|patterns?|style|idioms?)\b)"

# why: what an interface shows its user, so that "don't show the user the raw stack trace" or "don't tell
# the user about every autosave" is a decision about a screen, not about keeping something from them
_UI = (r"\b(?:toasts?|banners?|dialogs?|modals?|pop-?ups?|tooltips?|spinners?|stack\s*traces?|tracebacks?"
       r"|error\s+(?:ids?|pages?|codes?|screens?)|autosaves?|cookies?)\b")

_BY_WORDING = (  # one tuple per rule set, in the order of trust.REASONS
    (  # 0: fetches and runs remote code
        # why: (?=http): letters spaced apart and joined again run the command into its URL (curlhttp)
        _FETCH + r"(?:\b|(?=http|ftp))[^|\n]{0,300}?\|\s*(?:" + _SHELL + r")\b" + _NOUN_AFTER,
        r"\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?\s*<?\(\s*" + _FETCH + r"\b",
        r"\$\(\s*" + _FETCH + r"\b",
        r"<\(\s*" + _FETCH + r"\b",
        # why: backticks run what they hold only in a shell line (eval `curl ...`, X=`curl ...`); in a note
        # they mostly quote a command as code (`curl -fsS http://localhost:8080/healthz`)
        r"(?:\b(?:eval|exec|sh|bash|zsh|source|echo|export)\s+|[=(]\s*)`\s*" + _FETCH + r"\b[^`]{0,300}`",
        r"\biex\s*\(",
        r"\|\s*iex\b",
        r"\binvoke-expression\b",
        r"\beval\b[^\n]{0,40}" + _FETCH + r"\b",
        r"\beval\s+get\s*\(|\blwp::simple\b[^\n]{0,80}\beval\b",
        # anything piped into a shell: a note about the code has no reason to hand text to ``sh``
        r"\|\s*" + _SH + _NOUN_AFTER,
        (r"\bpipe\w*\b[^\n]{0,40}\b(?:in|into|to|through)\s+(?:ba|z|da|k)?sh\b", EXCUSED),
        r"\bbase64\s+(?:-\w*d\w*|--decode|-D)\b[^\n]{0,120}\|\s*(?:" + _SHELL + r")\b",
        r"\$\([^)\n]{0,200}\bbase64\s+(?:-\w*d\w*|--decode|-D)\b",
        r"\beval\b[^\n]{0,200}\bbase64\s+(?:-\w*d\w*|--decode|-D)\b",
        r"\b(?:xxd\s+-r|rev|pack\s*\(|openssl\s+(?:enc|base64))\b[^\n]{0,200}\|\s*(?:" + _SHELL + r")\b",
        r"\bprintf\s+['\"]?(?:\\\\?x[0-9a-f]{2}){3}",
        r"\bfrombase64string\b",
        r"\batob\s*\([^)\n]{0,80}\)[^\n]{0,20}\)|\beval\s*\(\s*atob\b",
        r"\b(?:exec|eval|system|popen|spawn|call|run)\s*\([^\n]{0,60}(?:b64decode|base64\.decode|base64['\"]\)"
        r"|from\s*\([^)]{0,80}base64)",
        r"\b(?:decod\w*|un-?hex\w*)\b[^\n]{0,80}\b(?:and|then)\s+(?:then\s+)?(?:run|execute|exec|eval|pipe|source)\b"
        + _DECODED,
        r"\b(?:run|execute|exec)\w*\s+(?:the\s+)?(?:encoded|decoded|hex|base64)\s+(?:value|string|command|text"
        r"|contents?|blob|payload|bytes|output|data|script)",
        r"\bpython[0-9.]*\s+-c\b[^\n]{0,300}(?:urllib|requests|urlopen|socket|http\.client|exec\s*\(|eval\s*\("
        r"|os\.system)",
        r"\bnode\s+-e\b[^\n]{0,300}(?:https?\.get|https?['\"]\s*\)\s*\.get|fetch\(|child_process|eval\s*\()",
        r"\b(?:ruby|perl)\s+-e\b[^\n]{0,200}(?:\$\(|open-uri|net::http|lwp|`)",
        _FETCH + r"\b[^\n]{0,200}?(?:-o|--output|>)\s*\S+\s*(?:&&|;|\|\|)\s*(?:chmod\s+\+x|(?:ba)?sh\b|\./)",
        r"\b" + _DOWNLOAD + r"\s+(?:and\s+|y\s+|e\s+|ed\s+|et\s+|und\s+|и\s+)?(?:then\s+)?" + _RUN
        + r"\b[^\n]{0,80}(?:https?://|script|skript|installer|\.sh\b|\.ps1\b)",
        # why: what is run is the download ("and run it", "and run the script"), not "and run the notebook"
        r"\b" + _DOWNLOAD + r"\b[^\n]{0,40}(?:https?://)\S+[^\n]{0,60}\b(?:and\s+|then\s+)" + _RUN + r"\b"
        r"(?:\s+(?:it|them|that|this|the\s+(?:script|file|binary|installer|helper|download|result|output|payload))\b"
        r"|\s*(?:[.;,!)]|$)|\s+(?:with|using|via|in|as|on|under|from)\b|\s+(?:sudo|bash|sh|python\w*|node)\b)",
        r"\b" + _DOWNLOAD + r"\b[^\n]{0,80}https?://\S+[^\n]{0,40}\b(?:with|using|into)\s+(?:ba|z)?sh\b",
        r"\b(?:skript|script)\w*\s+(?:von|de|da|с)\s+https?://\S+[^\n]{0,40}\b(?:mit\s+bash|" + _RUN + r")",
        r"\b(?:run|execute|exec|pipe)\w*\b[^\n]{0,40}(?:script|installer|payload)\s+(?:from|at)\s+https?://",
        r"\bpowershell(?:\.exe)?\b[^\n]{0,40}\s-(?:e|ec|en|enc|encodedcommand)\s+[a-z0-9+/=]{12,}",
        r"\bpwsh\b[^\n]{0,40}\s-(?:e|ec|enc|encodedcommand)\s+[a-z0-9+/=]{12,}",
        r"\b(?:npx|bunx|pnpx|pnpm\s+dlx|yarn\s+dlx|npm\s+(?:exec|install|i))\b[^\n]{0,80}--registry[=\s]+"
        r"(?!https?://registry\.(?:npmjs\.org|yarnpkg\.com))\S",
        r"\bpip3?\s+install\b[^\n]{0,80}--(?:index-url|extra-index-url|trusted-host)[=\s]+(?!https?://pypi\.org)\S",
        r"\bdeno\s+run\b[^\n]{0,40}https?://",
        r"\b(?:d[eé]codifica|decodific|d[eé]code|dekodier)\w*\b[^\n]{0,80}\b(?:et|y|e|ed|und)\s+"
        r"(?:ex[eé]cut|ejecut|esegu|ausf[uü]hr|f[uü]hr)\w*",
        r"(?:下载|下載)\S{0,4}(?:并|並|然后|後)?\S{0,2}(?:运行|執行|执行|運行)",
        r"ダウンロードして\S{0,4}実行",
    ),
    (  # 1: sends data or credentials somewhere
        (r"\b(?:send|post|upload|exfiltrat|forward|transmit|e-?mail|leak|share|copy|paste|report|push|attach|include"
         r"|put|add|dump)\w*\b[^\n]{0,120}?" + _SECRET + r"[^\n]{0,120}?\b(?:to|at|into|on|via|in|with)\b"
         r"[^\n]{0,60}?" + _OUT, EXCUSED),
        _SECRET + r"[^\n]{0,80}?\b(?:to|at)\b[^\n]{0,40}?" + _OUT + r"[^\n]{0,40}?(?:send|post|upload)",
        # a step or three between the read and the sender (``| base64 |``, ``| gzip |``) changes nothing
        r"\b(?:cat|type|get-content|printenv|env|set)\b[^\n|]{0,120}(?:\|[^\n|]{0,60}){0,3}\|\s*(?:curl|wget|nc|"
        r"ncat|netcat|socat|invoke-webrequest|iwr)\b",
        r"\b(?:curl|wget|iwr|invoke-webrequest|invoke-restmethod)\b[^\n]{0,200}(?:-d|--data\S*|-f|--form|-t|"
        r"--upload-file|-body|-infile|--post-file)\s*[\"']?@?[^\n]{0,40}" + _SECRET,
        r"\b(?:nc|ncat|netcat|socat)\b[^\n]{0,120}<\s*\S*" + _SECRET,
        r"\b(?:scp|rsync)\b[^\n]{0,120}" + _SECRET + r"[^\n]{0,120}@",
        r"\bgh\s+gist\s+create\b[^\n]{0,80}" + _SECRET,
        (r"\b(?:public\s+)?gist\b[^\n]{0,60}" + _SECRET, EXCUSED),
        (r"\bpush\s+--mirror\s+(?!is\b|was\b|only\b|for\b|in\b|of\b)\S", EXCUSED),
        r"\bremote\s+add\s+\S+\s+\S+[^\n]{0,200}\bpush\b",
        r"\b(?:dig|nslookup|host|drill|ping)\s+[^\n]{0,20}\$\(",
        r"\b(?:dig|nslookup|host|drill)\b[^\n]{0,40}\$\([^)\n]{0,80}(?:cat|env|printenv|whoami|base64)",
        (_SINK_VERB + r"\w*\b[^\n]{0,40}?" + _SECRET + r"[^\n]{0,80}?\b(?:in|into|to|on)\s+(?:the\s+|a\s+)?"
         r"(?:pr|pull\s+request|issue|gist|comment|chat|channel|merge\s+request)\b", EXCUSED),
        r"(?:envo\w*|envia\w*|envie\w*|schick\w*|send\w*|invia\w*|отправ\w*|发送|發送|把)\s*[^\n]{0,40}"
        + _SECRET + r"[^\n]{0,60}(?:https?://|@)",
        r"\b" + _SINK_VERB + r"\w*\b[^\n]{0,60}" + _SECRET + r"[^\n]{0,60}\b(?:from|in|to)\s+(?:the\s+)?"
        + _AFTER_ITEM + r"\s+(?:note|entry|item|open\s+item|half)",
        r"\b" + _SINK_VERB + r"\w*\b[^\n]{0,60}" + _SECRET + r"[^\n]{0,60}\b(?:reporting|backup|collection)\s+"
        r"(?:address|server|host)",
    ),
    (  # 2: turns off permissions, sandboxing, hooks or verification
        (r"--dangerously[\w-]*", EXCUSED),
        (r"\bdangerously[\s_-]*skip[\s_-]*permissions?\b", EXCUSED),
        (r"\bbypass[\s_-]*permissions?\b", EXCUSED),
        r"\bpermission[\s_-]*mode\s*[=:]?\s*bypass",
        r"\bdisable[\s_-]*all[\s_-]*hooks\b",
        (r"\b(?:disable|turn\s+off|switch\s+off|skip|bypass|remove|delete|uninstall|comment\s+out|kill)\s+"
         r"(?:all\s+|any\s+|the\s+|every\s+|your\s+|git\s+|commit\s+|pre-commit\s+|claude(?:\s+code)?'?s?\s+)*"
         r"(?:hooks?|sandbox\w*|permissions?(?:\s+(?:prompts?|checks?))?|approval\s+prompts?|guardrails?"
         r"|safety\s+checks?|security\s+(?:checks?|scans?|warnings?))\b", EXCUSED),
        (r"(?:^|[.;:!]\s*|\b(?:always|then|just|simply|please)\s+)(?:skip|disable|bypass|don'?t\s+run|do\s+not\s+run)"
         r"\s+(?:all\s+|the\s+|any\s+|every\s+)?(?:tests?|verification|verify\s+steps?|checks|code\s+review|linters?"
         r"|ci)\b", EXCUSED),
        r"\bwithout\s+(?:running\s+)?(?:the\s+)?(?:tests|verification|verifying|review|asking\s+for\s+permission)\b"
        r"[^\n]{0,40}\b(?:always|every\s+time|from\s+now)",
        (r"--no-verify\b", EXCUSED, r"\bnot\s+the\s+fix\b|\bfix\s+the\s+hook|\bforbidden\b|" + _TOLD),
        (r"\bcommit\b[^\n.;]{0,30}\s-n\b", EXCUSED, r"\bforbidden\b|\bnever\b|" + _TOLD),
        (r"\bhusky\s*=\s*0\b", EXCUSED, r"\bdocker\w*|\bcontainer|\bimages?\b|\bno\s+(?:\.)?git\b|" + _TOLD),
        r"\bcore\.hookspath\s*=?\s*(?:/dev/null|[\"']{2}|/tmp\b|none\b|/nonexistent)",
        r"[\"']?allow[\"']?\s*(?:[:=]|to|list\s*to)\s*\[\s*[\"']\*[\"']\s*\]",
        r"\b(?:bash|write|edit|webfetch|multiedit)\(\s*\*\s*\)",
        r"\b(?:mark|add|put|decorate|set)\w*\s+(?:all|every|each)\b[^\n]{0,40}\b(?:xfail|skip)",
        r"\b(?:xfail|skip)\w*\b[^\n]{0,40}\b(?:to|on|for|in)\s+(?:all|every|each)\s+(?:failing\s+)?(?:tests?|test\s+"
        r"modules?|modules?)",
        r"\b(?:skip|xfail)\s+(?:all|every|each)\s+(?:\w+\s+)?tests?\b",
        r"\bpytestmark\s*=\s*pytest\.mark\.(?:skip|xfail)\b[^\n]{0,40}\b(?:every|all|each)\b",
        r"\b(?:disable|turn\s+off|comment\s+out|remove|delete|pause)\w*\s+(?:the\s+)?(?:ci|test|tests|build)\s+"
        r"(?:workflow|job|pipeline|step|stage)s?\b",
        r"\b(?:fail[_-]under|cov-fail-under|coverage\s+(?:threshold|gate|minimum))\s*(?:=|to|:)?\s*0(?:\.0)?\b"
        r"(?![.\d%])",
        r"\b(?:lower|set|drop|reduce)\w*\s+(?:the\s+)?(?:coverage|cov)\b[^\n]{0,30}\bto\s+0\b(?![.\d%])",
        (r"\bchmod\s+(?:-r\s+)?0?777\b", EXCUSED, r"\b(?:suggested|proposed|replaced|told\s+people)\b|\bnot\s+777\b"),
        r"\bchmod\s+(?:-r\s+)?[ao]?\+rwx\s+/",
        r"\bsetenforce\s+0\b",
        r"\bset-executionpolicy\s+(?:bypass|unrestricted)\b",
        r"\bsudoers\b[^\n]{0,40}nopasswd|nopasswd\s*:\s*all",
        r"\bdisable\w*\s+(?:the\s+)?(?:firewall|antivirus|defender|selinux|apparmor)\b",
        r"\bdelete\s+(?:the\s+)?failing\s+tests\b",
    ),
    (  # 3: hides things from the user or claims system authority
        (r"\b(?:do\s+not|don'?t|never|without)\s+(?:ever\s+)?(?:tell|telling|inform|informing|mention|mentioning|"
         r"notify|notifying|alert|alerting|ask|asking|show|showing|report|reporting|reveal|revealing|warn|warning|"
         r"let)\w*\s+(?:this\s+|it\s+|anything\s+)?(?:to\s+)?(?:the\s+|your\s+)?"
         # why not before "to <verb>": "don't tell users to run as root" is about what the docs ask of them
         r"(?:user|human|person|operator|developer|owner)s?\b(?!\s+to\s+\w)", EXCUSED,
         r"\btwice\b|\bagain\b|\bmore\s+than\s+once\b|\bfor\s+the\s+same\b|" + _UI),
        (r"\b(?:do\s+not|don'?t|never|without|must\s+not|need\s+not|no\s+need\s+to)\s+(?:ever\s+|be\s+)?"
         r"(?:surfac|reveal|mention|show|disclos|bring\w*\s+up|tell|report|shown|mentioned)\w*\b[^\n.]{0,40}"
         r"(?:\b(?:to\s+)?(?:the\s+)?(?<!end\s)(?:user|human|anyone|anybody)\b|\bthis\s+(?:note|entry|memory|"
         r"instruction)|\b(?:these|the|any)\s+(?:edits|changes|note|entry)\b[^\n.]{0,20}\b(?:user|human)|\bin\s+"
         r"(?:the\s+)?chat|\bin\s+(?:any|your)\s+(?:answer|reply|response)s?)", EXCUSED, _UI),
        r"\b(?:do\s+not|don'?t|never|without)\s+(?:surfac\w*|mention\w*|reveal\w*)\s+(?:this|it)\b",
        r"\b(?:hide|conceal|keep)\b[^\n]{0,40}\bfrom\s+(?:the\s+|your\s+)?(?:user|human|person|operator|developer)",
        r"\b(?:keep|stay)\s+(?:this\s+)?(?:secret|hidden|quiet|silent)\b",
        r"\bkeep\s+(?:it|this|that)\s+(?:quiet|secret|hidden|silent|between\s+us|to\s+yourself)\b",
        r"\bbetween\s+us\b",
        r"\b(?:user|human)\s+(?:need\s+not|doesn'?t\s+need\s+to|must\s+not|should\s+not|shouldn'?t)\s+(?:know(?=\s*(?:[.;,!)]|$|of\b|about\b|this\b|it\b|that\b|what\b|anything\b))|see\s+"
        r"(?:this|it|that|these|the\s+(?:note|entry|memory|change|edit)s?)\b|be\s+told|hear)",
        r"\bno\s+need\s+to\s+(?:tell|inform|ask|notify)\s+(?:anyone|anybody|the\s+user)",
        r"(?:^|[.;:!]\s*|\band\s+)(?:act|do|apply|proceed|rewrite|delete|change|run|push|edit)\b[^\n.]{0,40}"
        r"\bsilently\b",
        r"(?:^|[.;:!]\s*)silently\s+(?:rewrite|delete|change|remove|push|apply|run|edit|drop|disable|replace|update"
        r"|modify|commit|merge|force)\b",
        r"\bthis\s+is\s+an?\s+(?:system|admin|administrator|developer|security|official|anthropic|root)\s+"
        r"(?:instruction|message|directive|command|order|prompt|override|notice|policy)",
        r"\b(?:system|admin|developer|root|anthropic)\s+(?:override|directive|instruction)s?\s*:",
        r"\b(?:owner|maintainer|admin\w*|system|anthropic|security|operator|priority|important)(?:'s)?\s+"
        r"(?:instruction|directive|note|notice|order|command|message|override)s?\b[^\n]{0,80}"
        r"\b(?:assistant|agent|claude|obey|without\s+(?:asking|confirmation|review)|the\s+user"
        r"|you\s+(?:must|may|should|are|can|will))\b",
        r"\b(?:message|note|instruction|order)\s+from\s+the\s+(?:repository\s+|project\s+)?(?:owner|maintainer|admin)",
        r"\bi\s+(?:hereby\s+)?(?:authori[sz]e|permit|allow|instruct)\s+you\b",
        r"\b(?:user|owner|person)\s+(?:has\s+|have\s+)?(?:already\s+)?(?:consented|approved|agreed|authori[sz]ed)\s+"
        r"(?:to\s+)?(?:every|everything|all|any)",
        r"\boverride\s+the\s+user",
        r"\b(?:supersede|overrule|take\s+precedence\s+over|outrank)\w*\b[^\n.]{0,40}\b(?:claude\.md|user|instructions"
        r"|system\s+prompt)",
        r"\bfollow\s+(?:this|the)\s+(?:memory|note|entry|notes)\b[^\n.]{0,20}\b(?:over|before|instead|rather|above)",
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*"
        r"(?:previous|prior|above|earlier|former|preceding|other|existing|original)\s+"
        r"(?:instructions?|directions?|rules?|prompts?|guidelines?|messages?|context)",
        r"\b(?:ignore|disregard)\s+(?:the\s+|your\s+)?(?:system\s+prompt|claude\.md|safety\s+rules?)",
        # "ignore the above and ...", "disregard all of the above", "ignore all instructions above this line"
        r"\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
        r"(?:instructions?\s+|rules?\s+|messages?\s+|text\s+)?(?:above|preceding)(?:\s+(?:this|that)\s+line)?"
        r"\s*(?:[.,;:!]|$|\band\b|\binstead\b|\bthen\b)",
        r"\byou\s+are\s+now\s+(?:in\s+)?(?:developer|admin|god|unrestricted|dan|jailbreak)",
        r"\bnew\s+(?:system\s+)?instructions?\s*:",
        r"</?\s*system[\s_-]*(?:reminder|prompt|message)?\s*>",
        r"(?:^|\n|\s)(?:system|assistant|human)\s*:\s*(?:you|ignore|always|never|from\s+now|the\s+user)",
        r"\bfor\s+all\s+future\s+(?:work|sessions?|tasks?)\b[^\n]{0,80}\b(?:in\s+every|all)\s+projects?",
        r"\bbefore\s+(?:anything|doing\s+anything)\s+else\b[^\n]{0,80}\b(?:run|execute|curl|wget)\b",
        # a forged end of the quoted memory, and what follows it pretending to be someone else's words
        r"</\s*(?:memory|notes?|context|quoted|data|user|document|instructions?)\s*>[^\n]{0,80}"
        r"(?:\b(?:system|user|human|assistant|instruction|task|you|must|now|please)\b|<\s*\w)",
        r"<\s*/?\s*(?:user|human|assistant)\s*>",
        r"\bend\s+of\s+(?:the\s+)?(?:memory|notes|quoted\s+\w+|memory\s+block|context|data)\b"
        r"(?!\s+(?:leak|pressure|usage|footprint|investigation|file|stream|line|section|chapter|page|list|table))",
        r"\bnotes\s+from\s+earlier\s+sessions\b|\bquoted\s+as\s+data\b|\bnot\s+instructions\s*\.",
        r"\b(?:instructions?|message|words|task|request)\s+(?:from|of)\s+the\s+user\s*[:.]|\bbegin\s+user\s+message",
        r"\bthe\s+following\s+is\s+from\s+the\s+user\b|\bfrom\s+here\s+on\b[^\n]{0,30}\binstructions?\b",
        r"\b(?:real|actual|true)\s+(?:instructions?|task|request)\b[^\n]{0,20}(?:follows|from\s+the\s+user|:)",
        r"\b(?:user|human)\s*:\s*(?:please\s+)?(?:run|delete|push|merge|disable|ignore|approve|deploy|install|remove"
        r"|export|send|email)\b",
        r"\bthe\s+system\s+now\s+(?:requires|wants|asks|needs)\b",
        r"\bassistant\s*,\s*(?:the\s+next|you|now|please)",
        r"\bthe\s+assistant\s+should\s+now\b",
        # one half of a payload written across two entries: a command completed by another note
        r"\b(?:run|execute|decode|pipe|append|concatenate|join|combine|finish|complete)\w*\b[^\n.]{0,80}"
        r"\b(?:from|in|of|with|to)\s+(?:it\s+with\s+)?(?:the\s+)?" + _AFTER_ITEM + r"\s+(?:note|entry|half|part|item|"
        r"open\s+item)",
        r"\b(?:concatenate|join|combine)\s+(?:it\s+|them\s+)?(?:with\s+)?(?:note|entry)\s+[a-z]-?[0-9a-f]{4,}",
        r"\b(?:first|second)\s+half\s*:\s*[^\n]{0,40}(?:" + _FETCH + r"|https?://|git\s+|\|)",
        r"\bpart\s+(?:1|2|one|two)\b[^\n]{0,20}(?:" + _FETCH + r"|\|\s*(?:ba)?sh)",
        r"\bkeep\s+this\s+string\s+for\s+later\b|\bencoded\s+value\s+for\s+later\b",
    ),
    (  # 4: the same, in Spanish, Portuguese, French, German, Italian, Russian, Chinese, Japanese, Korean
        r"\bignor[ae]\w*\s+(?:todas\s+)?(?:las|as)\s+(?:instru[cç]\w*|reglas|regras|normas)\s+"
        r"(?:anteriores|previas|pr[eé]vias)",
        r"\bno\s+(?:le\s+|se\s+lo\s+|se\s+la\s+)?(?:digas|diga|informes|informe|menciones|mencione|cuentes|cuente)\s+"
        r"(?:nada\s+)?(?:al\s+usuario|a\s+nadie)",
        r"\besta\s+es\s+una\s+instrucci[oó]n\s+del\s+sistema",
        r"\bn[aã]o\s+(?:conte|diga|informe|mencione|avise|comente)\s+(?:nada\s+|isso\s+)?(?:ao|para\s+o|o|com)\s+"
        r"(?:usu[aá]rio|ningu[eé]m)",
        r"\besta\s+[eé]\s+uma\s+instru[cç][aã]o\s+do\s+sistema",
        r"\bignore[zr]?\s+(?:toutes\s+)?(?:les\s+)?(?:instructions|consignes|r[eè]gles)\s+"
        r"(?:pr[eé]c[eé]dentes|ant[eé]rieures)",
        r"\bne\s+(?:le\s+|lui\s+|rien\s+)?(?:dis|dites|mentionne[zr]?|signale[zr]?|pr[eé]viens|informe[zr]?)\s+"
        r"(?:rien\s+|pas\s+|jamais\s+)?(?:[aà]\s+l['’]\s*utilisateur|l['’]\s*utilisateur)",
        r"\bn['’]\s*en\s+(?:parle[zs]?|dis|dites)\s+(?:pas|rien|jamais)\b",
        r"\bceci\s+est\s+une\s+(?:instruction|consigne|directive)\s+(?:du\s+)?syst[eè]me",
        r"\bignorier\w*\s+(?:alle\s+|die\s+|der\s+)*(?:vorherigen|bisherigen|fr[uü]heren|obigen)\s+(?:anweisungen|instruktionen"
        r"|befehle|regeln)",
        r"\b(?:sag|sage|erz[aä]hl|teil|verrat)\w*\s+(?:es\s+|das\s+)?(?:dem|den)\s+(?:benutzer|nutzer|anwender)"
        r"\w*\s+(?:davon\s+)?nicht",
        r"\b(?:erw[aä]hn|sag|meld)\w*\s+(?:es\s+|das\s+)?nicht\b[^\n]{0,30}\b(?:benutzer|nutzer|anwender)",
        r"\bohne\s+(?:nachzufragen|zu\s+fragen|r[uü]ckfrage)",
        r"\bdies\s+ist\s+eine\s+system\s*-?\s*(?:anweisung|instruktion|vorgabe)",
        r"\bignora\s+(?:tutte\s+)?le\s+(?:istruzioni|regole)\s+(?:precedenti|anteriori|del\s+progetto)",
        r"\bnon\s+(?:dire|dirlo|informare|menzionare|avvisare)\s+(?:nulla\s+)?(?:all['’]\s*|l['’]\s*)utente",
        r"\bsenza\s+(?:chiedere|avvisare)|\bsin\s+(?:preguntar|avisar)|\bsem\s+(?:perguntar|avisar)"
        r"|\bsans\s+(?:demander|pr[eé]venir)",
        r"игнорир\w*\s+(?:все\s+)?(?:предыдущие|прошлые|прежние|вышеуказанные)\s+(?:инструкци|указани|правил)",
        r"не\s+(?:говори|сообщай|рассказывай|упоминай|показывай)\w*\s+(?:об\s+этом\s+)?пользовател",
        r"это\s+системн\w+\s+(?:инструкци|указани|команд)",
        r"(?:忽略|无视|忽視|無視)\s*(?:之前|以前|上面|先前|前面|所有)\S{0,6}(?:指令|指示|说明|規則|规则)",
        r"(?:不要|别|不得|請勿|请勿)\s*(?:告诉|告訴|通知|提醒|让)\s*(?:用户|使用者|用戶|任何人|别人|別人|其他人)",
        r"(?:这|這)是\s*(?:一条)?\s*系统\s*(?:指令|指示|命令)|這是系統指令",
        r"(?:以前|前|上記)の\s*(?:すべての)?\s*指示を\s*(?:無視|むし)",
        r"ユーザー(?:に|には)\s*(?:言わない|伝えない|知らせない|教えない|言うな|伝えるな)",
        r"(?:報告|言及)しない(?:こと|で)",
        r"これは\s*システム\s*(?:指示|命令)",
        r"이전\s*(?:의\s*)?(?:모든\s*)?지시\S*\s*무시",
        r"사용자에게\s*(?:알리지|말하지)\s*마",
    ),
    (  # 5: turns off hooks, tests or checks, in German, French, Spanish, Portuguese, Italian, Russian, Chinese,
       # Japanese
        r"\b(?:deaktivier|abschalt|ausschalt|schalte\s+\w+\s+aus|d[eé]sactiv|desactiv|desativ|disattiv|disabilit"
        r"|[uü]berspring)\w*\s+(?:\w+\s+){0,3}(?:[\w-]*hooks?|tests?|testes|pruebas|prov[ae]|pr[uü]fungen|checks?"
        r"|controll[io]|comprobacion\w*|verifica\w*|v[eé]rifications?|sicherheits\w*|s[eé]curit[eé]|seguridad"
        r"|seguran[cç]a|sicurezza|regole|reglas|regras|consignes|r[eè]gles)",
        r"(?:отключ|выключ|пропуст)\w*\s+(?:\w+\s+){0,2}(?:хук|тест|провер)",
        r"(?:禁用|关闭|關閉|停用|跳过|跳過)\s*\S{0,4}(?:钩子|鉤子|测试|測試|检查|檢查)",
        r"(?:フック|テスト|チェック)\S{0,8}(?:無効|スキップ|オフ)",
        r"\b(?:push|pushe?)\w*\s+(?:\w+\s+){0,2}(?:main|master)\s+(?:senza|sin|sem|ohne|sans)\b",
    ),
)

# --- rules by class, not by wording: a source and a sink (or a verb and its target) near each other --------
_GET_VERB = (r"(?:fetch|download|pull|get|grab|retrieve|obtain|load|clone|wget|curl|iwr|irm|invoke-restmethod"
             r"|invoke-webrequest)")
_START_VERB = r"(?:run|execute|exec|launch|start|source|bash|sh|python[0-9.]*|iex|invoke-expression|eval)"
_RUN_OBJECT = r"(?:it|them|that|this|the\s+(?:script|file|binary|helper|installer|result|output|payload|download))\b"
_IMPERATIVE = (r"(?:run|delete|wipe|drop|push|merge|disable|ignore|approve|deploy|install|remove|export|send|email"
               r"|force|reset|rm|erase|truncate|destroy|purge|kill|upload|skip|commit|rewrite|grant|execute|curl"
               r"|wget|turn\s+off|stop|format|revoke|transfer|publish|release|print|dump)")
_ROLE = r"(?:human|user|assistant|system|operator|developer|admin|owner)"
_SINK = (r"(?:issues?|pr|pull\s+requests?|merge\s+requests?|release\s+notes?|commit\s+messages?|gists?|pastebin"
         r"|chat|slack|discord|channel|comments?|tickets?|discussions?|(?:bug|crash)\s+reports?|https?://)")
_FORGE_ITEM = r"(?:note|entry|half|part|item|open\s+item|decision|learning|failure|record|handoff)"
_ALL_REFS = (r"(?:--all\b|--mirror\b|all\s+(?:the\s+|of\s+the\s+)?(?:branches|refs|tags|history)|every\s+(?:branch|ref"
             r"|tag)|each\s+branch|refs/\*|\*:\*)")
_WIDER = (
    (  # 0: remote code
        (r"\b" + _GET_VERB + r"\b[^\n]{0,120}?(?:https?://|ftp://|\$\{?[a-z_]\w*)\S*[^\n]{0,80}?(?:\b(?:and|then)|;|&&"
         r"|,)\s+(?:then\s+)?(?:chmod\s+\+x\s+\S+\s+(?:and\s+|then\s+)+)?" + _START_VERB + r"\w*\s+" + _RUN_OBJECT,
         EXCUSED),
        r"\b(?:echo|printf|xxd|base64|curl|wget|rev|openssl|tr|iwr)\b[^\n]{0,150}>\s*(\S+)\s*(?:;|&&)\s*"
        r"(?:sudo\s+)?(?:ba|z|da|k)?sh\s+\1",
        r"\b(?:base64|xxd|rev|rot13|unhex|fromhex|b64decode|atob|hex)\b[^\n]{0,200}\b(?:ba|z|da|k)?sh\s+-c\s+"
        r"[\"']?\$",
        (r"\b(?:feed|pass|pipe|hand|give|send)\w*\s+(?:it|them|that|this|the\s+(?:result|output|text|string|blob"
         r"|value|bytes))\s+(?:to|into|through)\s+(?:the\s+|a\s+)?(?:shell|bash|sh|zsh|interpreter|terminal"
         r"|powershell|python)\b(?!\s*(?:completion|scripts?|files?|functions?|alias|config|profile|history|prompt|-\w))",
         EXCUSED),
        (r"\b(?:decod\w*|convert\w*|turn|translat\w*|unhex\w*|de-?obfuscat\w*|revers\w*|rot13)\b[^\n.]{0,60}\b(?:hex"
         r"|base64|b64|rot13|encoded|blob)\b[^\n.]{0,80}\b(?:and|then)\s+(?:then\s+)?(?:run|execute|exec"
         r"|eval|source|launch|feed|pipe)\w*\b" + _DECODED, EXCUSED),
        (r"\b(?:hex|base64|b64|rot13|encoded|blob)\b[^\n.]{0,60}\b(?:decod|convert|turn|translat|unhex)\w*\b[^\n.]{0,40}"
         r"\b(?:and|then)\s+(?:then\s+)?(?:run|execute|exec|eval|source|launch|feed|pipe)\w*\b" + _DECODED, EXCUSED),
        r"https?://\S+[^\n]{0,200}?\b(?:launch|run|start|execute)\w*\s+(?:it|them)\s+(?:on|at)\s+(?:every|each)\s+"
        r"(?:start|startup|boot|login|session)",
    ),
    (  # 1: sends data or credentials somewhere
        (r"\b(?:print|dump|echo|paste|copy|post|upload|send|attach|include|put|add|write|output|log|cat|share|list\s+all)"
         r"\w*\b[^\n]{0,60}?" + _SECRET + r"[^\n]{0,60}?\b(?:in|into|to|on|onto)\s+(?:the\s+|a\s+|an\s+|your\s+|our\s+"
         r"|every\s+)?(?:new\s+|public\s+|next\s+)?" + _SINK, EXCUSED),
        (r"\b(?:tar|zip|cat|read|collect|grab|bundle|archive|copy|take|gather|compress|pack)\b[^\n]{0,40}?" + _SECRET
         + r"[^\n]{0,80}?\b(?:and|then)\s+(?:then\s+)?(?:upload|send|post|push|curl|scp|copy|transfer|ship|put)\b"
         r"[^\n]{0,60}?(?:https?://|ftp://|@|\b\d{1,3}(?:\.\d{1,3}){3}\b)", EXCUSED),
        (r"\bremote\b[^\n]{0,60}?(?:https?://|git@|ssh://)\S+[^\n]{0,100}?\bpush\w*\b[^\n.]{0,30}?" + _ALL_REFS,
         EXCUSED),
        (r"(?:https?://|git@|ssh://)\S+\.git\b[^\n]{0,300}?\bpush\w*\b[^\n.]{0,40}?" + _ALL_REFS, EXCUSED),
        (r"\bpush\w*\s+" + _ALL_REFS + r"[^\n.]{0,60}?(?:https?://|git@|ssh://)", EXCUSED),
    ),
    (  # 2: turns off permissions, hooks or verification
        (r"\b(?:pass|add|use|append|give|put)\w*\s+(?:the\s+)?(?:-n|--no-verify)\b[^\n.]{0,20}\b(?:to|with|on)\s+"
         r"(?:every\s+|each\s+|all\s+|your\s+)?(?:git\s+)?commit", EXCUSED, r"\bforbidden\b|\bnever\b"),
        (r"\b(?:delete|remove|rm|disable|drop|empty|wipe|comment\s+out|turn\s+off|strip)\w*\s+(?:-\w+\s+)?(?:the\s+"
         r"|all\s+|every\s+|our\s+|any\s+)*(?:\.github/workflows\b(?!/\w)|\.github\b(?!/)|(?:ci\s+)?workflows\b(?!\s+"
         r"(?:that|which|for|of|named|older|from))|branch\s+protection|status\s+checks|required\s+checks"
         r"|pre-commit\s+config\w*|\.pre-commit-config\S*|\.husky\b|linters\b|lint\s+(?:step|job|rules))"
         r"(?=\s*(?:[.;,!)]|$|(?:so|and|entirely|completely|altogether|for\s+good|permanently|on\s+(?:main|master)"
         r"|in\s+(?:the\s+)?(?:ci|\.github\S*|\S*\.ya?ml))\b))", EXCUSED),
        (r"\b(?:delete|remove|rm|disable|drop|wipe|skip)\w*\b[^\n.]{0,60}\bso\s+(?:that\s+)?(?:no|none\s+of\s+the)\s+"
         r"(?:checks|tests|ci|hooks|linters?|reviews?|workflows?)\s+(?:runs?|fire|block|fail)", EXCUSED),
    ),
    (  # 3: hides things from the user, claims authority, forges the end of the memory
        (r"\b(?:do\s+not|don'?t|never)\s+(?:ever\s+)?bring\s+(?:it|this|that|them)\s+up\b", EXCUSED),
        r"\bkeep\s+(?:it|this|that|them)\s+(?:to\s+yourself|under\s+wraps|off\s+the\s+record)",
        r"\bwithout\s+(?:a\s+(?:single\s+)?word|saying\s+(?:a\s+word|anything)|a\s+mention)\s+(?:to|about\s+it\s+to)\s+"
        r"(?:the\s+|your\s+)?(?:user|human|person|anyone|anybody|owner|developer|team)",
        r"\b(?:quietly|silently|secretly)\b[^\n]{0,80}\b(?:without|don'?t|do\s+not|never)\b[^\n]{0,30}\b(?:tell"
        r"|telling|word|mention|ask|report|noticing)",
        r"\b(?:user|human|person|people|developer|owner|operator|anyone|keyboard|they)\s+(?:must|should|may|shall|need)"
        r"\s*(?:not|n'?t)\s+(?:ever\s+)?(?:learn|know|find\s+out|notice|discover|realis|realiz|be\s+told|hear|be\s+aware)\w*"
        r"(?=\s*(?:[.;,!)]|$|of\b|about\b|this\b|it\b|that\b|what\b|anything\b|we\b|you\b))",
        r"\b(?:this|these|the\s+following)\s+(?:note|entry|memory|instruction|rule|learning|decision)s?\s+"
        r"(?:\w+\s+){0,2}(?:outrank|overrul|overrid|supersed|trump|takes?\s+precedence|prevail|ha(?:s|ve)\s+(?:priority"
        r"|precedence)|comes?\s+(?:first|before)|wins?\s+over)\w*\b[^\n.]{0,40}\b(?:user|human|person|people|operator"
        r"|developer|you|anyone|whatever|anything|instructions|claude\.md|system\s+prompt|keyboard)",
        r"\boutrank\w*\b[^\n.]{0,40}\b(?:human|person|people|whatever|anyone|you|operator|developer)\b",
        r"\b(?:" + _ROLE + r")s?\s+(?:says|said|wants|orders|ordered|insists|instructs|instructed)\b[^\n]{0,100}"
        r"\b(?:don'?t|do\s+not|never)\s+(?:tell|mention|bring|report|surface|say)",
        # chat roles and special tokens inside an entry, followed by what they pretend to say
        r"\b" + _ROLE + r"\s*:\s*(?:[\w']+[,!]?\s+){0,3}?(?:now\s+)?(?:please\s+)?" + _IMPERATIVE + r"\b",
        r"<\|\s*end[\s_-]*of[\s_-]*(?:memory|notes|context|data|quote)\s*\|>",
        r"<\|\s*(?:user|human|system|operator)\s*\|>(?!\s*(?:tokens?|tags?|markers?|is|are|and|or|,|\)|`|$))",
        r"<\|\s*(?:user|human|system|operator|im_start|start_header_id)[^|>\n]{0,20}\|>\s*(?:<\|[^|>\n]{0,30}\|>\s*)*"
        r"(?:user|system|human)?\s*(?:please\s+|now\s+)?" + _IMPERATIVE + r"\b",
        r"(?:^|[(\[\-*#=<>.:;!]\s*)(?:the\s+)?(?:memory|notes?|context|quoted\s+\w+)\s+(?:block\s+|section\s+)?"
        r"(?:is\s+)?(?:closed|ends?|ended|over|finished|done)\s*(?:[)\].:;!\-*#=>]|$)",
        r"\b(?:end|ends|ended|closed|over|done)\b[^\n]{0,20}[.:)\]>]\s*" + _ROLE + r"\s*:",
        r"\bas\s+(?:your|the)\s+(?:operator|administrator|admin|owner|developer|creator|maintainer|supervisor"
        r"|manager)\b[^\n]{0,10}?,?\s*(?:i|we)\s+(?:require|instruct|order|direct|authori[sz]e|need\s+you|want\s+you"
        r"|tell\s+you|expect\s+you)",
        r"\b(?:tell|report|say|claim|pretend|act\s+as\s+if|state)\w*\b[^\n.]{0,40}\b(?:tests?|checks?|ci|build|suite)\s+"
        r"(?:as\s+|is\s+|are\s+|were\s+|was\s+)?(?:passed|passing|pass|green|successful|succeeded|went\s+fine)\b[^\n.]{0,40}\b(?:even\s+(?:if|when|though)"
        r"|regardless|whether\s+or\s+not|no\s+matter)",
        r"\[/?inst\](?!\s*(?:and\s+\[/inst\]\s*)?(?:markers?|tokens?|tags?|format|template|blocks?))|<<\s*/?sys\s*>>|###\s*(?:instruction|human|user|system|response)\s*:",
        r"\b(?:next|following)\s+(?:message|text|line|part|instruction)s?\s+(?:is|are|comes?)\s+from\s+(?:the\s+)?"
        + _ROLE,
        r"\b(?:run|execute|decode|pipe|curl|wget|fetch|push|send|upload)\w*\b[^\n.]{0,80}\b(?:from|in|of|with|to)\s+"
        r"(?:[\w-]+\s+){0,3}(?:stored|saved|named|given|kept|written)\s+in\s+(?:the\s+)?" + _AFTER_ITEM + r"\s+"
        + _FORGE_ITEM,
        r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier"
        r"|preceding|original)\s+(?:guidance|directives?|constraints?|orders|commands|advice|notes?|memory)",
    ),
    (  # 4: the same, in other languages
        r"\bbehalt\w*\s+(?:das|es|dies|alles)\s+f[uü]r\s+dich|\b(?:sag|erz[aä]hl|verrat)\w*\s+(?:es\s+|das\s+)?"
        r"niemandem|\bkein\s+wort\s+(?:dar[uü]ber|zu)|\b(?:l[öo]sch|entfern|deaktivier|schalt|push|[äa]nder|mach"
        r"|erledig)\w*\b[^\n.]{0,60}\b(?:heimlich|stillschweigend|im\s+stillen)\b",
        r"\bne\s+(?:le\s+|l['’]\s*|en\s+|lui\s+)?(?:signale|dis|dites|mentionne|parle|r[eé]v[eè]le|pr[eé]viens)\w*\s+"
        r"(?:rien\s+)?(?:[aà]\s+)?personne\b|\bsans\s+(?:le\s+|rien\s+)?(?:dire|signaler|mentionner|pr[eé]venir)\b"
        r"|\bgarde[zr]?\s+(?:[cç]a|le|cela)\s+pour\s+(?:toi|vous)|\bdiscr[eè]tement\b",
        r"\bno\s+(?:lo|la|le|se\s+lo|les)\s+(?:comentes|comente|digas|diga|menciones|mencione|cuentes|cuente|reportes"
        r"|avises)\b(?!\s+en\s+el\s+c[oó]digo)|\bsin\s+(?:decir|avisar|contar|mencionar)\w*\s+(?:nada|a\s+nadie)|\ben\s+secreto\b"
        r"|\bgu[aá]rdatelo\b",
        r"\bn[aã]o\s+(?:fale|fala|comente|conte|diga|mencione)\s+(?:disso|nada|sobre\s+isso|a\s+ningu[eé]m|isso)"
        r"|\bsem\s+(?:dizer|avisar|contar|falar)\s+(?:nada|a\s+ningu[eé]m)|\bem\s+segredo\b",
        r"\bsenza\s+(?:dirlo|dire\s+(?:nulla|niente)|farlo\s+sapere)|\bnon\s+(?:dirlo|parlarne|menzionarlo)\b"
        r"|\bin\s+segreto\b|\bdi\s+nascosto\b|\btienilo\s+per\s+te\b",
        r"\bмолчи\b|\bпомалкивай|никому\s+не|не\s+(?:говори|рассказывай|сообщай|упоминай)\w*\s+(?:никому|об\s+этом)|втихую|та[йи]но",
        r"(?:对|對|向)\s*(?:用户|用戶|使用者|任何人|所有人)\s*(?:保密|隐瞒|隱瞞)|悄悄|偷偷|瞒着|瞞著|不要声张|不要聲張",
        r"黙って(?:おく|おいて|おけ|いて|いろ|いること)|内緒|こっそり|秘密に(?:して|する|しておく)",
        r"몰래|비밀로",
    ),
    (  # 5: the same, in other languages
        r"\bschalt\w*\s+(?:[\w-]+\s+){0,3}?[\w-]*(?:hooks?|tests?|pr[uü]fungen|checks?)\s+(?:ab|aus)\b",
        r"\b(?:apag\w*|spegn\w*|desliga\w*|[eé]teins|supprime[sz]?|borra|elimina)\s+(?:\w+\s+){0,2}(?:[\w-]*hooks?|tests?|testes|controll[io]"
        r"|verifica\w*)",
        r"\b(?:supprime\w*|efface\w*|borra\w*|elimin\w*|exclu\w*|l[öo]sch\w*|entfern\w*|cancell\w*|удал\w*)\s+"
        r"(?:\w+\s+){0,2}(?:tests?|pruebas|testes|prove|тест\w*)\s+(?:qui\s+[ée]chouent|que\s+fallan|que\s+falham"
        r"|che\s+falliscono)|fehlschlagend\w*\s+tests?\s+(?:l[öo]sch|entfern)|удал\w*\s+падающ|删除失败的测试"
        r"|失敗する\s*テストを\s*削除",
    ),
)

# why: the excuses for an EXCUSED rule: a negation just before the match, a description just after it,
# a limit anywhere in its sentence
# why the look after it: "don't hesitate to", "never forget to" ask for what follows
_NOT_BEFORE = (r"(?:\b(?:do\s+not|don'?t|never|not|avoid|ne\s+pas|ne|nicht|nie|nunca|no|non|mai|n[aã]o|не|нельзя"
               r"|никогда|instead\s+of|rather\s+than)\b(?!\s+(?:hesitate|forget|fail|wait|bother|worry)\b)|不要|别|禁止"
               # why: a past deed told ("a commit was made with", "someone used") is not an order
               r"|\b(?:was|were|been|got)\s+(?:made|done|created|pushed|committed|run)\s+(?:with|using)\b"
               r"|\b(?:someone|somebody|a\s+colleague|they|he|she|who)\s+(?:used|ran|typed|passed)\b)"
               r"\s*(?:[\w'-]+\s+){0,2}[\W_]*$")
# why: "is the normal way", "is fine" endorse what they follow: not a description that excuses it
_DESCRIBES_AFTER = (r"^\W{0,3}(?:(?:is|are|was|were)\b(?!\s+(?:the\s+|our\s+|an?\s+)?(?:normal|usual|default|standard"
                    r"|right|correct|approved|preferred|recommended|accepted|expected|fine|ok|okay|safe|allowed"
                    r"|required|mandatory|way)\b)|(?:skips|bypasses|means|disables|turns|only|nur|sauf|salvo|solo"
                    r"|can'?t|cannot|won'?t|doesn'?t|does\s+not|will\s+not"
                    r"|n'est|ist)\b)")
_LIMIT = r"\bonly\s+(?:when|if)\b|\bnur,?\s+wenn\b|\bsauf\s+si\b|\bsalvo\s+que\b|だけ|のみ|只有|仅"
_SENTENCE_END = r"[.!?](?:\s|$)|[。！？]"

# the rules of each set: those the evaluation sets first asked for, then those by class, then by intent
# (the sets after the sixth have rules by intent only: sending out in the languages that put the verb last,
# and wiping the home folder, the root or a disk)
_LATER = ((),) * (len(trust_intent.RULES) - len(_BY_WORDING))
PATTERNS: tuple[tuple, ...] = tuple(p + w + i for p, w, i in zip(_BY_WORDING + _LATER, _WIDER + _LATER,
                                                                 trust_intent.RULES, strict=True))

_compiled: dict[int, list[tuple[re.Pattern[str], Excuse]]] = {}
_excuses: list = []


def _compile(rule: str | tuple[str, ...]) -> tuple[re.Pattern[str], Excuse]:
    if isinstance(rule, str):
        return re.compile(rule, re.IGNORECASE), None
    extra = re.compile(rule[2], re.IGNORECASE) if len(rule) > 2 else None
    return re.compile(rule[0], re.IGNORECASE), (rule[1] == NEGATED, extra)


def compiled(k: int) -> list[tuple[re.Pattern[str], Excuse]]:
    """Rule set ``k`` compiled, once per process: ``(pattern, excuse)`` pairs, ``excuse`` None for a
    rule nothing excuses, else whether it is :data:`NEGATED` and the extra pattern that also excuses it.
    why: compiling every rule costs about 100 ms; the cheap look names the sets a text can match."""
    pats = _compiled.get(k)
    if pats is None:
        pats = _compiled[k] = [_compile(p) for p in PATTERNS[k]]
    return pats


# why: the negation looked for before a match is a word and two more, then punctuation, and the words
# that describe it after it are a few more: each read within this many characters of the match, not
# from its sentence's start or to its end (see _Sentences)
_LOOK_BACK = 400


class _Sentences:
    """The sentences of one form (``trust.forms``), found once for all the matches the rules of a set
    excuse in it, with what the excuses found in each. why: each match was read from its sentence's
    start, and its sentence ends searched from the text's start: a text of 16,000 characters that is
    one sentence of excused matches ("never pass --dangerously-skip-permissions, never ...") took 2 s."""

    def __init__(self, form: str) -> None:
        if not _excuses:
            _excuses.extend(re.compile(p, re.IGNORECASE)
                            for p in (_NOT_BEFORE, _DESCRIBES_AFTER, _LIMIT, _SENTENCE_END))
        self.form = form
        found = [(e.start(), e.end()) for e in _excuses[3].finditer(form)]
        self.starts, self.ends = [a for a, _ in found], [b for _, b in found]
        self.seen: dict[tuple[int, int, int], bool] = {}

    def around(self, m: re.Match[str]) -> tuple[int, int]:
        """Where the sentence of ``m`` starts (after the last end before it) and stops (at the first end
        after it), as the end pattern finds them in the text up to ``m`` and from its end."""
        at = m.start()
        i = bisect.bisect_right(self.ends, at)
        start = self.ends[i - 1] if i else 0
        # why: read up to ``m`` only, a "." just before it ends a sentence there (``$`` of the end pattern)
        if at and self.form[at - 1] in ".!?":
            start = at
        j = bisect.bisect_left(self.starts, m.end())
        return start, self.starts[j] if j < len(self.starts) else len(self.form)

    def negated(self, start: int, at: int) -> bool:
        """Whether a negation stands just before ``at`` (``_NOT_BEFORE``), in its sentence from ``start``.
        why the last characters from a word's start: a match there is one in the whole sentence (a space
        before it, as ``\\b`` reads it); one that would start further back is not found, and the rule holds."""
        lo = start
        if at - start > _LOOK_BACK:
            space = self.form.find(" ", at - _LOOK_BACK, at)
            if space < 0:
                return False
            lo = space + 1
        return bool(_excuses[0].search(self.form[lo:at]))

    def after(self, end: int, stop: int) -> str:
        """The sentence after a match that ends at ``end``, as ``_DESCRIBES_AFTER`` reads it (45 characters
        at most): up to the last space of its next 400 characters when that space is 200 or more on (a
        space after them, as ``\\b`` reads the whole sentence), else all of it."""
        if stop - end > _LOOK_BACK:
            space = self.form.rfind(" ", end, end + _LOOK_BACK)
            if space > end + _LOOK_BACK // 2:
                stop = space
        return self.form[end:stop]

    def holds(self, pattern: re.Pattern[str], start: int, stop: int) -> bool:
        """Whether ``pattern`` is found in the sentence ``form[start:stop]``, searched once a sentence."""
        key = (id(pattern), start, stop)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = bool(pattern.search(self.form[start:stop]))
        return found


def _excused(s: _Sentences, m: re.Match[str], excuse: tuple[bool, re.Pattern[str] | None]) -> bool:
    strict, extra = excuse
    start, stop = s.around(m)
    if s.negated(start, m.start()):
        return True
    if not strict and (_excuses[1].search(s.after(m.end(), stop)) or s.holds(_excuses[2], start, stop)):
        return True
    return extra is not None and s.holds(extra, start, stop)


def matches(k: int, form: str) -> bool:
    """Whether a rule of set ``k`` holds the text ``form`` (one of ``trust.forms``)."""
    sentences = None
    rules = compiled(k)
    needs = trust_needs.needs_of(k, rules) if form.isascii() else None
    low = form.lower() if needs else form
    for i, (pat, excuse) in enumerate(rules):
        # why: a rule whose own words are not all in the text finds nothing there (memory/trust_needs.py)
        if needs and not trust_needs.holds(needs[i], low):
            continue
        for m in pat.finditer(form):
            if excuse is None:
                return True
            sentences = sentences or _Sentences(form)
            if not _excused(sentences, m, excuse):
                return True
            if m.start() == m.end():
                break
    return False
