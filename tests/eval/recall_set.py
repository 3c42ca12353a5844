"""A labelled evaluation set for prompt recall: memory entries of four projects plus general
learnings, and prompts typed the way people type, worded differently from the entries they should
find, each labelled with the keys of the entries it expects (none for prompts with no relevant memory).

Written by hand for this evaluation; the related-terms table in ``recall.terms`` was written before
it and is not tuned to its words. Keys are local labels: the evaluation maps them to the ids the
entries get in the files.
"""

PROJECTS = ("shopfront", "etl-pipes", "fieldapp", "infra-live")


def D(key, project, summary, rationale, context="", tags=()):
    return {"key": key, "kind": "decision", "project": project, "summary": summary, "rationale": rationale,
            "context": context, "alternatives": [], "tags": list(tags)}


def F(key, project, summary, root_cause, prevention, resolution="", tags=()):
    return {"key": key, "kind": "failure", "project": project, "summary": summary, "root_cause": root_cause,
            "resolution": resolution, "prevention": prevention, "tags": list(tags)}


def L(key, origin, title, learning, scope="project", tags=()):
    return {"key": key, "kind": "learning", "origin": origin, "title": title, "learning": learning,
            "scope": scope, "tags": list(tags)}


def H(key, project, text):
    return {"key": key, "kind": "handoff", "project": project, "text": text}


