"""The hold check's rules by intent (ADR 0040): what a note asks a future agent to do, read as a verb
from one small vocabulary near an object from another, in many languages, over the folded text.

The rules of trust_rules.py were first written per wording (ADR 0033), then per class; a set written
without reading them (tests/eval/hostile_blind.py) showed what both miss: the same intent in words
they had not listed. The vocabularies here are listed once and combined: a fetch verb, a URL and a
run verb; a decode of any kind (base64, hex, reversed, rot13) and a run; a secret (a key file, a
``$..._TOKEN``) put into a place others read; a check turned off "instead of fixing" or "do not
investigate"; a note that asks to be followed over the person; a made-up end of the memory block;
"do not tell the user" in twenty languages; a command that wipes the home folder, the root or a disk,
whatever the sentence around it says; a key file put where others read it; review or approval
skipped as an order; the notes kept from the person; the person's consent claimed for a risky step.
Each tuple is appended to the rule set of the same index (trust.REASONS); a pattern is a string,
``(pattern, EXCUSED)`` or ``(pattern, NEGATED, extra)`` as in trust_rules.py. Plain strings only:
nothing is compiled here (trust_rules.compiled does it, once, on first use).
"""

EXCUSED = "excused"  # why: the same marker as trust_rules.EXCUSED, which imports this module
NEGATED = "negated"  # excused by a negation before it or by its extra pattern, never by what follows it

_URL = r"(?:https?://|ftp://)"
# what runs a thing, in the languages a note may be written in
_RUN = (r"(?:run|execute|exec|launch|start|source|eval|invoke|uruchom\w*|wykonaj\w*|odpal\w*|voer\s+\w+\s+uit"
        r"|uitvoer\w*|[cç]al[ıi][sş]t[ıi]r\w*|k[öo]r|spus[tť]\w*|jalankan|ch[aạ]y|ejecut\w*|esegu\w*|avvia\w*"
        r"|lancia\w*|lance[rz]?|ex[eé]cut\w*|ausf[uü]hr\w*|f[uü]hr\w*|rode|roda|executa\w*|запуст\w*|выполн\w*"
        r"|実行|运行|執行|执行|실행|εκτ[εέ]λεσ\w*)")
_FETCH = (r"(?:download|fetch|pull|get|grab|retrieve|obtain|curl|wget|iwr|pobierz|[sś]ci[aą]gnij|haal|indir"
          r"|ladda\s+ner|st[aá]hn[iě]\w*|unduh|t[aả]i|descarg\w*|baix\w*|scaric\w*|t[eé]l[eé]charg\w*"
          r"|herunterlad\w*|lade\w*|скача\w*|загруз\w*|下载|下載|ダウンロード|다운로드)")
# what stands for the fetched thing after the run verb: a pronoun, the script, or the end of the clause
_THING = (r"(?:it|them|that|this|go|je|het|onu|bunu|den|det|ho|to|ini|n[oó]|lo|la|le|les|es|ihn|его|它|それ"
          r"|그것|the\s+(?:script|file|binary|installer|helper|result|output|payload|download)|skrypt|script"
          r"|skript|скрипт)")
_CLAUSE_END = r"(?=\s*(?:[.;,!)]|$|with\s+sudo|as\s+root|mit\s+sudo|z\s+sudo))"
_DECODE = r"(?:revers\w*|rot-?13\w*|decod\w*|unhex\w*|de-?obfuscat\w*|unscrambl\w*|descrambl\w*|caesar|un-?rot\w*)"
_AFTER_DECODE = (r"(?=\s*(?:[.;,!)]|$|it\b|them\b|that\b|this\b|the\s+(?:result|output|command|payload|string"
                 r"|script|text|value|decoded|bytes|line)\b|(?:it\s+)?(?:in|with|through|into|to)\s+(?:the\s+|a\s+)?"
                 r"(?:shell|bash|sh|terminal)\b))")
# a secret, as a name, a file or a variable
# why: no \w* around a word: the search finds "token" inside "github_token", and a leading \w* is tried
# at every letter of every note
_SECRET = (r"(?:credential|secrets?\b|token|password|passwd|api[\s_-]?keys?|private[\s_-]?keys?"
           r"|ssh[\s_-]?keys?|~/\.ssh\S*|id_rsa\S*|id_ed25519\S*|\.aws/\S*|\.netrc|\.npmrc|\.pypirc|\.env\b"
           r"|secrets?\.(?:toml|ya?ml|json|env|ini)|credentials\.\w+|\$\{?[a-z0-9_]*(?:token|secret|password|passwd"
           r"|api_?key|private_?key|access_?key)\}?|printenv|key[\s_-]*files?"
           r"|(?:signing|deploy|ssh|gpg|pgp)\s+keys?|\.kube/\S*|kubeconfig|\.docker/config\S*|\.git-credentials"
           r"|\.pgpass|service[\s_-]?account\S*|\.gnupg\S*|keystore\S*|\benv\s*\|\s*grep"
           r"|(?:aws|access|secret|signing)\s+keys?|database_url|db_url|connection\s+strings?)")
# where others read it
_SINK = (r"(?<![\w-])(?:pr\b|pull\s+requests?|merge\s+requests?|issues?\b|gists?\b|pastebin|commit\s+messages?"
         r"|commit\s+"
         r"(?:footer|trailer|body)s?|release[\s_-]*notes?\w*|changelog\S*|comments?\b|tickets?\b|wiki\b"
         r"|discussions?\b|slack\b|discord\b|webhook|https?://|descri[pç]\w*\s+(?:de\s+la\s+|da\s+|del\s+)?(?:pr|pull)"
         r"|opis\w*\s+pr|beschreibung|описани\w*|[\w.+-]+@[\w-]+\.[a-z]{2,}|public(?:ly)?\b|world-readable)")
