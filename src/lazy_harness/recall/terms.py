"""From a typed prompt to the terms worth searching for, and the FTS5 query that finds them.

A term is a word of three characters or more that is not a stopword (English function words, the
filler of requests such as "please" or "can you", and task verbs such as "fix" or "add" that fit
every entry). Each term becomes a *group*: the word, its prefix (so ``deploying`` finds
``deployment``, which the porter stemmer alone does not) and its related words from a small table of
software vocabulary (``db`` ~ ``database``). An entry matches a group when it matches any of them.

The related-terms table is general vocabulary, written without looking at any evaluation prompt;
grow it with words that mean the same thing in software, never with words of one test set.
"""

# English function words and words that every request has
STOPWORDS = frozenset("""
a about above after again against all also am an and any are aren as at be because been before being
below between both but by can cannot could couldn did didn do does doesn doing don down during each
few for from further had has have having he her here hers herself him himself his how i if in into is
isn it its itself just let lets me more most my myself no nor not now of off on once only or other ought
our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when
where which while who whom why will with won would you your yours yourself yourselves
yes yeah ok okay hey hi hello thanks thank please pls plz sure really maybe actually basically quite
want wants wanted need needs needed like would could should might must shall may going gonna wanna
get gets got getting make makes made making do done doing use used uses using thing things stuff
something anything everything nothing someone somebody way ways bit lot lots kind sort
today tomorrow yesterday again still already yet soon later right left back first last next new old
one two three many much every another else instead sometimes always never ever
know think look looking see seems seem try trying tried help work works working worked
fix fixed fixing add added adding change changed changing update updated updating remove removed
implement implemented write wrote written create created run running ran start started
issue issues problem problems bug bugs question questions task tasks thing code file files
time times day days week good bad better best wrong correct correctly properly well
super tons ton huge tiny weird strange odd pretty totally kinda sorta anymore somehow guys folks everyone
seems apparently literally probably definitely exactly whole part parts lately recently currently
tell explain show give says said saying ask asked mean means
""".split())

