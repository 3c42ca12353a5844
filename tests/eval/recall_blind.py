"""The blind precision set: the memory of three projects (and general learnings) for the prompts of
``blind_prompts``, which were written first.

Each target entry was written from a *past episode* noted beside a task in ``blind_prompts`` (what
an earlier session went through), as the distiller writes an entry: a summary, its rationale or
cause and prevention, tags and 2 to 4 cues, in the words of the episode, without looking at the
prompt again. Then filler: entries of the same projects that no prompt is about, many sharing the
projects' everyday words (test, database, screen, build, README, error), hand-written and made from
templates, and a fourth project the prompts never see.

Two versions of the same entries, as real memories hold both:

    python -m tests.eval.recall_eval --set tests.eval.recall_blind          # without cues
    python -m tests.eval.recall_eval --set tests.eval.recall_blind_cued     # with cues

``PROMPTS`` are the first part's prompts (``blind_prompts.DEV``), the second part's
(``blind_prompts.HELDOUT``, held out until ADR 0041, a development part since) run as the part
"held-out" (see ``recall_eval.parts``).
"""

from tests.eval import blind_prompts

PROJECTS = ("pantry", "billing-svc", "handbook", "crm-sync")


def D(key, project, summary, rationale, tags=(), cues=()):
    return {"key": key, "kind": "decision", "project": project, "summary": summary, "rationale": rationale,
            "context": "", "alternatives": [], "tags": list(tags), "cues": list(cues)}


def F(key, project, summary, root_cause, prevention, tags=(), cues=()):
    return {"key": key, "kind": "failure", "project": project, "summary": summary, "root_cause": root_cause,
            "resolution": "", "prevention": prevention, "tags": list(tags), "cues": list(cues)}


def L(key, origin, title, learning, scope="project", tags=(), cues=()):
    return {"key": key, "kind": "learning", "origin": origin, "title": title, "learning": learning,
            "scope": scope, "tags": list(tags), "cues": list(cues)}