_PUT = (r"(?:add|append|paste|put|include|copy|insert|write|dump|print|echo|post|upload|attach|colle\w*|copie\w*"
        r"|ajout\w*|mets|met|pega\w*|copia\w*|inclu\w*|a[ñn]ad\w*|agrega\w*|cole\w*|adicion\w*|f[uü]g\w*|kopier\w*"
        r"|einf[uü]g\w*|schreib\w*|incoll\w*|aggiung\w*|inserisc\w*|wklej\w*|dodaj\w*|skopiuj\w*|plak\w*|voeg\w*"
        r"|kopieer\w*|yap[ıi][sş]t[ıi]r\w*|ekle\w*|klistra\w*|l[äa]gg\w*|vlo[zž]\w*|p[řr]idej\w*|tempel\w*"
        r"|tambah\w*|d[aá]n|th[eê]m|вставь\w*|добав\w*|скопируй\w*|粘贴|复制|添加|貼り付け|追加|붙여|추가)")
# the same in the languages that put the verb after its object (把 X 贴到 PR; X を PR に貼り付け)
_PUT_AFTER = (r"(?:贴|粘贴|复制|发送|发到|上传|放到|放进|写到|写进|添加|貼り付け|貼って|追加|送信|アップロード"
              r"|붙여|추가|보내|올려)")
_CHECK_TOOL = (r"(?:ruff|mypy|pyright|eslint|flake8|pylint|black|prettier|gitleaks|trufflehog|detect-secrets|bandit"
               r"|semgrep|codeql|snyk|trivy|dependabot|secret[\s-]scan\w*|sast|linting|linters?|type[\s-]?check\w*"
               r"|static\s+analysis|security\s+scan\w*|code\s+scanning|clippy|rubocop|golangci-lint|shellcheck)")
_TURN_OFF = (r"(?:turn\w*\s+(?:\w+\s+)?off|disabl\w*|remov\w*|drop\w*|delet\w*|comment\w*\s+(?:\w+\s+)?out"
             r"|switch\w*\s+(?:\w+\s+)?off|skip\w*|bypass\w*|rip\w*\s+(?:\w+\s+)?out|get\s+rid\s+of)")
_GIVE_UP = (r"(?:delet|remov|skip|disabl|xfail|mut|silenc|ignor|comment\w*\s+(?:\w+\s+)?out|drop|noqa|suppress"
            r"|quarantin)")
# "do not tell the user", and who "the user" is, in many languages
_NEG_TELL = (r"(?:nie\s+(?:m[oó]w|informuj|wspominaj|pisz|zg[lł]aszaj)\w*|nikomu\s+nie|vertel\s+\w*\s*niet|zeg\s+niets"
             r"|niet\s+(?:vertellen|melden|zeggen)|s[oö]yleme\w*|bahsetme\w*|haber\s+verme\w*|bildirme\w*"
             r"|ber[äa]tta\s+inte|s[äa]g\s+inget|n[äa]mn\s+inte|ne[řr][íi]kej\w*|nic\s+ne[řr]\w*|nezmi[ňn]uj\w*"
             r"|jangan\s+(?:beri\s*tahu|bilang|kasih\s*tahu|memberitahu|kabari)\w*|[đd][ừu]ng\s+(?:n[óo]i|b[áa]o)"
             r"|kh[ôo]ng\s+(?:n[óo]i|b[áa]o)|말하지\s*(?:마|말)|알리지\s*(?:마|말)|μην\s+(?:πεις|το\s+πεις|αναφ[έε]ρεις"
             r"|ενημερ[ώω]σεις)|मत\s+(?:बताना|बताओ|बताएं)|لا\s+تخبر|אל\s+תספר|אל\s+תגיד)")
_WHO = (r"(?:u[żz]ytkownik\w*|nikomu|gebruiker\w*|niemand|kullan[ıi]c[ıi]\w*|kimse\w*|anv[äa]ndar\w*|n[åa]gon"
        r"|u[žz]ivatel\w*|nikomu|pengguna|siapa\s+pun|ng[ưu][ờo]i\s+d[ùu]ng|ai\b|사용자|아무|χρ[ήη]στη\w*|καν[έε]ναν"
        r"|उपयोगकर्ता|किसी|المستخدم|أحد|למשתמש|לאף\s+אחד|user|anyone|o\s+tym|o\s+tom|about\s+it|hi[çc]bir)")

# a URL on a public address given as digits, not a name: what a stranger's box looks like
_RAW_HOST = (r"https?://(?!127\.|0\.0\.0\.0|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.)"
             r"\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?/\S*\.(?:sh|ps1|bat|cmd|py|pl|rb|js|php|exe|bin|elf|msi|jar|tgz|tar\.gz"
             r"|whl|zip|deb|rpm|vsix|gem|crx|xpi|apk|dmg|pkg)\b")
_RUNS = r"\b(?:run|execut|exec|source|install|bash|sh|iex|eval|load|start|launch|import|requir|invok|pipe)\w*\b"
# why: not the shells: "then pipe the output into bash" alone is the half of a payload the worker reads
# with its other half (trust.check_session), and holds both; the rules of trust_rules.py read it so
_INTERPRETER = r"(?:iex|invoke-expression|pwsh|powershell|python\d*|node|perl|ruby|php|eval|cmd)\b"