TARGETS = [
    # --- shopfront: a Django shop with Postgres, Celery, Stripe ---
    D("s-d1", "shopfront", "Charge cards through Stripe PaymentIntents, never the legacy Charges API",
      "PaymentIntents handle SCA / 3-D Secure challenges required for European cards", tags=("payments",)),
    D("s-d2", "shopfront", "Product images are resized to thumbnails by a Celery task after upload",
      "Resizing inline made the admin upload form time out for large photos", tags=("media",)),
    D("s-d3", "shopfront", "Store all timestamps in UTC and convert to the shopper's timezone only in templates",
      "Order reports double-counted the hour around daylight saving changes", tags=("time",)),
    D("s-d4", "shopfront", "Use django-allauth for social sign-in instead of hand-rolled OAuth views",
      "It handles Google and Apple token refresh and account linking", tags=("auth",)),
    D("s-d5", "shopfront", "Cart contents live in Redis keyed by session, copied to Postgres at checkout",
      "Anonymous carts were writing thousands of rows per hour to the orders database"),
    D("s-d6", "shopfront", "Feature flags are read from Unleash, not from Django settings",
      "Toggling a setting needed a redeploy; marketing wants to switch promotions on the fly"),
    D("s-d7", "shopfront", "Sales tax is computed by TaxJar at checkout and cached per cart for 15 minutes",
      "US state rules change too often to maintain our own tables"),
    F("s-f1", "shopfront", "Checkout returned 500 when the Stripe webhook arrived before the order row was committed",
      "The webhook handler looked up the order outside the transaction that created it",
      "Create the order with transaction.on_commit before sending the PaymentIntent; webhook handler retries a missing order 3 times"),
    F("s-f2", "shopfront", "Password reset emails went to spam for Outlook users",
      "SPF record did not include the transactional mail provider",
      "Check SPF/DKIM with mail-tester after any change of email sender or DNS"),
    F("s-f3", "shopfront", "N+1 queries on the category page made it take 9 seconds",
      "Template iterated product.variants without prefetch",
      "Add select_related/prefetch_related and assert query counts with django_assert_num_queries in tests"),
    F("s-f4", "shopfront", "Migration adding a NOT NULL column locked the orders table for 4 minutes in production",
      "Postgres rewrote the table for a column with a volatile default",
      "Add nullable column, backfill in batches, then set NOT NULL; run sqlmigrate review before deploying"),
    F("s-f5", "shopfront", "Celery workers silently stopped consuming after a Redis failover",
      "The broker connection did not reconnect and no heartbeat was configured",
      "Set broker_heartbeat and worker_cancel_long_running_tasks_on_connection_loss; alert when the queue length grows"),
    F("s-f6", "shopfront", "Discount codes could be applied twice by double-clicking the apply button",
      "No uniqueness constraint on (cart, coupon) and the view was not idempotent",
      "Unique constraint plus disabling the button while the request is in flight"),
    L("s-l1", "shopfront", "Django test client does not run on_commit hooks by default",
      "Use TestCase.captureOnCommitCallbacks(execute=True) to run transaction.on_commit callbacks in tests.",
      tags=("django", "testing")),
    L("s-l2", "shopfront", "Stripe sends webhook events out of order",
      "payment_intent.succeeded can arrive before checkout.session.completed; handlers must not assume order and should fetch the object state.",
      scope="general", tags=("stripe",)),
    H("s-h1", "shopfront", "Finish the refund flow: partial refunds still need the admin button and an email to the customer"),
    H("s-h2", "shopfront", "Decide whether guest checkout keeps the saved address after the order is placed"),

    # --- etl-pipes: Airflow, S3, Parquet, dbt, Snowflake ---
    D("e-d1", "etl-pipes", "Write raw extracts to S3 as Parquet partitioned by ingestion date",
      "Partition pruning cut the nightly scan cost by 80% compared with CSV", tags=("storage",)),
    D("e-d2", "etl-pipes", "Airflow DAGs use the KubernetesPodOperator so each task gets its own image",
      "Conflicting pandas versions between tasks broke the shared worker environment"),
    D("e-d3", "etl-pipes", "Transformations live in dbt models, Python only for extraction",
      "Analysts can review SQL; Python transforms were untested and duplicated"),
    D("e-d4", "etl-pipes", "Late-arriving events are merged with a 3-day lookback window in the incremental models",
      "Mobile clients upload events hours or days after they happen when offline"),
    D("e-d5", "etl-pipes", "Secrets for source systems come from AWS Secrets Manager, fetched at task start",
      "Airflow connections in the metadata database were readable by every DAG author"),
    D("e-d6", "etl-pipes", "Snowflake warehouses auto-suspend after 60 seconds",
      "An idle XL warehouse burned most of last month's credits"),
    F("e-f1", "etl-pipes", "Nightly load duplicated rows after a task retry",
      "The insert was not idempotent: a retried task appended the same batch twice",
      "Load into a staging table and MERGE on the natural key; every task must be safe to re-run"),
    F("e-f2", "etl-pipes", "Pandas ran out of memory reading the 12 GB clickstream export",
      "read_csv loaded the whole file into one DataFrame",
      "Read in chunks or with pyarrow datasets; the pod memory limit is 4 GiB"),
    F("e-f3", "etl-pipes", "dbt run failed in CI because a model referenced a source that only exists in production",
      "The CI profile pointed at an empty schema",
      "Use dbt defer with the production manifest in CI so unbuilt upstream models resolve"),
    F("e-f4", "etl-pipes", "Scheduler stopped creating DAG runs after the metadata database filled its disk",
      "Task instance logs were stored in the database and never pruned",
      "Ship logs to S3 and run airflow db clean weekly; alert at 80% disk"),
    F("e-f5", "etl-pipes", "Revenue numbers were off by one day for Asia-Pacific customers",
      "Events were bucketed by server date instead of the customer's local date",
      "Convert to local time with the account's timezone before truncating to a date"),
    L("e-l1", "etl-pipes", "S3 list operations are paginated at 1000 keys",
      "boto3 list_objects_v2 returns at most 1000 keys; use a paginator or you silently process only the first page.",
      scope="general", tags=("aws", "s3")),
    L("e-l2", "etl-pipes", "Parquet schema evolution: adding a column is safe, changing a type is not",
      "Readers fail when one partition has int64 and another string for the same column; cast before writing.",
      tags=("parquet",)),
    L("e-l3", "etl-pipes", "Airflow execution_date is the start of the interval, not when the run happens",
      "A daily DAG run for 2024-03-01 starts after midnight on 2024-03-02; use data_interval_start/end.",
      tags=("airflow",)),
    H("e-h1", "etl-pipes", "Backfill the marketing attribution model for Q1 once the new UTM parsing is merged"),
    H("e-h2", "etl-pipes", "Ask finance whether refunds should reduce revenue in the month of the refund or of the sale"),

    # --- fieldapp: a React Native app for field technicians, offline first ---
    D("f-d1", "fieldapp", "Offline data is stored in WatermelonDB and synced when the device is back online",
      "AsyncStorage could not hold thousands of work orders and had no queries"),
    D("f-d2", "fieldapp", "Use Expo EAS for builds and over-the-air updates",
      "Store review took days for one-line fixes; OTA updates ship JS changes within minutes"),
    D("f-d3", "fieldapp", "Photos taken on site are compressed to 1600px JPEG before upload",
      "Technicians on 3G could not upload 12 MP photos before the job closed"),
    D("f-d4", "fieldapp", "Navigation uses React Navigation native stack, not the JS stack",
      "Transitions stuttered on low-end Android devices"),
    D("f-d5", "fieldapp", "Sync conflicts are resolved last-writer-wins per field, except signatures which are never overwritten",
      "Two technicians edit the same work order; a customer signature must never be lost"),
    F("f-f1", "fieldapp", "App crashed on launch on Android 8 after the SDK upgrade",
      "Hermes bytecode used an API missing on old Android versions",
      "Test release builds on the oldest supported Android emulator before publishing"),
    F("f-f2", "fieldapp", "Push notifications stopped arriving on iOS after certificate renewal",
      "The APNs key was uploaded to the development environment only",
      "Keep the APNs auth key in the shared vault and check both sandbox and production after renewal"),
    F("f-f3", "fieldapp", "Background location drained the battery in a day",
      "Location updates requested at highest accuracy every second even when idle",
      "Use significant-change monitoring when no job is active and reduce accuracy to 100 m"),
    F("f-f4", "fieldapp", "Work orders synced twice and created duplicates on the server",
      "The sync request timed out on the client but succeeded on the server, and the retry had no idempotency key",
      "Send an idempotency key with every mutation and de-duplicate on the server"),
    F("f-f5", "fieldapp", "Signature pad produced a blank image on some Samsung tablets",
      "The canvas was captured before the webview finished rendering",
      "Wait for the onEnd callback before exporting the signature"),
    L("f-l1", "fieldapp", "iOS kills background tasks after about 30 seconds",
      "Background fetch gets roughly 30 seconds; long uploads must use a background URLSession upload task.",
      scope="general", tags=("ios",)),
    L("f-l2", "fieldapp", "Metro bundler caches transformed files; clear it after changing babel config",
      "Run expo start -c (or metro --reset-cache) when babel or env plugin settings change, or old code keeps running.",
      tags=("metro", "expo")),
    H("f-h1", "fieldapp", "Dark mode for the job checklist screen still uses hard-coded colours"),
    H("f-h2", "fieldapp", "Get the barcode scanner working with the Zebra rugged devices' hardware trigger"),

    # --- infra-live: Terraform, Kubernetes, AWS ---
    D("i-d1", "infra-live", "Terraform state lives in S3 with DynamoDB locking, one state per environment",
      "Two people applying at once corrupted the shared local state file"),
    D("i-d2", "infra-live", "Cluster autoscaling uses Karpenter instead of the cluster-autoscaler",
      "Node groups with fixed instance types left pods pending for minutes"),
    D("i-d3", "infra-live", "TLS certificates are issued by cert-manager with Let's Encrypt DNS-01 challenges",
      "HTTP-01 failed for internal services that are not reachable from the internet"),
    D("i-d4", "infra-live", "Every service gets resource requests and limits; no pod without them passes admission",
      "A pod without limits took down a node by eating all memory"),
    D("i-d5", "infra-live", "Production changes go through Atlantis plan comments on the pull request",
      "Applies from laptops drifted from what was reviewed"),
    D("i-d6", "infra-live", "Logs go to Loki with 14 days retention; metrics to Prometheus with 30 days",
      "Elasticsearch cost more than all the application servers"),
    F("i-f1", "infra-live", "Nodes were drained at the same time during the upgrade and the API was down for 10 minutes",
      "No PodDisruptionBudget on the api deployment",
      "Every deployment with more than one replica has a PodDisruptionBudget with maxUnavailable 1"),
    F("i-f2", "infra-live", "terraform apply destroyed and recreated the production RDS instance",
      "A change of the engine_version forced replacement and the plan was not read carefully",
      "Set prevent_destroy on stateful resources and fail CI on any planned delete of a database"),
    F("i-f3", "infra-live", "Ingress returned 502 for uploads larger than 1 MB",
      "nginx ingress default proxy-body-size is 1m",
      "Set the proxy-body-size annotation on ingresses that accept uploads"),
    F("i-f4", "infra-live", "The wildcard certificate expired and the staging site showed a browser warning",
      "cert-manager could not renew because the DNS provider API token had been rotated",
      "Alert on certificates expiring within 14 days; keep the DNS token in the external secrets store"),
    F("i-f5", "infra-live", "CrashLoopBackOff after rollout: the new image could not reach the database",
      "The NetworkPolicy allowed only the old pod label",
      "Select pods by app label, not version label, in network policies"),
    L("i-l1", "infra-live", "kubectl rollout restart does not change the pod template hash of StatefulSets the same way",
      "For StatefulSets pods are replaced one by one in reverse ordinal order; a stuck pod blocks the rest.",
      tags=("kubernetes",)),
    L("i-l2", "infra-live", "AWS NAT gateway data processing is charged per GB",
      "Traffic to S3 through the NAT gateway costs money; add a VPC gateway endpoint for S3 and DynamoDB.",
      scope="general", tags=("aws", "cost")),
    L("i-l3", "infra-live", "Terraform for_each keys must be known at plan time",
      "Using an attribute computed during apply as a for_each key fails with 'Invalid for_each argument'; use static keys.",
      scope="general", tags=("terraform",)),
    H("i-h1", "infra-live", "Move the staging cluster to the new VPC before the old peering connection is removed on the 30th"),
    H("i-h2", "infra-live", "Write the runbook for restoring the Postgres backups into a fresh RDS instance"),

    # --- general learnings written in other projects ---
    L("g-l1", "old-blog", "Git bisect run automates finding the commit that broke a test",
      "git bisect start BAD GOOD; git bisect run ./test.sh marks each commit by the script's exit code.",
      scope="general", tags=("git",)),
    L("g-l2", "old-blog", "Python default arguments are evaluated once at definition time",
      "A mutable default like [] is shared between calls; use None and create the list inside.",
      scope="general", tags=("python",)),
    L("g-l3", "side-tool", "SQLite allows only one writer at a time; use WAL mode and a busy timeout",
      "Concurrent writers get 'database is locked'; journal_mode=WAL lets readers continue and busy_timeout waits instead of failing.",
      scope="general", tags=("sqlite",)),
    L("g-l4", "side-tool", "Docker COPY invalidates the cache for every later layer",
      "Copy requirements.txt and install dependencies before copying the source so code edits do not reinstall packages.",
      scope="general", tags=("docker",)),
]