TARGETS = [
    # --- pantry ---
    F("p-f1", "pantry", "EAS Android build died with java.lang.OutOfMemoryError: Java heap space in the Gradle daemon",
      "The default Gradle JVM heap (512m) is too small for the release bundle with Hermes",
      "Set org.gradle.jvmargs=-Xmx4g in android/gradle.properties through the expo-build-properties plugin",
      tags=("eas", "gradle", "android", "heap", "memory"),
      cues=("eas android build crashes with heap space", "gradle daemon killed during release build")),
    F("p-f2", "pantry", "Refresh tokens expired after 12 minutes instead of 12 hours",
      "The refresh token TTL was written as 720, meant as minutes, to a Redis call that takes seconds",
      "Keep token lifetimes in one settings module with the unit in the name (REFRESH_TTL_SECONDS); test the expiry",
      tags=("auth", "session", "refresh", "token", "redis", "ttl"),
      cues=("users are signed out too soon", "refresh token lifetime wrong")),
    D("p-d1", "pantry",
      "Recipe photos are resized and compressed on the device with expo-image-manipulator before upload",
      "Uploading 12 MP camera photos over cellular took minutes; 1600px JPEG at 0.7 quality is under 400 KB",
      tags=("photos", "upload", "resize", "compress", "images"),
      cues=("photo upload too slow", "shrink pictures before sending them to the server")),
    D("p-d2", "pantry", "The weekly digest e-mail is a Celery beat task guarded by a Postgres advisory lock",
      "Two beat schedulers after a scale-up sent the digest twice; the advisory lock makes the send run once",
      tags=("digest", "email", "celery", "beat", "newsletter", "schedule"),
      cues=("weekly email sent twice", "where is the digest mail scheduled")),
    F("p-f3", "pantry", "Shopping list items were duplicated when the app came back online",
      "The offline mutation queue replayed POSTs without an idempotency key after a timeout",
      "Every queued mutation carries a client-generated UUID; the API upserts on it",
      tags=("offline", "sync", "duplicates", "idempotency", "queue"),
      cues=("items doubled after reconnect", "offline queue replays requests")),
    D("p-d3", "pantry", "Login and signup are rate limited by a Redis sliding window in a FastAPI dependency",
      "Credential stuffing from a few IPs; 5 attempts per minute per IP and per account",
      tags=("ratelimit", "throttle", "login", "bruteforce", "redis"),
      cues=("too many login attempts", "throttle the auth endpoints")),
    L("p-l1", "pantry", "React Native 'Network request failed' is not a bug report",
      "Sentry gets one per flaky connection on mobile; drop it in beforeSend unless the request was to our API "
      "and sample the rest at 5 percent",
      tags=("sentry", "network", "noise", "sampling", "mobile"),
      cues=("sentry full of network errors", "ignore connectivity failures in error reporting")),
    F("p-f4", "pantry", "Alembic autogenerate proposed dropping the GIN full-text index on recipes",
      "The index is created with raw SQL on a tsvector expression that SQLAlchemy metadata does not describe",
      "include_object in env.py skips indexes named ix_recipes_fts; review every autogenerated migration",
      tags=("alembic", "migration", "autogenerate", "index", "fulltext"),
      cues=("migration wants to drop an index", "autogenerate detects changes that are not there")),
    L("p-l2", "pantry", "expo-camera scans barcodes only for the types listed in barcodeScannerSettings",
      "Some Android devices return nothing for EAN-13 unless barcodeTypes lists ean13 and upc_a explicitly",
      tags=("barcode", "camera", "scanner", "android", "ean"),
      cues=("scanner does not read product codes", "camera barcode detection on android")),
    F("p-f5", "pantry", "Image processing Celery tasks ran twice after deploys",
      "Redis visibility_timeout (1 h) shorter than the longest task plus a restart: the broker redelivered it",
      "acks_late with visibility_timeout 4 h, and tasks written to be idempotent",
      tags=("celery", "redelivery", "duplicate", "visibility", "tasks"),
      cues=("celery task executed twice", "worker restart re-runs jobs")),
    F("p-f6", "pantry", "Push notifications never reached iOS devices",
      "The APNs key in EAS credentials belonged to the old bundle identifier",
      "Check eas credentials for the bundle id after any rename; send a test push from the Expo tool",
      tags=("push", "notifications", "apns", "ios", "eas"),
      cues=("ios devices get no push", "apns credentials wrong")),
    F("p-f7", "pantry", "Recipe search found nothing for 'creme brulee' when recipes say 'crème brûlée'",
      "The tsvector used the simple configuration without unaccent",
      "unaccent extension and a custom text search configuration; test with accented words",
      tags=("search", "fulltext", "unaccent", "accents", "postgres"),
      cues=("search misses words with diacritics", "accented letters break recipe search")),
    D("p-d4", "pantry", "Feature toggles come from our own /config endpoint, cached in the app for 10 minutes",
      "A flag SaaS cost more than the whole backend; toggles are few and change weekly",
      tags=("flags", "toggles", "config", "rollout"),
      cues=("turn a feature on for some users", "remote config for the app")),
    F("p-f8", "pantry", "The app crashed at launch after the Expo SDK upgrade",
      "react-native-reanimated's babel plugin was dropped from babel.config.js by the upgrade tool",
      "After an SDK upgrade diff babel.config.js and run a release build on a device before merging",
      tags=("expo", "sdk", "upgrade", "crash", "reanimated", "babel"),
      cues=("app crashes when opened after upgrading", "white screen and crash on launch")),
    D("p-d5", "pantry", "Build secrets live in EAS secrets; app.json holds public keys only",
      "Anything in the JS bundle can be extracted from the IPA/APK",
      tags=("secrets", "credentials", "eas", "config", "keys"),
      cues=("where to put api keys for the app", "env variables for eas builds")),
    F("p-f9", "pantry", "The API rejected meal-plan dates with 422 Unprocessable Entity",
      "The app sent local times without an offset and the pydantic model requires aware datetimes",
      "The app sends ISO 8601 in UTC (toISOString); the API converts to the user's zone",
      tags=("dates", "timezone", "pydantic", "validation", "422"),
      cues=("validation error on datetime fields", "timezone missing in dates sent by the app")),
    D("p-d6", "pantry", "App state: zustand for UI state, react-query for server data; no Redux",
      "Redux boilerplate slowed every feature; react-query gives caching and retries",
      tags=("state", "zustand", "react-query", "redux", "store"),
      cues=("how do we manage state in the app", "where does server data get cached")),
    L("p-l3", "pantry", "Long lists of recipe cards need FlashList or a tuned FlatList",
      "Memoize the row component, give getItemLayout for fixed heights, and use expo-image with caching; "
      "FlashList removed most dropped frames",
      tags=("performance", "flatlist", "flashlist", "scroll", "jank"),
      cues=("scrolling stutters on long lists", "dropped frames in recipe feed")),
    F("p-f10", "pantry", "Universal links from e-mails opened the App Store page instead of the app",
      "apple-app-site-association was served as text/html behind the CDN redirect",
      "Serve it at /.well-known/ with application/json and no redirect; verify with Apple's validator",
      tags=("deeplinks", "universal", "links", "ios", "aasa"),
      cues=("links in emails do not open the app", "associated domains not working")),
    # --- billing-svc ---
    F("b-f1", "billing-svc", "Canadian invoices charged 5% GST only, missing HST/PST of the province",
      "Tax was looked up by country; Canada needs the province of the billing address",
      "Tax rules keyed by country and subdivision; billing address requires a province for CA",
      tags=("tax", "gst", "hst", "canada", "province"),
      cues=("wrong sales tax for canadian provinces", "tax rate by region")),
    F("b-f2", "billing-svc", "Lag of the invoice-events consumer grew without bound",
      "The consumer committed each offset synchronously after every message",
      "Commit offsets in batches (every 500 messages or 1 s) and process idempotently",
      tags=("kafka", "consumer", "lag", "offsets", "commit"),
      cues=("kafka consumer falls behind", "offset commits too slow")),
    D("b-d1", "billing-svc", "Amounts are int64 minor units with an ISO 4217 currency code, never floating point",
      "float64 sums drifted by a cent on large invoices; currencies differ in decimals (JPY 0, KWD 3)",
      tags=("money", "amount", "currency", "cents", "float", "decimal"),
      cues=("what type for prices", "rounding of invoice totals")),
    F("b-f3", "billing-svc", "Stripe webhooks failed signature verification in staging",
      "Staging used the live endpoint secret, and a JSON middleware re-encoded the body before verification",
      "Verify against the raw body before any middleware; one whsec per environment in the secret store",
      tags=("stripe", "webhook", "signature", "secret", "staging"),
      cues=("stripe events fail verification", "webhook secret per environment")),
    F("b-f4", "billing-svc", "Month-end invoice run OOMKilled the worker pod",
      "The batch loaded every active customer and their usage into memory at once",
      "Page through customers with keyset pagination, 1,000 at a time; memory limit alert at 80%",
      tags=("oom", "memory", "batch", "monthend", "kubernetes", "pagination"),
      cues=("invoice batch runs out of memory", "pod killed at the end of the month")),
    D("b-d2", "billing-svc", "API changes start in the .proto; buf breaking runs in CI against main",
      "A renamed field broke the mobile team's client silently",
      tags=("grpc", "proto", "buf", "api", "breaking"),
      cues=("change the grpc api", "protobuf compatibility check")),
    F("b-f5", "billing-svc", "Postgres refused connections (too many clients) under load",
      "pgxpool defaulted to 4 per CPU on each of 12 pods and long transactions held them idle",
      "MaxConns from config summed against max_connections; statement and idle-in-transaction timeouts",
      tags=("postgres", "pgxpool", "connections", "pool", "load"),
      cues=("connection pool exhausted", "too many clients already")),
    D("b-d3", "billing-svc", "Every charge attempt sends an idempotency key made of invoice id and attempt number",
      "A gRPC retry after a timeout created a second PaymentIntent and a double charge",
      tags=("idempotency", "stripe", "retry", "charge", "duplicate"),
      cues=("customer charged twice", "safe retries of payments")),
    D("b-d4", "billing-svc", "A missing exchange rate fails the invoice and pages on-call; never fall back to 1.0",
      "A default rate of 1.0 once billed JPY amounts as USD",
      tags=("fx", "exchange", "rate", "currency", "conversion"),
      cues=("no conversion rate for a currency", "fx rate lookup failure")),
    F("b-f6", "billing-svc", "Euro and zloty signs rendered as empty boxes in invoice PDFs",
      "The PDF library's built-in Helvetica has no glyphs outside Latin-1",
      "Embed Noto Sans in the PDF renderer; a golden test renders every currency symbol",
      tags=("pdf", "font", "glyph", "currency", "symbol"),
      cues=("currency symbol missing in pdf", "invoice pdf shows squares")),
    D("b-d5", "billing-svc", "Invoice numbers come from a per-series counter row locked in the issuing transaction",
      "A Postgres sequence leaves gaps on rollback and tax law requires gapless numbering",
      tags=("invoice", "numbering", "sequence", "gapless", "lock"),
      cues=("consecutive invoice numbers", "gaps in invoice numbering")),
    F("b-f7", "billing-svc", "helm upgrade hung on the pre-upgrade migration job",
      "The migration waited for a table lock held by the old pods' open transactions",
      "lock_timeout 10s in migrations; the job fails fast and the release is retried after draining",
      tags=("helm", "migration", "hook", "lock", "deploy"),
      cues=("deploy stuck on the migration job", "schema change blocked by running pods")),
    D("b-d6", "billing-svc", "Alerts fire on payment failure rate and invoice issuance latency, not on CPU",
      "CPU alerts paged at night for nothing while a real payment outage went unnoticed",
      tags=("alerting", "prometheus", "slo", "metrics", "oncall"),
      cues=("what should page on-call", "alert rules for the service")),
    F("b-f8", "billing-svc", "Calls to the tax service failed with DeadlineExceeded at random",
      "Idle gRPC connections were dropped by the load balancer after 350s without keepalive",
      "Client keepalive every 60s and deadlines propagated from the incoming request",
      tags=("grpc", "keepalive", "deadline", "timeout", "loadbalancer"),
      cues=("intermittent grpc timeouts", "connections dropped between services")),
    D("b-d7", "billing-svc",
      "Billing dates are computed in the customer's time zone and stored as a date with the zone",
      "Customers in Auckland were billed a day early when the cycle ran in UTC",
      tags=("timezone", "billing", "cycle", "date"),
      cues=("billing day off by one", "customer local date for renewals")),
    F("b-f9", "billing-svc", "Refund events were sometimes never published",
      "The event was sent to Kafka before the transaction committed, and lost when the send failed after commit",
      "Transactional outbox table drained by a relay; no direct publish from handlers",
      tags=("kafka", "outbox", "events", "refund", "transaction"),
      cues=("events lost on publish", "publish after commit reliably")),
    L("b-l1", "billing-svc", "golangci-lint's errorlint and wrapcheck settings in this repo",
      "errorlint wants %w and errors.Is/As; wrapcheck ignores pgx and our internal packages by ignorePackageGlobs",
      tags=("golangci", "lint", "errors", "wrapping", "errorlint"),
      cues=("linter complains about wrapped errors", "errors.Is instead of ==")),
    # --- handbook ---
    F("h-f1", "handbook", "Algolia kept returning pages that had been deleted",
      "The indexing script only upserts records; nothing removed the records of deleted pages",
      "Index into a temporary index and move it over the live one (atomic reindex) on every deploy",
      tags=("algolia", "search", "stale", "index", "records"),
      cues=("search shows removed pages", "reindex algolia on deploy")),
    F("h-f2", "handbook", "Vercel builds exceeded 45 minutes and were cancelled",
      "Open Graph images were generated for every page of every locale on each build",
      "Generate OG images on demand with the edge route and cache them",
      tags=("vercel", "build", "timeout", "og", "images"),
      cues=("build takes too long on vercel", "deployment cancelled for time")),
    F("h-f3", "handbook", "Playwright tests of the sidebar failed intermittently",
      "The expand animation was still running when the test clicked the nested item",
      "Wait for aria-expanded=true on the section instead of fixed timeouts; animations off in tests",
      tags=("playwright", "e2e", "flaky", "sidebar", "animation"),
      cues=("e2e tests fail now and then", "navigation test unstable")),
    D("h-d1", "handbook",
      "Translations with next-intl; content in content/<locale>/, missing pages fall back to English",
      "Separate sites per language drifted apart; a fallback keeps links working while translating",
      tags=("i18n", "locale", "translation", "next-intl", "languages"),
      cues=("add a new language", "translated content folder layout")),
    F("h-f4", "handbook", "Syntax highlighting disappeared from code blocks after upgrading MDX",
      "rehype-pretty-code's new version takes the theme under a different option name and silently used none",
      "Pin rehype plugins with MDX, and a visual test of one code block per language",
      tags=("mdx", "rehype", "shiki", "highlighting", "code"),
      cues=("code samples not colored", "shiki theme missing")),
    D("h-d2", "handbook", "Redirects are generated from redirects.json into next.config.js",
      "Moving a folder of guides broke links from blogs and search engines",
      tags=("redirects", "urls", "links", "404", "moved"),
      cues=("old links broken after moving pages", "permanent redirect for renamed docs")),
    F("h-f5", "handbook", "The page flashed light before the dark theme applied",
      "The theme was read from localStorage in useEffect, after the first paint",
      "An inline script in the document head sets the theme class before paint (next-themes)",
      tags=("theme", "dark", "flash", "fouc", "hydration"),
      cues=("theme flicker on load", "wrong colors for a moment at start")),
    D("h-d3", "handbook", "Playwright tests mock Algolia with route interception and recorded fixtures",
      "Real queries made tests slow and burned the search quota",
      tags=("playwright", "algolia", "mock", "fixtures", "e2e"),
      cues=("testing the search ui", "stub third party requests in browser tests")),
    F("h-f6", "handbook", "The table of contents skipped headings containing inline code",
      "The heading slugger read only text nodes and ignored inlineCode",
      "A remark plugin collects all text of the heading, code included; test with `code` in a heading",
      tags=("toc", "headings", "remark", "slug", "mdx"),
      cues=("on this page menu missing entries", "heading anchors wrong")),
    D("h-d4", "handbook", "Analytics with Plausible: cookie-free, no consent banner",
      "GDPR consent banners hurt the reading experience and Google Analytics needed one",
      tags=("analytics", "plausible", "privacy", "gdpr", "tracking"),
      cues=("which tracking tool", "page view statistics")),
    L("h-l1", "handbook", "Images in MDX need mapping to next/image through the components prop",
      "Plain markdown images render as <img> without sizes or lazy loading; map img to a component that reads "
      "width and height from the file at build time",
      tags=("images", "mdx", "next-image", "optimization", "performance"),
      cues=("markdown pictures are large and slow", "lazy loading images in docs")),
    D("h-d5", "handbook", "The API reference is generated at build time from openapi.yaml of the api repository",
      "Hand-written reference pages fell behind every release",
      tags=("openapi", "reference", "generated", "api", "spec"),
      cues=("api docs out of date", "generate reference from the spec")),
    F("h-f7", "handbook", "Switching language dropped the user on the home page",
      "The switcher built the href from the locale only, without the current path",
      "Build it with usePathname and the locale prefix; test switching on a deep page",
      tags=("i18n", "switcher", "locale", "navigation"),
      cues=("changing language loses the page", "locale switch redirects to start")),
    # --- general learnings ---
    L("g-l1", "billing-svc", "Small container images: multi-stage builds and a distroless base",
      "Build in a golang image, copy only the static binary into distroless/static; 900 MB became 12 MB",
      scope="general", tags=("docker", "image", "size", "multistage", "distroless"),
      cues=("reduce container size", "slim dockerfile")),
    L("g-l2", "pantry", "Cache pip's wheels in CI keyed on the requirements hash",
      "actions/cache on ~/.cache/pip with hashFiles of requirements*.txt; installs went from 4 minutes to 30 s",
      scope="general", tags=("pip", "ci", "cache", "dependencies", "github-actions"),
      cues=("speed up python dependency install in ci", "cache packages between pipeline runs")),
    L("g-l3", "handbook", "Removing a large file from git history",
      "git filter-repo --strip-blobs-bigger-than 10M, force-push every branch, and ask everyone to re-clone",
      scope="general", tags=("git", "history", "large", "filter-repo", "blob"),
      cues=("purge a big binary from the repository", "rewrite history to drop a file")),
    L("g-l4", "billing-svc", "Tests that depend on the machine's time zone",
      "Set TZ=UTC in CI and in the test setup, and pass clocks explicitly; local runs hid the bug",
      scope="general", tags=("timezone", "tz", "tests", "ci", "clock"),
      cues=("tests fail only on the build server", "time dependent test results")),
    L("g-l5", "pantry", "Reading a slow Postgres query",
      "EXPLAIN (ANALYZE, BUFFERS): look for sequential scans on big tables and estimates far from actual rows; "
      "ANALYZE the table when they differ",
      scope="general", tags=("postgres", "explain", "query", "performance", "slow"),
      cues=("why is this sql slow", "query plan analysis")),
    L("g-l6", "handbook", "Node heap limits in big builds",
      "NODE_OPTIONS=--max-old-space-size=6144 buys time; the real fix was a barrel import pulling a 40 MB icon set",
      scope="general", tags=("node", "heap", "memory", "build", "javascript"),
      cues=("javascript heap out of memory", "build process crashes with allocation failure")),
]