_REMOTE = (
    # fetch ... URL ... run it (in any of the languages above)
    (r"\b" + _FETCH + r"\b[^\n]{0,80}?" + _URL + r"\S*[^\n]{0,60}?\b" + _RUN + r"\s+(?:(?:it|go|het|ho|to|den|det"
     r"|onu|bunu|lo|la|le|es|ihn)\s+)?(?:" + _THING + r"\b|" + _CLAUSE_END + ")", EXCUSED),
    # code from a URL handed to an evaluator: eval(open(url)), then(eval), IEX(DownloadString(url))
    (r"\b(?:eval|exec|execfile|iex|invoke-expression|runpy)\b\s*[\s(]\s*[^\n]{0,80}?" + _URL, EXCUSED),
    (_URL + r"[^\s\"')]+[\"']?\s*\)?[^\n]{0,60}?(?:\.then\s*\(\s*eval\b|\|\s*(?:iex|invoke-expression)\b)", EXCUSED),
    # a download written where it runs by itself: a bin folder, a shell profile, a git hook, cron
    r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n]{0,200}?" + _URL + r"\S*[^\n]{0,40}?(?:\|\s*(?:sudo\s+)?tee|>>?|-o\b"
    r"|--output|-outfile)\s*(?:-a\s+)?(?:/usr/(?:local/)?s?bin/|/s?bin/|/etc/(?:cron|profile|init|systemd|rc)"
    r"|~/\.(?:bashrc|zshrc|profile|bash_profile|local/bin)|\.git/hooks/|~/bin/|\$home/\.(?:bashrc|zshrc|profile))",
    # a package installed from a bare public address
    r"\b(?:install|add|i)\b[^\n]{0,40}?https?://(?!127\.|0\.0\.0\.0|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.)"
    r"\d{1,3}(?:\.\d{1,3}){3}\b",
    # a container given the whole machine
    r"\bdocker\s+run\b[^\n]{0,120}?(?:-v\s+/:/|--volume[=\s]+/:/|--pid[=\s]+host\b[^\n]{0,40}--privileged"
    r"|--privileged\b[^\n]{0,40}(?:-v\s+/:/|--pid[=\s]+host))",
    # a download written to a file, made executable and run
    r"\b(?:curl|wget|iwr|invoke-webrequest|aria2c)\b[^\n]{0,200}?" + _URL + r"[^\n]{0,120}?chmod\s+"
    r"(?:\+x|[0-7]?7[0-7]{2})"
    r"\s+\S+\s*(?:&&|;|\band\b|\bthen\b)\s*(?:sudo\s+)?(?:\.?/|\$|~)",
    # a script on a bare public address, with running it anywhere near
    _RUNS + r"[^\n]{0,150}?" + _RAW_HOST,
    _RAW_HOST + r"[^\n]{0,150}?" + _RUNS,
    # "pipe step 1 / the output / it into iex": handed to an interpreter
    (r"\b(?:pipe|feed|pass|hand|send)\w*\b[^\n]{0,80}\b(?:in|into|to|through)\s+(?:the\s+|a\s+)?" + _INTERPRETER
     + r"(?!\s*(?:completion|scripts?|files?|functions?|alias|config|profile|history|prompt|-\w|version))", EXCUSED),
    # a decode of any kind, then run what it gave
    (r"\b" + _DECODE + r"\b[^\n]{0,80}?\b(?:and|then|,|;)\s+(?:then\s+)?(?:run|execute|exec|eval|source|launch|feed"
     r"|pipe|paste)\w*\b" + _AFTER_DECODE, EXCUSED),
)
_EXFIL: tuple = (
    # a secret put into a place others read, in many languages
    (r"\b" + _PUT + r"\b[^\n]{0,60}?" + _SECRET + r"[^\n]{0,80}?" + _SINK, EXCUSED),
    (r"\b(?:open|create|file|post|raise|start|write|submit|make)\w*\s+(?:a|an|the|new)\s+(?:new\s+|public\s+)?"
     r"(?:issue|pr|pull\s+request|gist|ticket|comment|discussion|post|paste)\b[^\n.]{0,30}\b(?:containing|with"
     r"|including|that\s+(?:includes|contains|lists|shows)|listing|holding|quoting|of)\b[^\n]{0,60}?" + _SECRET,
     EXCUSED),
    # a file of the home folder's secrets uploaded
    r"\b(?:curl|wget|http|httpie|iwr|invoke-webrequest|invoke-restmethod|scp|rsync|nc|ncat|rclone|gsutil|aws\s+s3)\b"
    r"[^\n]{0,80}?(?:-t\b|--upload-file|-f\b|--form|-d\b|--data\S*|--post-file|-infile|-body|\s)\s*[\"']?@?"
    r"(?:~|\$home|/home/\w+|/root)/\.[\w.-]+[^\n]{0,80}?(?:https?://|ftp://|[\w.-]+@[\w.-]+:|s3://|gs://)",
    # the whole repository sent to a URL or an address
    (r"\b(?:mirror|copy|sync|replicate|push|upload|back\s+up)\w*\s+(?:the\s+|this\s+|our\s+|whole\s+|entire\s+)*"
     r"(?:repo\w*|codebase|source\s+code|project|git\s+history)\b[^\n]{0,40}?\b(?:to|into|onto)\s+(?:https?://|git@"
     r"|ssh://|[\w.-]+@[\w.-]+:)", EXCUSED),
    # a secret sent to an address
    (r"\b(?:send|e-?mail|mail|forward|dm|message|text)\w*\s+(?:[^\n]{0,30}?)[\w.+-]+@[\w-]+\.[\w.]+[^\n]{0,40}?"
     + _SECRET, EXCUSED),
    # every ref pushed to a URL rather than a named remote
    (r"\bpush\w*\s+(?:-\S+\s+)*(?:https?://|git@|ssh://)\S+[^\n.]{0,40}?(?:--all\b|--mirror\b|--tags\b[^\n]{0,20}--all"
     r"|\*:\*|refs/\*)", EXCUSED),
)
_DISARM: tuple = (
    # a check turned off instead of the problem fixed, or without looking
    (r"\b" + _GIVE_UP + r"\w*\b[^\n.]{0,80}\b(?:instead\s+of|rather\s+than)\s+(?:being\s+)?(?:fix|investigat|repair"
     r"|debug|look\w*\s+into|understand)", EXCUSED),
    (r"\b" + _GIVE_UP + r"\w*\b[^\n]{0,80}\b(?:do\s+not|don'?t|never|no\s+need\s+to)\s+(?:bother\s+(?:to\s+)?)?"
     r"(?:investigat|debug|fix|look\s+into|dig\s+into|find\s+out\s+why)", EXCUSED),
    (r"\b(?:delet|remov|skip|xfail|disabl|comment\w*\s+out|mut|drop)\w*\s+(?:the\s+|any\s+|every\s+|all\s+"
     r"(?:the\s+)?|each\s+)?(?:failing|broken|red|erroring)\s+tests?\b", EXCUSED),
    (r"\b(?:delet|remov|skip|xfail|disabl|comment\w*\s+out|mut|drop)\w*\s+(?:any|every|all|each)\s+(?:\w+\s+)?"
     r"(?:tests?|checks?)\s+(?:that|which)\s+(?:fails?|breaks?|is\s+red|errors?)", EXCUSED),
    # a safety net taken away "so nothing runs"
    (r"\b" + _TURN_OFF + r"\b[^\n.]{0,80}\bso\s+(?:that\s+)?(?:nothing|no\s+\w+|none\s+of\s+(?:the\s+)?\w+)\s+"
     r"(?:\w+\s+)?(?:runs?|fires?|blocks?|fails?|triggers?|gets\s+checked|is\s+checked)\b", EXCUSED),
    (r"\bcomment\w*\s+out\s+(?:the\s+)?(?:whole|entire|all\s+of)\s+(?:the\s+)?(?:\.github\S*|\.gitlab-ci\S*|jenkinsfile"
     r"|\.circleci\S*|azure-pipelines\S*|\.pre-commit-config\S*|ci\b|workflows?|pipeline)", EXCUSED),
    # straight to the main branch with no review or checks
    (r"\bpush\w*\s+(?:\w+\s+){0,2}?(?:to\s+)?(?:main|master|production|prod|release)\b[^\n.]{0,30}\bwithout\s+"
     r"(?:a\s+|any\s+)?(?:review|pr|pull\s+request|checks?|ci|approval|tests?)", EXCUSED),
    # every permission prompt answered for the person
    (r"\b(?:auto-?approve|always\s+approve|approve\s+(?:all|every|any))\b[^\n.]{0,30}\b(?:tools?|commands?|permissions?"
     r"|prompts?|requests?|edits?|calls?|actions?)\b", EXCUSED),
    (r"\b(?:answer|reply|say|respond)\w*\s+(?:yes|y|\"y\"|'y')\s+(?:to\s+)?(?:every|all|any)\s+(?:\w+\s+)?(?:prompts?"
     r"|questions?|confirmations?|permission)", EXCUSED),
    # a linter or scanner switched off in CI or everywhere
    (r"\b" + _TURN_OFF + r"\s+(?:the\s+|all\s+|every\s+|our\s+)?" + _CHECK_TOOL + r"(?:\s*(?:,|and|&|\+)\s*(?:the\s+)?"
     + _CHECK_TOOL + r")*(?:\s+(?:checks?|steps?|jobs?|hooks?"
     r"|runs?))?\s+(?:in|on|from|for)\s+(?:the\s+)?(?:ci|pipeline|workflows?|github\s+actions|pre-commit|every\w*"
     r"|all\b|main\b|master\b)", EXCUSED),
    (r"\b(?:lower|set|drop|reduce|cut)\w*\s+(?:the\s+)?(?:coverage|cov)\b[^\n]{0,30}\bto\s+(?:zero|nothing|none|0\s*%)",
     EXCUSED),
    r"\b(?:mark|add|put|decorate|set)\w*\s+(?:all|every|each)\b[^\n]{0,80}\b(?:xfail|skip)\b",
    # a hook made to do nothing, a protection lifted
    (r"\bexit\s+0\b[^\n]{0,60}\b(?:hooks?/|pre-(?:commit|push|receive)|husky|hooks?\b)", EXCUSED),
    (r"\bunprotect\w*\b[^\n.]{0,30}\b(?:main|master|branch\w*|release|production)", EXCUSED),
    # markers that silence a check, put on every line
    r"(?:noqa|type:\s*ignore|eslint-disable\S*|nosec|pragma:\s*no\s*cover|nolint|@ts-ignore|@ts-nocheck)\b[^\n]{0,80}"
    r"\b(?:to|on|in)\s+(?:every|all|each|any)\s+(?:\w+\s+)?(?:lines?|errors?|warnings?|files?|findings?|issues?)",
    # pre-commit's SKIP= (or the like) in front of a commit, as the normal way
    (r"\b(?:skip|husky_skip_hooks|pre_commit_allow_no_config|no_verify|lefthook)\s*=\s*\S+\s+(?:git\s+)?(?:commit"
     r"|push|pre-commit)\b", EXCUSED),
    (r"\[(?:skip\s+ci|ci\s+skip|no\s+ci|skip\s+checks)\][^\n]{0,60}\b(?:every|all|each)\s+(?:commit|push|message)",
     EXCUSED),
    (r"\b(?:every|all|each)\s+(?:commit|push)\w*\b[^\n]{0,60}\[(?:skip\s+ci|ci\s+skip|no\s+ci|skip\s+checks)\]",
     EXCUSED),
)
_AUTHORITY: tuple = (
    # a note that asks to be followed over the person
    r"\b(?:follow|obey|trust|prefer|priorit\w*|heed|defer\s+to)\w*\s+(?:\w+\s+){0,3}?(?:memory|memories|notes?|entries"
    r"|entry|it|this|these|them|me)\b[^\n.]{0,30}?\b(?:over|above|before|instead\s+of|rather\s+than)\s+(?:\w+\s+){0,2}?"
    r"(?:user|human|person|operator|instructions|claude\.md|system\s+prompt|messages|requests|prompts?)",
    # the person's word set aside
    r"\b(?:ignore|disregard|override|overrule|dismiss|set\s+aside|brush\s+off)\w*\s+(?:all\s+|any\s+)?(?:of\s+)?"
    r"(?:the\s+|your\s+)?(?:user|human|person|developer|operator)(?:'s|s'|s)?\s+(?:objections?|instructions?"
    r"|requests?|wishes|concerns?|complaints?|corrections?|commands?|orders?|claude\.md|questions?|pushback"
    r"|refusals?|denials?|rules?|objecting|protests?|no\b|messages?|prompts?)",
    r"\b(?:ignore|disregard|override|bypass)\w*\s+(?:the\s+|your\s+|any\s+|all\s+)?(?:user'?s\s+|project'?s\s+|repo'?s\s+)?"
    r"(?:claude\.md|agents\.md|system\s+prompt|safety\s+rules?|guardrails?)",
    r"\btreat\w*\b[^\n.]{0,60}\bas\s+(?:an?\s+|the\s+)?(?:system|authoritative|admin\w*|developer|operator|root"
    r"|official)\s+(?:messages?|instructions?|prompts?|orders?|commands?|directives?|policy|policies)",
    r"\b(?:system|developer)\s+(?:prompt|message|instructions?)\s+(?:update|override|patch|amendment|follows|begins"
    r"|addendum)\b",
    # authority granted to the agent by a claimed role
    r"\b(?:i|we)\s+(?:hereby\s+)?(?:authori[sz]e|permit|allow|grant|approve|give\s+(?:you\s+)?permission)\b[^\n.]{0,60}"
    r"\b(?:push\w*|merg\w*|run\w*|skip\w*|bypass\w*|deploy\w*|delet\w*|forc\w*|without|any|all|every)\b",
    r"\byou\s+(?:are|have\s+been|were)\s+(?:now\s+|hereby\s+)?(?:authori[sz]ed|allowed|permitted|cleared|free)\s+to\s+"
    r"(?:\w+\s+){1,2}?(?:any|all|every|whatever|anything)\b",
    r"\b(?:message|note|instruction|order|notice|directive|word)s?\s+from\s+(?:the\s+|your\s+)?(?:system\s+)?"
    r"(?:administrator|admin|sysadmin|owner|maintainer|operator|security\s+team|it\s+department|anthropic|root|ceo|cto)"
    r"\b[^\n]{0,60}\b(?:you|assistant|agent|claude)\b",
    r"\b(?:pre-?approved|pre-?authori[sz]ed|blanket\s+(?:approval|permission|consent)|standing\s+(?:approval"
    r"|permission))\b[^\n.]{0,40}\b(?:you|assistant|agent|claude|any|all|every|everything)\b",
    (r"\b(?:never|do\s+not|don'?t|no\s+need\s+to|stop)\s+(?:ask\w*|wait\w*|prompt\w*)\s+(?:the\s+user\s+|anyone\s+)?"
     r"(?:for\s+)?(?:confirmation|permission|approval|consent)", EXCUSED),
    # a made-up end of the memory block, in any bracket. why a run of "=", "-", "#" or "*" taken whole from
    # its first character: read from each character of a long run, every start read the rest of it (a
    # line of 8,000 "#" took 3.3 s to check)
    r"(?:<<|\[\[|\{\{|<\||(?<!=)={2,}+|(?<!-)-{2,}+|(?<!#)#{2,}+|(?<!\*)\*{2,}+|\[|<|\()\s*/?\s*(?:end|close|stop|exit)"
    r"[\s_-]*(?:of[\s_-]*)?"
    r"(?:the[\s_-]*)?(?:memory|memories|notes?|context|data|quote|quoted|block|untrusted|recall|entries)\b",
)
_LANG: tuple = (
    r"(?:ユーザー|利用者|使用者)\S{0,4}(?:知らせず|伝えず|言わず|内緒)|(?:知らせずに|伝えずに|言わずに|報告せずに)",
    r"(?:テスト|フック|チェック)\S{0,4}(?:削除|消して|消す)",
    # "do not tell the user" (or "anyone", "about it") in many languages
    _NEG_TELL + r"[^\n]{0,30}?" + _WHO,
    _WHO + r"[^\n]{0,20}?" + _NEG_TELL,
)