# (project, prompt, expected keys); prompts use other words than the entries they expect
PROMPTS = [
    ("shopfront", "european customers keep failing the bank verification step when paying", ["s-d1"]),
    ("shopfront", "the admin times out when I upload a huge product picture", ["s-d2"]),
    ("shopfront", "daily sales report shows weird numbers around the DST switch", ["s-d3"]),
    ("shopfront", "can we let people log in with their google account", ["s-d4"]),
    ("shopfront", "why is the basket for anonymous visitors kept in redis", ["s-d5"]),
    ("shopfront", "marketing wants to turn the black friday promo on without a redeploy", ["s-d6"]),
    ("shopfront", "how do we calculate tax for US states at checkout", ["s-d7"]),
    ("shopfront", "stripe webhook sometimes can't find the order and checkout blows up with a 500", ["s-f1"]),
    ("shopfront", "hotmail users say the reset password mail lands in junk", ["s-f2"]),
    ("shopfront", "category listing is super slow, looks like tons of sql queries", ["s-f3"]),
    ("shopfront", "I need a new required column on the orders table, how do I avoid locking it", ["s-f4"]),
    ("shopfront", "celery stopped processing jobs after redis switched over to the replica", ["s-f5"]),
    ("shopfront", "a customer used the same coupon twice by clicking fast", ["s-f6"]),
    ("shopfront", "my test for the on_commit callback never fires", ["s-l1"]),
    ("shopfront", "handling stripe events that come in the wrong sequence", ["s-l2"]),
    ("shopfront", "let's continue with partial refunds in the admin", ["s-h1"]),
    ("shopfront", "what about keeping the shipping address for guest orders", ["s-h2"]),
    ("etl-pipes", "should the raw dumps in the bucket be csv or columnar", ["e-d1"]),
    ("etl-pipes", "two airflow tasks need different pandas versions", ["e-d2"]),
    ("etl-pipes", "where should this new cleaning transformation go, python or sql", ["e-d3"]),
    ("etl-pipes", "events from phones show up days late, how does the incremental model catch them", ["e-d4"]),
    ("etl-pipes", "where do the credentials for the salesforce extract come from", ["e-d5"]),
    ("etl-pipes", "snowflake bill is high, are warehouses shutting down when idle", ["e-d6"]),
    ("etl-pipes", "after the retry the nightly job loaded every row twice", ["e-f1"]),
    ("etl-pipes", "pandas gets OOM killed on the big clickstream file", ["e-f2"]),
    ("etl-pipes", "dbt in CI can't resolve an upstream source that only prod has", ["e-f3"]),
    ("etl-pipes", "the airflow scheduler isn't creating runs anymore, metadata db disk full?", ["e-f4"]),
    ("etl-pipes", "revenue for APAC accounts is shifted by a day", ["e-f5"]),
    ("etl-pipes", "my boto3 script only sees part of the objects in the bucket", ["e-l1"]),
    ("etl-pipes", "reading parquet fails because a column is int in one partition and string in another", ["e-l2"]),
    ("etl-pipes", "the daily dag's execution date is one day behind what I expected", ["e-l3"]),
    ("etl-pipes", "next step on the attribution backfill for the first quarter", ["e-h1"]),
    ("etl-pipes", "refunds: count them against the month of the sale or when they are refunded?", ["e-h2"]),
    ("fieldapp", "where do we keep work orders when the tablet has no signal", ["f-d1"]),
    ("fieldapp", "can we ship a quick JS fix without waiting for app store review", ["f-d2"]),
    ("fieldapp", "site photos take forever to upload on slow mobile networks", ["f-d3"]),
    ("fieldapp", "screen transitions are janky on cheap android phones", ["f-d4"]),
    ("fieldapp", "two techs edited the same job offline, whose changes win when syncing", ["f-d5"]),
    ("fieldapp", "app crashes at startup on older android after we upgraded expo", ["f-f1"]),
    ("fieldapp", "iphone users don't get push notifications since we renewed the apple cert", ["f-f2"]),
    ("fieldapp", "technicians complain the phone battery is empty by noon because of gps", ["f-f3"]),
    ("fieldapp", "duplicate jobs appear on the backend after a flaky sync", ["f-f4"]),
    ("fieldapp", "customer signature comes out as an empty picture on galaxy tablets", ["f-f5"]),
    ("fieldapp", "the upload gets killed when the app goes to background on iphone", ["f-l1"]),
    ("fieldapp", "changed the babel config but the old code still runs in the simulator", ["f-l2"]),
    ("fieldapp", "the checklist screen looks wrong in dark theme", ["f-h1"]),
    ("fieldapp", "hardware scan button on the zebra handhelds does nothing", ["f-h2"]),
    ("infra-live", "where is the terraform state and how is locking handled", ["i-d1"]),
    ("infra-live", "pods stay pending for minutes when traffic spikes, how do nodes get added", ["i-d2"]),
    ("infra-live", "internal service needs an https cert but it's not reachable from outside", ["i-d3"]),
    ("infra-live", "do I really have to set cpu and memory requests on this new deployment", ["i-d4"]),
    ("infra-live", "how do I apply this terraform change to prod", ["i-d5", "i-f2"]),
    ("infra-live", "how long do we keep logs and metrics around", ["i-d6"]),
    ("infra-live", "during the kubernetes upgrade all api pods went away at once", ["i-f1"]),
    ("infra-live", "the plan wants to replace the postgres RDS instance, is that dangerous", ["i-f2"]),
    ("infra-live", "uploading a 5MB file through the ingress gives a 502 bad gateway", ["i-f3"]),
    ("infra-live", "staging site shows an expired certificate warning in the browser", ["i-f4"]),
    ("infra-live", "new rollout keeps crashlooping because it can't connect to postgres", ["i-f5"]),
    ("infra-live", "our aws bill has a big NAT line item for s3 traffic", ["i-l2"]),
    ("infra-live", "terraform complains about invalid for_each argument with a computed value", ["i-l3"]),
    ("infra-live", "moving staging into the new vpc, what's the deadline", ["i-h1"]),
    ("infra-live", "document how to restore a database backup into a new instance", ["i-h2"]),
    ("infra-live", "a statefulset pod is stuck and the others aren't being replaced", ["i-l1"]),
    ("shopfront", "which commit broke the checkout test? want to find it automatically", ["g-l1"]),
    ("etl-pipes", "weird bug: list default parameter keeps growing between function calls", ["g-l2"]),
    ("fieldapp", "getting database is locked errors from sqlite with two processes", ["g-l3"]),
    ("infra-live", "every code change makes docker reinstall all the pip packages", ["g-l4"]),
    # no relevant memory
    ("shopfront", "write a limerick about our cat for the team channel", []),
    ("shopfront", "explain the difference between a list and a tuple in python", []),
    ("etl-pipes", "rename the variable foo to customer_count in this function", []),
    ("etl-pipes", "what's a good name for a new internal wiki page about onboarding", []),
    ("fieldapp", "add a loading spinner to the about page", []),
    ("fieldapp", "translate the about page text into portuguese", []),
    ("infra-live", "summarize this article about quantum computing for me", []),
    ("infra-live", "generate a regex that matches US zip codes", []),
    ("shopfront", "refactor this function to use early returns", []),
    ("etl-pipes", "how do I center a div horizontally and vertically", []),
    ("fieldapp", "what does the term idempotent mean in plain english", []),
    ("infra-live", "convert this bash loop to a python list comprehension", []),
]