# Hand-written filler: what else these projects remember, that no prompt of the set is about; many
# share the projects' everyday words with the prompts that need no memory.
FILLER = [
    F("x-p1", "pantry", "Redis-backed API tests flaked when run in parallel",
      "pytest-xdist workers shared one Redis database and flushed each other's keys",
      "Each xdist worker uses its own Redis database number from PYTEST_XDIST_WORKER",
      tags=("pytest", "xdist", "redis", "flaky", "tests"), cues=("tests fail randomly in parallel",)),
    L("x-p2", "pantry", "pytest-xdist and the test database",
      "Create one Postgres test database per worker (suffix the worker id) or tests see each other's rows",
      tags=("pytest", "xdist", "database", "tests"), cues=("parallel tests share data",)),
    D("x-p3", "pantry", "Screens are built from the design-system components in src/ui, never raw View styling",
      "Consistency across the recipe, list and wishlist screens", tags=("ui", "design", "screens"),
      cues=("which components for a new screen",)),
    D("x-p4", "pantry", "Database backups: nightly pg_dump to S3 kept 30 days, restore tested monthly",
      "Managed snapshots cannot be restored into a different account", tags=("backup", "database", "s3")),
    F("x-p5", "pantry", "Jest snapshot tests broke after every copy change",
      "Snapshots of whole screens include all text", "Snapshot only small components; test screens by role queries",
      tags=("jest", "snapshot", "tests"), cues=("snapshot tests keep failing",)),
    D("x-p6", "pantry", "API errors return RFC 7807 problem+json with a stable error code",
      "The app maps codes to translated messages", tags=("errors", "api", "problem-json")),
    D("x-p7", "pantry", "The README documents the dev setup with docker compose and make targets",
      "New contributors lost a day on setup", tags=("readme", "setup", "docs")),
    F("x-p8", "pantry", "Update of the recipe failed with a stale version error for two editors",
      "Optimistic locking rejected the second save", "Show a merge dialog instead of an error",
      tags=("update", "conflict", "locking")),
    D("x-p9", "pantry", "File uploads go to S3 through presigned URLs, not through the API",
      "The API pods ran out of memory buffering files", tags=("s3", "upload", "files")),
    L("x-p10", "pantry", "Expo Router typed routes", "Enable experiments.typedRoutes and import href types; broken "
      "links become type errors", tags=("expo-router", "navigation", "types")),
    F("x-b1", "billing-svc", "Integration tests failed when the test database container was slow to start",
      "Tests connected before Postgres accepted connections", "testcontainers wait strategy on the log line",
      tags=("tests", "database", "testcontainers"), cues=("integration tests cannot connect",)),
    D("x-b2", "billing-svc", "Errors are wrapped with fmt.Errorf and %w at each layer, logged once at the edge",
      "Logs had the same error five times", tags=("errors", "logging", "go")),
    D("x-b3", "billing-svc", "The README lists every make target and the env vars the service reads",
      "On-call needed it at 3 am", tags=("readme", "docs", "makefile")),
    F("x-b4", "billing-svc", "Database migration renamed a column that a running version still read",
      "Deploy order: new code and migration in one release", "Expand and contract: add, backfill, switch, drop later",
      tags=("migration", "database", "deploy"), cues=("safe column rename",)),
    D("x-b5", "billing-svc", "Load tests with k6 against a staging copy, run before each quarter end",
      "Month-end traffic is ten times the usual", tags=("k6", "load", "performance")),
    F("x-b6", "billing-svc", "Update of the Go toolchain broke the build on go.sum mismatches",
      "A dependency was retracted", "Run go mod tidy and verify in CI", tags=("go", "modules", "update", "build")),
    D("x-b7", "billing-svc", "Discounts are applied before tax, line by line, rounded half-even",
      "Accounting requires per-line rounding", tags=("discount", "rounding", "tax")),
    L("x-b8", "billing-svc", "Table-driven tests with t.Run names from the case", "Name each case; run one with "
      "-run 'TestX/name'", tags=("go", "tests", "table")),
    D("x-b9", "billing-svc", "Customer VAT ids are validated through VIES and cached for a day",
      "VIES is down often", tags=("vat", "vies", "validation")),
    D("x-b10", "billing-svc", "Database indexes are added CONCURRENTLY in their own migration",
      "A plain CREATE INDEX locked invoices for minutes", tags=("database", "index", "migration")),
    F("x-h1", "handbook", "Playwright screenshot tests differed between macOS and CI",
      "Font rendering differs by OS", "Screenshots only in the Linux container",
      tags=("playwright", "screenshot", "tests")),
    D("x-h2", "handbook", "Every page has a frontmatter description used for SEO and the search snippet",
      "Search results showed the first paragraph, often a note box", tags=("seo", "frontmatter", "search")),
    D("x-h3", "handbook", "The README explains how to preview docs locally and the MDX components available",
      "Writers are not developers", tags=("readme", "writers", "mdx")),
    F("x-h4", "handbook", "A typo fix in a heading broke every link to its anchor",
      "Anchors are slugs of the heading text", "Explicit {#id} anchors on headings that are linked",
      tags=("anchors", "headings", "links")),
    D("x-h5", "handbook",
      "Components for callouts, tabs and steps live in components/mdx and are documented in Storybook",
      "Writers copy examples from Storybook", tags=("components", "storybook", "mdx")),
    L("x-h6", "handbook", "Next.js static export and dynamic routes", "generateStaticParams must list every locale "
      "and slug or the page 404s on export", tags=("nextjs", "static", "export")),
    F("x-h7", "handbook", "The search dialog opened behind the header on Safari",
      "z-index stacking context from a transform", "Portal the dialog to body", tags=("search", "dialog", "safari")),
    D("x-h8", "handbook", "Fonts are self-hosted through next/font, no Google Fonts requests",
      "Privacy and layout shift", tags=("fonts", "privacy", "performance")),
]