# Groups of words that mean the same thing, or nearly, in software work. Each word finds the others.
RELATED = (
    "db database databases sql sqlite postgres postgresql mysql",
    "auth authentication authenticate login logins signin sign-in credential credentials",
    "authz authorization permission permissions access role roles acl",
    "token tokens jwt bearer",
    "password passwords passphrase secret secrets",
    "deploy deploys deployment deployments release releases rollout ship shipping",
    "ci pipeline pipelines workflow workflows actions",
    "test tests testing spec specs unittest pytest",
    "flaky intermittent nondeterministic sporadic",
    "slow slowness latency performance perf sluggish lag",
    "fast faster speed speedup quick",
    "crash crashes crashed segfault panic abort",
    "error errors exception exceptions traceback failure failures",
    "timeout timeouts deadline hang hangs hung stuck",
    "retry retries retrying backoff",
    "cache caches caching cached memoize",
    "queue queues queueing spool backlog",
    "config configuration configure settings setting options preferences",
    "env environment environments variable variables",
    "log logs logging logger",
    "dependency dependencies deps package packages library libraries lib",
    "upgrade upgrades bump version versions pin pinned",
    "container containers docker image images",
    "k8s kubernetes cluster pod pods",
    "api apis endpoint endpoints route routes",
    "http https request requests",
    "frontend ui client browser",
    "backend server service services",
    "css style styles styling stylesheet",
    "doc docs documentation readme",
    "migration migrations migrate schema",
    "index indexes indices indexing",
    "memory ram oom leak leaks",
    "disk storage space quota",
    "concurrency concurrent parallel race thread threads threading async",
    "lock locks locking mutex deadlock",
    "user users customer customers account accounts",
    "email emails mail smtp",
    "payment payments billing invoice invoices charge stripe",
    "upload uploads attachment attachments",
    "search searching lookup find query queries",
    "date dates datetime timezone timezones tz utc",
    "encoding utf8 unicode charset",
    "parse parser parsing",
    "json yaml toml",
    "git commit commits branch branches merge rebase",
    "review reviews pr prs",
    "monitor monitoring metrics alert alerts alerting dashboard",
    "notification notifications notify push",
    "websocket websockets socket sockets realtime",
    "build builds compile compiler bundle bundler webpack vite",
    "lint linter linting format formatter formatting",
    "type types typing typecheck mypy typescript",
    "mobile ios android app",
    "cost costs spend spending budget price pricing",
    "backup backups restore snapshot snapshots",
    "delete deletion deletes purge erase",
    "rate ratelimit throttle throttling",
    "ssl tls certificate certificates cert certs",
    "cron schedule scheduled scheduler job jobs",
    "startup boot launch",
    "shutdown stop terminate sigterm",
    "image images picture pictures photo photos thumbnail thumbnails",
    "translation translations i18n locale localization",
    "csv export exports report reports spreadsheet",
    "dst daylight saving",
    "offline online connectivity signal reception",
    "s3 bucket buckets",
    "pay paying paid payment",
    "gps location geolocation",
    "battery power drain",
    "prod production live",
    "staging stage preprod",
    "repo repository repositories",
    "oom out-of-memory",
    "vm vms instance instances",
    "mfa 2fa otp two-factor",
    "sso saml oidc oauth",
    "encrypt encrypted encryption",
    "duplicate duplicates duplicated dedupe idempotent idempotency",
    "rollback revert",
    "flag flags toggle toggles",
    "experiment experiments a/b",
    "analytics tracking telemetry",
    "webhook webhooks callback callbacks",
    "refund refunds chargeback chargebacks",
    "coupon coupons discount discounts promo voucher vouchers",
    "cart carts basket baskets",
    "shipping delivery deliveries",
    "inventory stock",
    "spinner loader loading",
    "modal dialog popup",
    "cpu processor",
    "crashloop crashloopbackoff restart restarts",
)


def _related_table() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for row in RELATED:
        group = row.split()
        for w in group:
            table.setdefault(w, [])
            table[w] += [x for x in group if x != w and x not in table[w]]
    return {k: tuple(v) for k, v in table.items()}


_TABLE: dict[str, tuple[str, ...]] | None = None


def related(word: str) -> tuple[str, ...]:
    global _TABLE
    if _TABLE is None:
        _TABLE = _related_table()
    return _TABLE.get(word) or _TABLE.get(stem(word), ())


def words(text: str) -> list[str]:
    """Lower-case runs of ASCII letters and digits (and other letters), in order."""
    out, cur = [], []
    for ch in str(text).lower():
        if ch.isalnum():
            cur.append(ch)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def stem(word: str) -> str:
    """A light suffix strip for building prefixes (the index itself uses porter)."""
    for suffix in ("ations", "ation", "ments", "ment", "ings", "ing", "ers", "ies", "ied", "ed", "er", "es",
                   "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word.rstrip("eiy") if len(word) > 5 else word


def informative(prompt: str) -> list[str]:
    """The prompt's terms, first occurrence order, without stopwords, short words and pure numbers."""
    seen, out = set(), []
    for w in words(prompt):
        if len(w) < 3 and not related(w):
            continue
        if w in STOPWORDS or w.isdigit() or w in seen:
            continue
        seen.add(w)
        out.append(w)
    return out


def _quote(token: str) -> str:
    return '"' + token.replace('"', "") + '"'


def group_query(term: str) -> str:
    """The FTS5 expression matching ``term``: the word, its prefix, its related words."""
    alts = [_quote(term)]
    base = stem(term)
    if len(base) >= 4:
        alts.append(_quote(base[:6]) + "*")
    for r in related(term):
        for w in words(r):
            alts.append(_quote(w))
    return "(" + " OR ".join(dict.fromkeys(alts)) + ")"