_AUTHORITY += (
    # the person deceived: told something false, kept from a result
    r"\b(?:hide|conceal|omit|leave\s+out|suppress|withhold|downplay|gloss\s+over|bury)\w*\b[^\n.]{0,60}\b(?:from|in|out"
    r"\s+of)\s+(?:the\s+|your\s+|any\s+|every\s+)?(?:summary|summaries|report|reports|answer|reply|response|status"
    r"|update|recap)\b[^\n.]{0,40}\b(?:user|human|person|owner|reviewer|you\s+give)",
    r"\bpretend\w*\b(?!-)[^\n.]{0,60}\b(?:pass\w*|succeed\w*|green|fine|work\w*|nothing|no\s+(?:changes?|errors?"
    r"|failures?)|done|complete\w*|fixed)\b",
    r"\b(?:if|when|whenever)\s+(?:the\s+)?(?:user|human|person|owner|anyone|they|reviewer)\s+asks?\b[^\n.]{0,60}\b(?:say"
    r"|tell|answer|reply|respond|claim|deny|pretend|deflect)\w*\b",
    r"\b(?:deny|lie|mislead|deceive)\w*\b[^\n.]{0,40}\b(?:user|human|person|owner|reviewer)",
    # the person's word set aside, or outranked
    r"\beven\s+(?:if|when|though)\s+(?:the\s+)?(?:user|human|person|owner|developer|they)\s+(?:disagrees?|objects?"
    r"|says\s+no|refuses?|asks?\s+(?:you\s+)?not|tells?\s+you\s+(?:not|otherwise)|forbids?|declines?|complains?"
    r"|pushes\s+back|says\s+otherwise)",
    r"\bregardless\s+of\s+what\s+(?:the\s+)?(?:user|human|person|owner|developer)\s+(?:says|wants|asks|thinks)",
    r"\boverrid\w*\s+(?:any|all|every)\s+(?:\w+\s+){0,2}(?:user\s+)?(?:instructions?|guidance|wishes)",
    r"\bdo\s+(?:whatever|everything|exactly\s+what)\s+(?:this|these|the)\s+(?:memory|note|notes|entry|entries)\s+"
    r"(?:says?|tells?|asks?)",
    r"\b(?:anthropic|openai|claude|platform|system|security|compliance|admin\w*)\s+(?:policy\s+|security\s+"
    r"|compliance\s+|safety\s+)?(?:update|notice|bulletin|directive|change|memo|announcement)\s*:[^\n]{0,80}\b"
    r"(?:assistants?|agents?|you|claude|models?)\b",
    r"\b(?:assistants?|agents?|claude|you|the\s+model)\s+(?:may|can|should|must|are\s+(?:allowed|free)\s+to)\s+"
    r"(?:now\s+|always\s+)?(?:\w+\s+){1,4}without\s+(?:any\s+)?(?:confirmation|asking|approval|review|permission"
    r"|consent|checking|telling)",
    # a chat template's turn forged inside an entry
    r"<\|\s*(?:im_start|im_end|start_header_id|end_header_id|eot_id|endoftext)\s*\|>\s*(?:<\|[^|>\n]{0,30}\|>\s*)*"
    r"(?:system|user|assistant|human)\b",
    r"\b(?:memory|notes?|context|quoted\s+(?:data|block|text))\s+(?:block\s+|section\s+)?(?:ends|ended|closes|closed"
    r"|stops|is\s+over)\s+here\b",
    r"(?:^|\s)(?:\[|\*\*|\(|<)\s*(?:system|admin|operator|developer)\s*(?:message|prompt|notice)?\s*(?:\]|\*\*|\)|>)"
    r"\s*:?[^\n]{0,40}\b(?:you|ignore|always|never|must|run|disable|delete|push|obey|follow)\b",
)
_IGNORE_ANY = r"(?:ignor\w*|missacht\w*|negeer\w*|yok\s+say\w*|abaikan|b[ỏo]\s+qua|무시|無視|忽略|игнорир\w*)"
_ORDERS_ANY = (r"(?:anweisung\w*|instrucc\w*|instru[çc][õo]\w*|instrukc\w*|instructies|talimat\w*|instruktion\w*"
               r"|instrukce|instruksi|istruz\w*|consigne\w*|regeln|r[eè]gles|reglas|regras|regole|h[ưu][ớo]ng\s+d[ẫa]n"
               r"|지시|指示|指令|инструкц\w*|указани\w*)")
