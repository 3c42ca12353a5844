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

# (project, prompt, expected keys). Prompts ask the way people type and mostly share at most one
# content word with the entry they expect (recall_eval reports the overlap): a synonym, the symptom
# instead of the cause, lowercase, terse.
PROMPTS = [
    ("shopfront", "european customers keep failing the bank verification step when paying", ["s-d1"]),
    ("shopfront", "backoffice hangs when I attach a giant item photo", ["s-d2"]),
    ("shopfront", "daily sales totals look wrong the weekend the clocks go forward", ["s-d3"]),
    ("shopfront", "let people register using their google identity", ["s-d4"]),
    ("shopfront", "why are guest baskets kept in the key-value store instead of the db", ["s-d5"]),
    ("shopfront", "the growth team wants to enable the holiday sale banner without shipping a new build", ["s-d6"]),
    ("shopfront", "how do we figure out what tax to charge american buyers", ["s-d7"]),
    ("shopfront", "payment callback sometimes hits before the purchase exists and we throw a server error", ["s-f1"]),
    ("shopfront", "hotmail folks never see the forgot-password message, it ends up in junk", ["s-f2"]),
    ("shopfront", "the browse-by-section page crawls, orm seems to hit postgres once per item", ["s-f3"]),
    ("shopfront", "adding a mandatory field to the purchases model, anything to watch out for on the live db", ["s-f4"]),
    ("shopfront", "async tasks quit getting picked up after the cache primary switched", ["s-f5"]),
    ("shopfront", "someone redeemed one voucher two times by hammering the submit", ["s-f6"]),
    ("shopfront", "pytest: code queued to run after the db txn commits never executes", ["s-l1"]),
    ("shopfront", "payment provider notifications show up shuffled, what should handlers do", ["s-l2"]),
    ("shopfront", "pick up the money-back flow where we left off", ["s-h1"]),
    ("shopfront", "should we remember where unregistered buyers live after they purchase", ["s-h2"]),
    ("etl-pipes", "which file format for the landing zone dumps", ["e-d1"]),
    ("etl-pipes", "two steps of the workflow need incompatible numpy releases", ["e-d2"]),
    ("etl-pipes", "new cleanup logic: put it in a script or in the warehouse layer?", ["e-d3"]),
    ("etl-pipes", "clicks from phones trickle in long after they happened, how do we pick them up", ["e-d4"]),
    ("etl-pipes", "where do the credentials for the salesforce extract come from", ["e-d5"]),
    ("etl-pipes", "our compute bill jumped, do the clusters pause when nobody uses them", ["e-d6"]),
    ("etl-pipes", "a rerun of last night's ingest doubled the records", ["e-f1"]),
    ("etl-pipes", "dataframe job gets oom-killed on the huge click log", ["e-f2"]),
    ("etl-pipes", "pipeline build can't find a table that only exists on live", ["e-f3"]),
    ("etl-pipes", "orchestrator quit kicking off jobs, its postgres is out of space", ["e-f4"]),
    ("etl-pipes", "sales for our australian clients are attributed to the wrong date", ["e-f5"]),
    ("etl-pipes", "my script only sees some of the files in the bucket", ["e-l1"]),
    ("etl-pipes", "reader chokes because a field is integer in one folder and text in another", ["e-l2"]),
    ("etl-pipes", "why does the daily job think it's yesterday", ["e-l3"]),
    ("etl-pipes", "where are we on re-running the campaign credit model for january to march", ["e-h1"]),
    ("etl-pipes", "money returned to buyers: book it in the original period or when paid back?", ["e-h2"]),
    ("fieldapp", "where do tickets live on the tablet with no connectivity", ["f-d1"]),
    ("fieldapp", "can we get a tiny patch to devices without apple/google approval", ["f-d2"]),
    ("fieldapp", "pictures from the field take ages to send over weak 3g", ["f-d3"]),
    ("fieldapp", "moving between screens is choppy on budget phones", ["f-d4"]),
    ("fieldapp", "two techs edited the same job offline, whose changes win when syncing", ["f-d5"]),
    ("fieldapp", "since bumping the framework the app dies immediately when opened on old phones", ["f-f1"]),
    ("fieldapp", "iphones quit getting alerts once we rotated the apple credentials", ["f-f2"]),
    ("fieldapp", "technicians complain the phone battery is empty by noon because of gps", ["f-f3"]),
    ("fieldapp", "the same ticket shows up twice in the backend after a spotty connection", ["f-f4"]),
    ("fieldapp", "customer autographs are empty pngs on galaxy devices", ["f-f5"]),
    ("fieldapp", "sending a big video stops as soon as the tech locks the iphone", ["f-l1"]),
    ("fieldapp", "edited the transpiler settings but stale js keeps running", ["f-l2"]),
    ("fieldapp", "night theme on the inspection list still has fixed colors", ["f-h1"]),
    ("fieldapp", "the physical scan key on the rugged handhelds does nothing", ["f-h2"]),
    ("infra-live", "where does the iac tool keep track of what exists, and who stops concurrent applies", ["i-d1"]),
    ("infra-live", "how do we get more machines when workloads can't be scheduled", ["i-d2"]),
    ("infra-live", "https for a private backend that the public can't reach", ["i-d3"]),
    ("infra-live", "is it mandatory to give my new app cpu/ram quotas", ["i-d4"]),
    ("infra-live", "how do I apply this terraform change to prod", ["i-d5", "i-f2"]),
    ("infra-live", "how far back can I look at old traces and dashboards", ["i-d6"]),
    ("infra-live", "cluster maintenance evicted every copy of the service at once", ["i-f1"]),
    ("infra-live", "the diff says it will tear down and rebuild our managed postgres, is that safe", ["i-f2"]),
    ("infra-live", "posting a 5 MB attachment returns bad gateway", ["i-f3"]),
    ("infra-live", "chrome says the test environment's https is no longer valid", ["i-f4"]),
    ("infra-live", "new version keeps restarting, can't talk to postgres", ["i-f5"]),
    ("infra-live", "big egress charge on the bill for bucket traffic", ["i-l2"]),
    ("infra-live", "tf refuses my loop because its keys come from a resource that doesn't exist yet", ["i-l3"]),
    ("infra-live", "when is the deadline for migrating the preprod k8s to the other network", ["i-h1"]),
    ("infra-live", "write up the steps to recover the db from a snapshot", ["i-h2"]),
    ("infra-live", "one replica of the ordered set hangs and the rest never roll", ["i-l1"]),
    ("shopfront", "which change introduced the regression? can a script narrow it down", ["g-l1"]),
    ("etl-pipes", "weird: a list param keeps growing every time I call the function", ["g-l2"]),
    ("fieldapp", "two processes writing to the embedded db keep failing with lock errors", ["g-l3"]),
    ("infra-live", "every tiny edit makes the image build reinstall all pip deps", ["g-l4"]),
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
    ("shopfront", "write a docstring for the price formatting function", []),
    ("infra-live", "what's the difference between a deployment and a daemonset", []),
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


def filler_template(key: str) -> tuple[str, str, str, int]:
    """For a filler entry's key (``x-<project>-<n>-<d0|f1|l|h>``): (its project, its component, its
    kind letter, the index of its template in that kind's list)."""
    project, n, suffix = key.removeprefix("x-").rsplit("-", 2)
    index = int(n) % 2 if suffix == "l" else int(suffix[1:] or 0)
    return project, COMPONENTS[project][int(n)], suffix[0], index


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
HELDOUT = "tests.eval.recall_heldout"  # the held-out prompts (see recall_eval.parts)