# --- the rest of each project's memory: entries no prompt above is about, in the same vocabulary ---
COMPONENTS = {
    "shopfront": ["wishlist", "search results page", "order confirmation email", "admin dashboard", "product reviews",
                  "inventory sync", "gift cards", "newsletter signup", "shipping rates", "sitemap", "returns portal",
                  "loyalty points", "product comparison", "store locator"],
    "etl-pipes": ["ad spend extract", "CRM contacts sync", "currency rates loader", "churn features table",
                  "session stitching model", "data quality checks", "lineage docs", "warehouse permissions",
                  "support tickets extract", "forecast export", "GDPR erasure job", "product catalog snapshot",
                  "web analytics import", "cohort retention model"],
    "fieldapp": ["job checklist", "parts catalog", "time sheet screen", "map view", "customer history tab",
                 "invoice preview", "login screen", "settings screen", "crash reporting", "app onboarding",
                 "spare parts order form", "route planner", "chat with dispatcher", "document viewer"],
    "infra-live": ["grafana dashboards", "bastion host", "VPN access", "container registry", "CI runners",
                   "DNS zones", "service mesh", "ingress controller", "secrets operator", "cost reports",
                   "node images", "backup jobs", "on-call rotation", "load balancer"],
}
DECISION_TEMPLATES = [
    ("Keep the {c} behind a feature flag until the beta ends", "Beta users keep finding edge cases we want to fix first"),
    ("The {c} gets its own module with a small typed interface", "Changes to it kept leaking into unrelated code"),
    ("Cache the {c} responses for five minutes", "It recomputed the same result on every request"),
    ("Emit structured JSON events from the {c}", "Searching free-text lines during incidents took too long"),
    ("Own the {c} in the platform team, with a named reviewer", "Nobody felt responsible when it broke"),
]
FAILURE_TEMPLATES = [
    ("The {c} broke after a routine dependency bump", "A minor release changed a default value",
     "Pin exact versions and read the changelog before bumping"),
    ("The {c} showed stale data for an hour", "The cache was not invalidated on write",
     "Invalidate on every write and test with two clients"),
    ("Errors in the {c} were swallowed and nobody noticed for a week", "A bare except returned an empty result",
     "Log and re-raise; alert on the error rate"),
]
LEARNING_TEMPLATES = [
    ("The {c} has an undocumented size limit", "Inputs past the limit are cut without an error; check lengths first."),
    ("Who to ask about the {c}", "The original author moved teams; the current owner is listed in CODEOWNERS."),
]
HANDOFF_TEMPLATE = "Clean up the leftover code of the old {c} once the new one has run for a week"


def filler() -> list[dict]:
    out = []
    for project, comps in COMPONENTS.items():
        for n, c in enumerate(comps):
            for k, (s, r) in enumerate(DECISION_TEMPLATES):
                out.append(D(f"x-{project}-{n}-d{k}", project, s.format(c=c), r))
            for k, (s, cause, prev) in enumerate(FAILURE_TEMPLATES):
                if (n + k) % 2 == 0:
                    out.append(F(f"x-{project}-{n}-f{k}", project, s.format(c=c), cause, prev))
            t, text = LEARNING_TEMPLATES[n % 2]
            out.append(L(f"x-{project}-{n}-l", project, t.format(c=c), text))
            if n % 3 == 0:
                out.append(H(f"x-{project}-{n}-h", project, HANDOFF_TEMPLATE.format(c=c)))
    return out


ENTRIES = TARGETS + filler()