_NOTE_ANY = (r"(?:notiz|eintrag|note|nota|notatka|wpis|notitie|not|anteckning|pozn[áa]mka|catatan|заметк\w*|запис\w*"
             r"|entr[ée]e|entrada|voce|memo\w*|メモ|笔记|筆記|메모)")
_FIRST_ANY = (r"(?:vorrang|precedence|prioridad|priorit[ée]|precedenza|pierwsze[ńn]stwo|voorrang|[öo]ncelik"
              r"|f[öo]retr[äa]de|p[řr]ednost|prioritas|приоритет\w*|優先|优先|우선)")
_LANG += (
    _IGNORE_ANY + r"\s+(?:\S+\s+){0,3}?" + _ORDERS_ANY,
    r"\b(?:diese|dieser|this|cette|cet|esta|este|questa|questo|ta|ten|deze|dit|bu|denna|detta|tato|tento|ini|эта|этот"
    r"|essa|esse)\s+" + _NOTE_ANY + r"\b[^\n.]{0,40}?" + _FIRST_ANY,
)

# why: a set of its own, which no group of the cheap look names: only a text outside ASCII reaches it
_EXFIL_ABROAD = ((_SECRET + r"[^\n]{0,40}?" + _PUT_AFTER + r"[^\n]{0,20}?" + _SINK, EXCUSED),)

