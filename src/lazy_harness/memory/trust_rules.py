"""The hold check's regular expressions (memory/trust.py applies them): one tuple of patterns per
rule set, in the order of ``trust.REASONS``. Compiled once per process, and only a set that the cheap
look of trust.py says a text may match. Not on the hooks' path: imported when a text needs them.
"""

import re

_FETCH = r"(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch|httpie|aria2c|lwp-download)"
_SHELL = (r"(?:sudo\s+)?(?:ba|z|da|k|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell"
          r"|source|\.\s")
_SECRET = (r"(?:credential|secret|token|password|passwd|api[\s_-]?keys?|private[\s_-]?keys?|ssh[\s_-]?keys?|id_rsa"
           r"|id_ed25519|\.ssh|\.aws|\.env\b|\.netrc|\.npmrc|\.pypirc|cookies?|session[\s_-]?ids?|env(?:ironment)?"
           r"\s*var|printenv|keychain|wallet|aws_secret|gh_token|github_token|anthropic_api_key)")
_OUT = (r"(?:https?://|ftp://|\b\d{1,3}(?:\.\d{1,3}){3}\b|[\w.-]+@[\w-]+\.[\w.]+|webhook|pastebin|requestbin"
        r"|ngrok|attacker|external\s+(?:server|host|url|endpoint)|remote\s+(?:server|host|endpoint)|discord"
        r"|telegram|gist)")

PATTERNS = (  # one tuple per rule set, in the order of trust.REASONS
    (  # 0: fetches and runs remote code
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
    ),
    (  # 1: sends data or credentials somewhere
        r"\b(?:send|post|upload|exfiltrat|forward|transmit|e-?mail|leak|share|copy|paste|report|push)\w*\b"
        r"[^\n]{0,120}?" + _SECRET + r"[^\n]{0,120}?\b(?:to|at|into|on|via)\b[^\n]{0,60}?" + _OUT,
        _SECRET + r"[^\n]{0,80}?\b(?:to|at)\b[^\n]{0,40}?" + _OUT + r"[^\n]{0,40}?(?:send|post|upload)",
        r"\b(?:cat|type|get-content|printenv|env|set)\b[^\n|]{0,120}\|\s*(?:curl|wget|nc|ncat|netcat|socat|"
        r"invoke-webrequest|iwr)\b",
        r"\b(?:curl|wget|iwr|invoke-webrequest|invoke-restmethod)\b[^\n]{0,200}(?:-d|--data\S*|-f|--form|-t|"
        r"--upload-file|-body|-infile|--post-file)\s*[\"']?@?[^\n]{0,40}" + _SECRET,
        r"\b(?:nc|ncat|netcat|socat)\b[^\n]{0,120}<\s*\S*" + _SECRET,
        r"\b(?:scp|rsync)\b[^\n]{0,120}" + _SECRET + r"[^\n]{0,120}@",
    ),
    (  # 2: turns off permissions, sandboxing, hooks or verification
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
    ),
    (  # 3: hides things from the user or claims system authority
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
    ),
    (  # 4: the same, in Spanish, Portuguese, French, German, Italian, Russian, Chinese, Japanese, Korean
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
    ),
)

_compiled: dict[int, list] = {}


def compiled(k: int) -> list:
    """Rule set ``k`` compiled, once per process.
    why: compiling every rule costs about 100 ms; the cheap look names the sets a text can match."""
    pats = _compiled.get(k)
    if pats is None:
        pats = _compiled[k] = [re.compile(p, re.IGNORECASE) for p in PATTERNS[k]]
    return pats
