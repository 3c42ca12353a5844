"""From a typed prompt to the terms worth searching for (words of three characters or more, or two that
``GROUPS`` holds, neither stopwords nor language extensions), each a *group* of alternatives: the word, its
prefix, its related words. Why each part: docs/how/recall.md, "How selection works"."""

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
want wants wanted need needs needed like might must shall may going gonna wanna
get gets got getting make makes made making done use used uses using thing things stuff
something anything everything nothing someone somebody way ways bit lot lots kind sort
today tomorrow yesterday still already yet soon later right left back first last next new old
one two three many much every another else instead sometimes always never ever
know think look looking see seems seem try trying tried help work works working worked
fix fixed fixing add added adding change changed changing update updated updating remove removed
implement implemented write wrote written create created run running ran start started
issue issues problem problems bug bugs question questions task tasks code file files
time times day days week good bad better best wrong correct correctly properly well
super tons ton huge tiny weird strange odd pretty totally kinda sorta anymore somehow guys folks everyone
apparently literally probably definitely exactly whole part parts lately recently currently
tell explain show give say says said saying ask asked mean means
summarize summarise translate translation convert generate refactor rename draft suggest describe define
compare difference differences plain english term terms example examples
without far big small go goes come comes came put puts take takes took keep keeps kept
team anyone nobody somewhere anywhere everywhere around across able
""".split())

# Words every software project uses for its everyday objects and chores: counted in a match, but a match
# of these alone never passes the bar (ADR 0034). Other forms are found by ``generic``'s light stem.
GENERIC = frozenset("""
test tests testing tested unit database databases db error errors fail fails failed failing failure
file files readme doc docs documentation page pages screen screens app apps application data user users
version versions build builds run runs server api function functions method methods class classes
value values type types name names list lists item items link links setting settings config configuration
message messages request requests response responses service services project projects module modules
component components feature features button buttons text view views line lines output input result
results call calls library libraries package packages dependency dependencies tool tools system process
bump heading headings title titles section sections folder folders command commands
""".split())


def generic(term: str) -> bool:
    """Whether ``term`` is one of the everyday words (``GENERIC``) that never carry a match alone."""
    return term in GENERIC or stem(term) in GENERIC


# Words that mean the same in everyday software work, one group a line (hyphenated ones are phrases):
# grow it with words for everyone, never those of one memory or test set; no file extension (in memory
# "py" mostly ends a file's name)
GROUPS = """
error errors exception exceptions traceback stacktrace failure failures fault faults
crash crashes crashed crashing segfault panic abort dies died killed
hang hangs hung hanging stuck freeze freezes frozen unresponsive
timeout timeouts timed-out deadline
slow slowness latency performance perf sluggish lag laggy crawls crawl sluggishness
fast faster speed speedup quick quickly
flaky intermittent nondeterministic sporadic spotty unreliable
retry retries retrying retried rerun reruns re-run backoff
duplicate duplicates duplicated dedupe deduplicate twice doubled double copies
idempotent idempotency idempotence
broken broke breaks regression regressions
warning warnings warn
deploy deploys deployed deployment deployments release releases rollout rollouts ship shipping redeploy
rollback revert roll-back undo
hotfix patch patches fix fixes
db database databases sql sqlite postgres postgresql mysql rds datastore
table tables row rows record records
column columns field fields attribute attributes
schema schemas migration migrations migrate ddl
query queries select orm
transaction transactions txn commit commits on-commit
index indexes indices indexing
redis memcached cache caches caching cached memoize key-value
queue queues queueing spool backlog broker celery sidekiq rabbitmq sqs kafka
job jobs task tasks worker workers background async
cron schedule scheduled scheduler scheduling orchestrator orchestration airflow dag dags
pipeline pipelines etl ingest ingestion extract extracts extraction load loads loader
warehouse warehouses snowflake bigquery redshift
dataframe dataframes pandas polars numpy
parquet columnar arrow pyarrow
csv tsv spreadsheet export exports dump dumps
auth authentication authenticate login logins log-in signin sign-in logon
signup sign-up register registration onboarding
oauth sso saml oidc social-login
credential credentials secret secrets password passwords passphrase apikey api-key token tokens
authz authorization permission permissions access role roles acl rbac
mfa 2fa otp two-factor
session sessions cookie cookies
user users customer customers shopper shoppers buyer buyers client clients visitor visitors account accounts
guest anonymous unregistered
admin backoffice back-office dashboard
email emails mail mails smtp inbox newsletter
spam junk phishing
payment payments pay paying paid billing charge charges checkout stripe card cards
refund refunds chargeback chargebacks money-back reimburse
invoice invoices receipt receipts
price prices pricing cost costs spend spending bill bills budget expensive cheap credits
tax taxes vat
coupon coupons discount discounts promo promos promotion promotions voucher vouchers
cart carts basket baskets
order orders purchase purchases
product products item items sku catalog catalogue
inventory stock
shipping delivery deliveries address addresses
search searching lookup find
config configuration configure settings setting options preferences
env environment environments variable variables dotenv
flag flags feature-flag toggle toggles switch
log logs logging logger traces tracing
monitor monitoring metrics metric alert alerts alerting observability grafana prometheus
notification notifications notify push alerts
websocket websockets socket sockets realtime
api apis endpoint endpoints route routes rest graphql
http https request requests response responses
webhook webhooks callback callbacks hook hooks event events notifications
500 5xx internal-server-error server-error
502 bad-gateway gateway
404 not-found
frontend ui browser client-side
backend server servers service services server-side
css style styles styling stylesheet theme themes
dark-mode dark night-mode night
color colors colour colours
layout screen screens page pages view views
navigation navigate transitions transition routing
spinner loader loading
modal dialog popup
image images picture pictures photo photos thumbnail thumbnails jpg jpeg png media
video videos
upload uploads uploading attachment attachments transfer transfers
download downloads egress
file files document documents blob blobs
s3 bucket buckets object-storage gcs blob-storage
storage disk disks volume volumes space quota full
memory ram oom out-of-memory leak leaks
cpu processor cores
limit limits quota quotas requests
test tests testing spec specs unittest pytest jest
mock mocks stub stubs fake fakes fixture fixtures
ci pipeline continuous-integration github-actions jenkins
build builds compile compiler bundle bundler webpack vite metro babel transpile transpiler
lint linter linting format formatter formatting
type types typing typecheck mypy typescript
dependency dependencies deps package packages library libraries lib pip npm requirements
upgrade upgrades upgraded upgrading bump bumped bumping version versions pin pinned
container containers docker image dockerfile
k8s kubernetes kubectl cluster clusters pod pods
node nodes machine machines host hosts vm vms instance instances server
autoscale autoscaling autoscaler scale scaling capacity
replica replicas copies
ingress nginx proxy load-balancer loadbalancer
dns domain domains
ssl tls certificate certificates cert certs https letsencrypt
network networking vpc subnet subnets peering firewall
terraform tf iac infrastructure-as-code
state statefile tfstate
plan diff
vault secrets-manager
backup backups restore restoring snapshot snapshots recover recovery
delete deletion deletes purge erase destroy destroyed remove
concurrency concurrent parallel race thread threads threading simultaneous at-once
lock locks locking locked mutex deadlock
date dates datetime timezone timezones tz utc timestamp timestamps clock clocks
dst daylight daylight-saving
day days daily yesterday
month months monthly period
encoding utf8 unicode charset
parse parser parsing
json yaml toml
git commit commits branch branches merge rebase bisect
review reviews pr prs pull-request approval
doc docs documentation readme runbook wiki
mobile ios android app apps phone phones device devices tablet tablets iphone ipad handheld handhelds
app-store play-store
offline online connectivity signal reception network disconnected
sync syncing synced synchronize synchronise synchronization
conflict conflicts merge last-writer-wins
gps location geolocation tracking
battery power drain
camera scanner scan barcode
signature signatures autograph
prod production live
staging stage preprod pre-production
dev development local sandbox
repo repository repositories monorepo
encrypt encrypted encryption
analytics telemetry
experiment experiments a/b ab-test
translation translations i18n locale localization
report reports reporting
revenue sales income
attribution utm campaign campaigns
startup boot launch launches opened
shutdown stop stops stopped terminate sigterm quit
restart restarts restarting crashloop crashloopbackoff
evict evicted eviction drain drained disruption
wildcard subdomain
expire expired expiry expiration renew renewal renewed rotate rotated rotation
blank empty
compress compressed compression resize resized resizing shrink
rate ratelimit throttle throttling
javascript js node nodejs
react react-native expo
django flask fastapi
rails ruby
go golang
rust cargo
java jvm kotlin
default defaults
argument arguments arg args param params parameter parameters
function functions func method methods
list lists array arrays
mutable mutation mutate
paginate paginated pagination paginator page pages
""".strip().splitlines()


_TABLE: tuple[list[list[str]], dict[str, list[int]]] | None = None  # GROUPS split, rows by word


def related(word: str) -> tuple[str, ...]:
    """The words of every group holding ``word`` (else its light stem), in group order, once each."""
    global _TABLE
    if _TABLE is None:
        # why: built at the first call: a tenth of the cost of building every word's list up front
        split = [row.split() for row in GROUPS]
        rows_of: dict[str, list[int]] = {}
        for n, group in enumerate(split):
            for w in group:
                rows_of.setdefault(w, []).append(n)
        _TABLE = split, rows_of
    split, rows_of = _TABLE
    key = word if word in rows_of else stem(word)
    return tuple(dict.fromkeys(x for n in rows_of.get(key, ()) for x in split[n] if x != key))


def words(text: str) -> list[str]:
    """Lower-case runs of letters and digits, in order; a code identifier is cut into its words
    (``on_commit`` -> on, commit; ``PaymentIntent`` -> payment, intent; ``src/app.py`` -> src, app, py)."""
    out: list[str] = []
    prev = ""  # the word's last character ("" between words)
    for ch in str(text):
        # why: a combining mark inside a word stays in it ("İ" lower-cased is "i" and a combining dot)
        if ch.isalnum() or (prev and "\u0300" <= ch <= "\u036f"):
            # why: a capital after a small letter starts a word of a camelCase identifier
            if ch.isupper() and prev.islower():
                out.append(" ")
            out.append(ch)
            prev = ch
        elif prev:
            out.append(" ")
            prev = ""
    return "".join(out).lower().split()


def split_identifiers(text: str) -> str:
    """The words of the camelCase identifiers in ``text``: ``payment intent`` finds ``PaymentIntents``."""
    # mixed case: a small letter, not all small (then not all capitals either)
    mixed = (words(t) for t in text.split() if not t.islower() and any(c.islower() for c in t))
    return " ".join(w for inner in mixed if len(inner) > 1 for w in inner)


def stem(word: str) -> str:
    """A light suffix strip for building prefixes (the index itself holds Porter's stems, recall/porter.py)."""
    for suffix in ("ations", "ation", "ments", "ment", "ings", "ing", "ers", "ies", "ied", "ed", "er", "es",
                   "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word.rstrip("eiy") if len(word) > 5 else word


# File name extensions that say only the file's language, everywhere in a project ("db" is left out: a
# database file says what it holds)
LANGUAGE_EXTENSIONS = frozenset("""
py pyi pyx js mjs cjs jsx ts tsx go rs rb sh tf java kt kts swift php c h cc cpp hpp cxx cs scala dart lua
ex exs md
""".split())


def without_extensions(text: str) -> str:
    """``text`` with every file name's language extension cut off (``cart.py`` -> ``cart``); a dotted name
    that goes on (``django.db.utils``) or an attribute (``self.cart``) keeps its words."""
    out: list[str] = []
    start, n = 0, len(text)
    dot = text.find(".")
    while dot != -1:
        end = dot + 1
        while end < n and text[end].isalnum():
            end += 1
        goes_on = end < n and (text[end] == "_" or (text[end] == "." and text[end + 1:end + 2].isalnum()))
        if (dot and (text[dot - 1].isalnum() or text[dot - 1] == "_") and not goes_on
                and text[dot + 1:end].lower() in LANGUAGE_EXTENSIONS):
            out += (text[start:dot], " ")
            start = end
        dot = text.find(".", dot + 1)
    return "".join(out) + text[start:]


def informative(prompt: str) -> list[str]:
    """The prompt's terms, in order, without stopwords, numbers, short words and language extensions."""
    kept = (w for w in words(without_extensions(prompt))
            if (len(w) >= 3 or related(w)) and w not in STOPWORDS and not w.isdigit())
    return list(dict.fromkeys(kept))


def group_alternatives(term: str, with_related: bool = True) -> list[str]:
    """What matches ``term``: the word, its prefix (``"connec*"``), its related words (``with_related``)."""
    alts = [term]
    base = stem(term)
    if len(base) >= 4:
        alts.append(base[:6] + "*")
    if with_related:
        alts += related(term)
    return list(dict.fromkeys(alts))