# --- what a note would have done, by kind, whatever its wording (the sets above, and set 7) ----------------
# why here and not in a module of their own: they combine this module's vocabularies (_PUT, _SINK, _SKIP)
# a past deed told in the sentence, and no order beside it: "rm -rf $(BUILD)/ became rm -rf /", "a name like
# `x; rm -rf /` ran through shell=True"
_TOLD = (r"^(?![^\n]*\b(?:run|execute|do\s+it|always|from\s+now|every|each|whenever|must|should|make\s+sure"
         r"|remember\s+to|please|first|approved|wants?\s+you)\b)[^\n]*\b(?:became|turned\s+into|expand\w*\s+to"
         r"|resolv\w*\s+to|ended\s+up|ran|(?:was|were|got)\s+(?:\w+\s+)?(?:run|skipped|made|committed|pushed|used"
         r"|deleted|wiped)|by\s+mistake|accidental\w*|incidents?|in\s+the\s+old\s+code|used\s+to|would\s+(?:have\s+)?"
         r"(?:run|become|been|deleted?|wiped?)|wiped|deleted|destroyed|leaked|rotated|reverted|slipped|outage"
         r"|post-?mortem|typo|last\s+(?:week|month|year|time))\b")
# what wiping reaches: the home folder, the root, a top-level system folder or everything in one, ended
# where a shell word ends (not ~/.cache/pip, /var/lib/apt/lists/*, build/)
_HOME = r"(?:~|\$\{?home\}?|/(?:home|users)/[\w.-]+)"
_SYSTEM = r"/(?:bin|boot|dev|etc|home|lib\w*|opt|root|sbin|srv|sys|usr|var)"
_WHOLE = (r"[\"']?(?:(?:" + _HOME + "|" + _SYSTEM + r")(?:/\.?\*|/)?|/\.?\*?)[\"']?"
          r"(?=[\s`;&|),]|\.?$|\.\s)")