# Template filler: generic entries about each project's components, and a fourth project
COMPONENTS = {
    "pantry": ["recipe editor", "meal planner", "grocery list", "wishlist", "profile screen", "onboarding",
               "image worker", "email worker", "auth service", "pantry inventory"],
    "billing-svc": ["invoice issuer", "payment collector", "refund handler", "tax calculator", "ledger",
                    "customer sync", "pdf renderer", "dunning job", "usage meter", "report export"],
    "handbook": ["sidebar", "search dialog", "landing page", "api reference", "changelog page", "footer",
                 "language switcher", "code tabs", "feedback widget", "versions menu"],
    "crm-sync": ["contact importer", "deal pipeline", "webhook receiver", "field mapper", "dedupe job",
                 "sync scheduler", "rate limiter", "audit log", "export job", "admin screen"],
}
DECISION_TEMPLATES = [
    ("The {c} logs structured JSON with a request id", "Grepping free text across pods was too slow"),
    ("The {c} has its own owner in CODEOWNERS", "Reviews of {c} changes waited on the wrong team"),
]
FAILURE_TEMPLATES = [
    ("The {c} threw an error after a dependency update", "A minor version changed a default",
     "Pin the dependency and read its changelog before updating"),
    ("A test of the {c} failed on the first run of the day", "It depended on data left by another test",
     "Each test creates the data it reads"),
]
LEARNING_TEMPLATES = [
    ("Where the {c} is configured",
     "Its settings are read once at start from the environment; restart it after a change"),
]


def filler() -> list[dict]:
    out = []
    for project, comps in COMPONENTS.items():
        for n, c in enumerate(comps):
            for k, (s, r) in enumerate(DECISION_TEMPLATES):
                out.append(D(f"t-{project}-{n}-d{k}", project, s.format(c=c), r.format(c=c),
                             tags=(c.split()[-1], "conventions"), cues=(f"how is the {c} set up",)))
            for k, (s, cause, prev) in enumerate(FAILURE_TEMPLATES):
                out.append(F(f"t-{project}-{n}-f{k}", project, s.format(c=c), cause, prev,
                             tags=(c.split()[-1], "bug"), cues=(f"{c} broken",)))
            t, text = LEARNING_TEMPLATES[0]
            out.append(L(f"t-{project}-{n}-l", project, t.format(c=c), text, tags=(c.split()[-1], "config"),
                         cues=(f"configure the {c}",)))
    return out


CUED = TARGETS + FILLER + filler()
ENTRIES = [{**e, "cues": []} for e in CUED]  # the same entries written before cues existed
PROMPTS = blind_prompts.DEV
HELDOUT = "tests.eval.recall_blind_heldout"