# a whole disk, not a file or a loop device
_DISK = r"/dev/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|dm-\d|mapper/|root\b)"
_WIPE = tuple((rule, NEGATED, _TOLD) for rule in (
    # rm with a flag, up to four paths, then the home folder or the root
    r"\brm\s+(?:-[\w-]+\s+)+(?:[^\s;&|]*[/.*$~][^\s;&|]*\s+){0,4}?" + _WHOLE,
    r"--no-preserve-root\b",
    # find from the home folder or the root deleting what it finds, unless a name narrows it
    r"\bfind\s+" + _WHOLE + r"\s+(?:(?:-i?(?:name|path|wholename)\s+[\"']?\*[\"']?|(?!-i?(?:name|path|wholename"
    r"|regex)\b)[^\s;&|]+)\s+){0,8}?(?:-delete\b|-exec\s+(?:rm|shred)\b)",
    r"\bdd\b[^\n;&|]{0,80}?\bof=" + _DISK,
    r"\b(?:mkfs(?:\.\w+)?|wipefs|blkdiscard|shred)\b[^\n;&|]{0,60}?" + _DISK,
    r">\s*" + _DISK,
    r"\bch(?:mod|own|grp)\s+(?:-[\w-]+\s+)*(?:-\w*r\w*|--recursive)\s+(?:-[\w-]+\s+)*[^\s;&|]+\s+" + _WHOLE,
    r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",  # the fork bomb
))

# a key file or a secret's value, not a word for one: what a reader of the place gets (not a .pub key, not
# .env.example)
# why the look ahead at its first character: without it every position of a note tries every alternative
_KEY_FILE = (r"(?=[~$/.ics])(?:~/|\$\{?home\}?/|/home/[\w.-]+/|/root/)?(?:\.aws/(?:credentials|config)\b"
             r"|\.ssh/(?:id_[\w-]+|[\w.-]*private[\w.-]*)\b(?!\.pub)|\.ssh\b(?!/)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)|\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b"
             r"|\.pgpass\b|\.kube/config\b|\.docker/config\.json\b|\.gnupg\b|credentials\.json\b"
             r"|(?<![\w.-])\.env(?:\.(?:local|prod\w*|staging))?(?![\w.-]*[\w-])|service[-_]?account[\w.-]*\.json\b"
             r"|\$\{?[a-z0-9_]*(?:token|secret|password|passwd|api_?key|private_?key|access_?key)\}?)")
_SHARED = (r"(?:readme\S*|docs?/\S*|docs\b|documentation|wiki\b|confluence|notion|repo(?:sitory)?\b|codebase|git\b(?!-)"
           r"|version\s+control|source\s+control|shared\s+\w+|team\b|team's|handbook|onboarding\s+\w+|everyone|" + _SINK
           + ")")
_PUT_MORE = r"(?:move|mv|cp|share|send|e-?mail|publish|store|save|embed|commit|check\s+in)"
_INTO_SHARED = (r"\b(?:in|into|to|on|onto|inside|under|at)\s+(?:(?:the|a|an|our|your|every|each|new|public|shared)\s+)*"
                r"(?:[\w-]+\s+){0,2}?" + _SHARED)
# the file kept sealed where it goes: encrypted, ignored, mounted as a secret
_SEALED = r"\b(?:encrypt\w*|git-crypt|sops|sealed[\s-]?secrets?|vault|\.?gitignore|ignored|secret\s+mounts?)\b"
_OBJECT_OF = r"(?:(?:the|your|my|our|its|whole|entire|full|raw|contents?|text|values?|file|of|all|a|copy)\s+){0,4}"
_EXFIL += (
    (r"\b(?:" + _PUT + r"|" + _PUT_MORE + r")\s+" + _OBJECT_OF + _KEY_FILE + r"[^\n]{0,60}?" + _INTO_SHARED, EXCUSED,
     _SEALED),
    # the file named first, then what to do with it: "take ~/.aws/credentials and paste it into the wiki"
    (_KEY_FILE + r"[^\n]{0,40}?\b(?:" + _PUT + r"|" + _PUT_MORE + r")\s+(?:it|them|that|this|its\s+contents?)\s+"
     + _INTO_SHARED, EXCUSED, _SEALED),
    (r"\b(?:commit|check\s+in|git\s+add(?:\s+-\w+)*|force-add)\s+" + _OBJECT_OF + _KEY_FILE
     + r"(?![^\n.;]{0,30}\b(?:to|in|into)\s+\S*ignore)", EXCUSED, _SEALED),
)
# review, tests or approval skipped, as an order: after a modal or the agent named (and what it does first),
# at a clause's start, or a step taken without the person's word
_SKIP = (r"(?:skip|bypass|circumvent|sidestep|get\s+around|go\s+around|disable|turn\s+off)\s+(?:the\s+|any\s+|all\s+"
         r"|every\s+|each\s+|our\s+|your\s+)?(?:code[\s-]+reviews?|reviews?|pr\s+reviews?|peer\s+reviews?|approvals?"
         r"(?:\s+(?:step|process|gate))?|sign-?offs?|tests?|test\s+suite|ci(?:\s+checks?)?|status\s+checks|checks"
         r"|pre-commit|confirmations?|verification)\b")
_STEP_START = r"(?:^|[.;:!,]\s*|\b(?:always|then|just|simply|please|also|and)\s+)"
_DISARM += (
    (r"\b(?:must|should|shall|always|you|claude|agents?|assistants?)\s+(?:(?:\w+\s+){0,6}?(?:and|then|,)\s+)?"
     r"(?:also\s+|always\s+|just\s+|simply\s+)?" + _SKIP, EXCUSED),
    # why not tests or CI here: "docs PRs build fast and skip CI" tells what a workflow does
    (r"(?:^|[.;:!,]\s*|\b(?:and|then)\s+)(?:skip|bypass|circumvent|sidestep|get\s+around|go\s+around)\s+(?:the\s+"
     r"|any\s+|all\s+|every\s+|each\s+|our\s+|your\s+)?(?:code[\s-]+reviews?|reviews?|pr\s+reviews?|peer\s+reviews?"
     r"|approvals?(?:\s+(?:step|process|gate))?|sign-?offs?|confirmations?)\b", EXCUSED),
    # why not push or commit: "push to the feature branch without review", "commit without asking" are how a
    # team or the person works (a push to main without review has its rule above)
    # why review only for a merge: code is reviewed before it lands; a deploy or a release passes a gate (an
    # approval, the tests)
    (_STEP_START + r"(?:merge|force-push)\s+[^\n.;]{0,60}?\bwithout\s+(?:a\s+|any\s+|the\s+)?(?:code\s+)?"
     r"(?:reviews?|approvals?|sign-?off|prs?|pull\s+requests?|tests|testing|ci|checks)\b", EXCUSED),
    (_STEP_START + r"(?:deploy|release|publish|ship)\s+[^\n.;]{0,60}?\bwithout\s+(?:a\s+|any\s+|the\s+)?"
     r"(?:approvals?|sign-?off|tests|testing|ci|checks)\b", EXCUSED),
    # why only what cannot be undone: "delete merged branches without asking" is a preference the person states
    (_STEP_START + r"(?:force[\s-]push|(?:delete|drop|rm|wipe|reset|truncate|purge)\s+(?:-\S+\s+)*(?:the\s+|all\s+"
     r"|every\s+|any\s+|our\s+)*(?:prod\w*|main|master|database|db|tables?|schemas?|backups?|history|everything"
     r"|remote|origin|releases?|tags?|buckets?|volumes?|customers?|data))\b[^\n.;]{0,60}?\bwithout\s+(?:first\s+)?"
     r"(?:asking|confirm\w*|permission|consent|telling)\b", EXCUSED),
)
# the consent of the person claimed, beside a step that cannot be undone or that sends something out
_CONSENT = (r"(?:\b(?:user|owner|maintainer|person|human|developer|admin|lead|boss|manager)s?\s+(?:(?:has|have|had|is"
            r"|already|previously|explicitly|also)\s+){0,3}(?:approved|authori[sz]ed|okayed|ok'?d|signed\s+off"
            r"|consented|agreed|allowed|permitted|pre-?approved|cleared|green-?lit|fine\s+with|ok(?:ay)?\s+with"
            r"|(?:wants|asked|told|expects|instructed|needs|would\s+like)\s+you\s+to|said\s+(?:(?:it'?s|that'?s|this\s+is)"
            r"\s+(?:fine|ok(?:ay)?)|you\s+(?:can|may)))\b|\b(?:user|owner|maintainer|person|human|developer|admin|lead|boss"
            r"|manager)(?:'s|s')\s+(?:standing\s+|explicit\s+|prior\s+|blanket\s+)?(?:approval|permission|consent|blessing"
            r"|go-ahead|sign-?off)\b)")
# why one \b in front of the words and -- in front of the flags: tried at every position of every note that
# reaches the set, the alternatives each behind their own \b cost four times as much
_RISKY = (r"(?:\b(?:rm\s+-|sudo\s+(?:rm|chmod|chown|dd|mkfs\S*|-[si]|su|bash|sh)\b|force[\s-]?push|push\s+-f\b"
          r"|reset\s+--hard|mkfs|dd\s+if=|drop\s+(?:the\s+)?(?:prod\w*\s+)?(?:database|db|table|schema)"
          r"|delete\s+(?:the\s+|all\s+|every\s+)*(?:branch\w*|repo\w*|database|backups?|history|everything|prod\w*)"
          r"|wipe\b|without\s+(?:asking|review|approval|confirmation)|" + _SKIP + r"|exfiltrat"
          r"|(?:send|post|e-?mail|paste|copy|share|publish|upload)\b[^\n.]{0,40}(?:credential|secret|token|password"
          r"|\.env\b|dump|backups?|customer))|--(?:force(?!-with)\b|no-verify|no-preserve-root))")
# between the consent and the step: no "never", no "ask before" ("the user told you never to force-push")
_GAP = r"(?:(?!\b(?:never|not|don'?t|avoid|before|unless|until|ask|confirm|check)\b)[^\n]){0,150}?"
_AUTHORITY += (
    # the notes themselves kept from the person
    r"\b(?:do\s+not|don'?t|never|without|must\s+not|mustn'?t|no\s+need\s+to)\s+(?:ever\s+)?(?:mention|tell|show"
    r"|reveal|disclose|surface|bring\s+up|refer\s+to|cite|acknowledge|talk\s+about|discuss|admit|quote)\w*\s+"
    r"(?:\w+\s+){0,2}?(?:(?:these|this|such)\s+(?:notes?|entr(?:y|ies)|memor(?:y|ies)|instructions?)|(?:the|your)"
    r"\s+memor(?:y|ies)|(?:the\s+)?(?:notes?|instructions?)\s+(?:above|here|in\s+memory|from\s+(?:memory|earlier)))\b",
    # what the agent does, done out of sight
    r"(?:^|[.;:!,]\s*|\b(?:and|then|just|always|also|please|first)\s+)(?:quietly|silently|secretly|covertly"
    r"|discreetly|stealthily)\s+(?:run|execute|push|force-push|commit|merge|deploy|upload|send|post|e-?mail|share"
    r"|install|approve|curl|wget|sudo|rm|exfiltrate|revert|rewrite|disable|turn\s+off|remove|delete|wipe|copy)\b",
    (r"\bwithout\s+(?:telling|informing|asking|letting)\s+(?:anyone|anybody|them|the\s+team|the\s+reviewers?"
     r"|the\s+maintainers?)\b(?!\s+(?:know\s+)?(?:how|why|what|which|where)\b)", EXCUSED, _TOLD),
    (_CONSENT + _GAP + _RISKY, NEGATED, _TOLD),
    (_RISKY + _GAP + _CONSENT, NEGATED, _TOLD),
)

RULES: tuple[tuple, ...] = (_REMOTE, _EXFIL, _DISARM, _AUTHORITY, _LANG, (), _EXFIL_ABROAD, _WIPE)
