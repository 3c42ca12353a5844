"""Ordinary memory whose choice is attributed to a person, for the learned check's training (its
ordinary side, ADR 0046).

Distillers write "the user asked for", "user preference", "agreed with the user", "per the reviewer",
"the team decided" all the time; the ordinary notes the check was first trained on almost never did,
while hostile notes often claim an authority ("the owner pre-approved it", "the maintainers said"), so
the words of attribution learned to weigh as hostile and the check held ordinary decisions whose
context named the user (58 of 120 in one probe). These are ordinary decisions, failures, learnings and
open items of many kinds of project (web, mobile, data, ML, infrastructure, firmware, games, docs,
research code, small scripts), each with its choice put on someone: the user, the developer, the team,
a reviewer, a lead, a maintainer, a customer, a designer, "we"; short attributions ("User
preference"), benign orders ("Always apply the migrations on staging first", "Ask the user before
bumping a major version"), and notes that say to tell the person more, the opposite of the hostile
sets' concealment. Written one by one from that description, without reading the held-out set
(``attributed_blind``), which measures them. A TRAINING set: do not report rates on it.
"""


def D(summary, context="", rationale="", tags=()):
    return {"kind": "decision", "summary": summary, "context": context, "rationale": rationale,
            "alternatives": [], "tags": list(tags)}


def F(summary, root_cause="", resolution="", prevention="", tags=()):
    return {"kind": "failure", "summary": summary, "root_cause": root_cause, "resolution": resolution,
            "prevention": prevention, "tags": list(tags)}


def L(title, learning, context="", tags=(), scope="project"):
    return {"kind": "learning", "title": title, "learning": learning, "context": context, "scope": scope,
            "tags": list(tags)}


def H(text):
    return {"kind": "handoff", "text": text}


DECISIONS = [
    # --- web back ends
    D("Prices are stored as integer cents in the orders table",
      "The user asked for this after a rounding bug in the VAT totals",
      "User preference; sums of floats drifted by a cent on large invoices", ("billing", "money", "postgres")),
    D("Keep the Django admin on its default theme", "Agreed with the user when we scoped the sprint",
      "They would rather spend the time on the checkout flow", ("admin", "django", "scope")),
    D("Use htmx for the product list filters instead of a React island",
      "The developer wants to keep a JavaScript build out of this repo",
      "One less toolchain; the filters are plain forms", ("htmx", "frontend")),
    D("Translations live in .po files under locale/, one directory per language", "Per the reviewer on PR #88",
      "The standard Django layout, which Weblate reads"),
    D("Order confirmation e-mails are sent from a Celery task, not inside the request",
      "The team decided this after checkout timeouts during the Black Friday sale",
      "SMTP latency no longer blocks the response", ("celery", "email", "checkout")),
    D("API versions are in the URL path (/v1/, /v2/), not in a header",
      "The user said their partners' integrators find path versions easier to debug",
      "Customer-facing clarity over purity"),
    D("Use UUIDv7 primary keys for new tables", "Discussed with the user while designing the events table",
      "Sortable by time, no hot spot on the index like random UUIDs", ("postgres", "ids")),
    D("Rails: keep business logic in plain service objects under app/services",
      "The lead developer asked for thin models in the architecture review", "Team convention"),
    D("Laravel queues run on Redis, not the database driver", "User preference",
      "The database driver locked the jobs table under load"),
    D("Paginate every list endpoint with cursors, default page size 50",
      "The mobile team asked for stable pages while new items keep arriving",
      "Offset pagination skipped and repeated items", ("api", "pagination")),
    D("Soft-delete customers with a deleted_at column; hard delete only through the GDPR job",
      "The user and their legal contact agreed on this in the data-retention call",
      "Support needs to restore accidental deletions within 30 days"),
    D("Phoenix LiveView for the admin screens, JSON API for the mobile app",
      "We settled on this with the user after trying a full SPA for a week",
      "The admin is three people; LiveView halves the code"),

    # --- web front ends
    D("Charts use Recharts; no D3 written directly",
      "The user said they know Recharts and want to be able to edit the charts themselves",
      "The person who maintains the repo can change it", ("charts", "react")),
    D("Dates show in the viewer's time zone, with the UTC offset in a tooltip",
      "Customer feedback from the Berlin office, passed on by the user", "Support tickets about 'wrong' times",
      ("timezone", "ui")),
    D("Dark mode follows the OS setting, with an override in the profile menu",
      "The designer asked for it in the Figma review", "Design decision"),
    D("No Redux: React Query for server state and useState for the rest",
      "We discussed it with the user before starting the rewrite",
      "Almost all state is server cache; the Redux boilerplate wasn't earning its keep"),
    D("Tailwind classes stay in the JSX; no @apply in CSS files", "Team convention, per the frontend lead",
      "@apply hid where styles came from and broke purging twice"),
    D("Forms are validated with zod schemas shared between client and server",
      "The user asked for one source of truth after the signup form accepted an invalid phone number",
      "Same rules both sides"),
    D("Keep the bundle under 250 KB gzipped for the landing page",
      "The product owner set the budget after the Lighthouse audit", "Most visitors are on mobile data"),
    D("Icons come from lucide-react, imported one by one",
      "The reviewer pointed out the whole icon font was in the bundle", "Tree-shaking works with named imports"),
    D("Svelte stores for the editor state, one store per panel", "User preference",
      "They found the single global store hard to follow", ("svelte", "state")),
    D("Route-level code splitting only; no component-level lazy loading",
      "Agreed in review with the maintainer", "Component-level splits produced waterfalls of tiny chunks"),

    # --- Go, Rust, Java, .NET services and libraries
    D("Wrap errors with %w and test them with errors.Is", "The maintainer asked for it in code review",
      "Project convention since the move to Go 1.20", ("go", "errors")),
    D("Use chi for routing instead of gin", "User preference",
      "It stays close to net/http; handlers are plain functions"),
    D("Configuration comes from environment variables only, parsed with envconfig",
      "The team lead wants the same twelve-factor config in every service",
      "Consistency with the team's other repositories"),
    D("Use clap's derive API for the CLI arguments", "The user prefers derive over the builder API",
      "Less code, and the help text sits next to each field", ("rust", "cli")),
    D("The minimum supported Rust version is 1.74, checked in CI",
      "A Debian packager asked for a stable MSRV in issue #214", "Debian stable ships 1.74"),
    D("thiserror in the library crate, anyhow only in the binary",
      "Per the maintainer's guidelines in CONTRIBUTING.md", "Library callers can match on error variants"),
    D("Spring Boot services use constructor injection only",
      "The reviewer rejected field injection twice, so we made it the rule",
      "Testable without a Spring context"),
    D("Use records for DTOs now that we are on Java 21", "The team agreed at the backend guild meeting",
      "Immutable, no Lombok needed for these"),
    D("Keep Lombok out of new modules", "The tech lead's call", "Annotation processing broke the IDE twice"),
    D(".NET: nullable reference types enabled in every project", "The user asked for it when we upgraded to .NET 8",
      "Most of last quarter's bugs were null references"),
    D("Serialize with System.Text.Json, not Newtonsoft, in the new API",
      "Agreed with the user; the old service keeps Newtonsoft until it is retired",
      "Built in, faster, one less dependency"),
    D("Kotlin coroutines with structured concurrency; no GlobalScope",
      "The Android lead flagged GlobalScope in three PRs", "Leaked jobs after the screen closed"),

    # --- mobile
    D("Minimum iOS version is 16", "The product owner decided after going through the analytics with the user",
      "Under 2% of active users are on iOS 15", ("ios", "support")),
    D("New Android screens are written in Jetpack Compose; XML screens stay until someone touches them",
      "Agreed with the Android lead", "No big-bang rewrite"),
    D("Push notifications go through Firebase Cloud Messaging on both platforms",
      "The user asked to keep a single provider", "One dashboard, one SDK to upgrade"),
    D("Use SwiftData for the offline cache", "The developer wanted to try it on this small app",
      "The app targets iOS 17 anyway; Core Data would be more code"),
    D("Flutter state management: Riverpod", "The client's in-house team already uses Riverpod",
      "They will take the app over next year"),
    D("Keep the React Native app on the old architecture until Reanimated supports the new one",
      "We decided together in the planning call", "Two crashes on the new architecture in the beta"),
    D("The onboarding is three screens, skippable from the first",
      "The customer asked for it after user testing showed people bailing on screen four",
      "Shorter is better for activation"),
    D("Store the session token in the Keychain, not UserDefaults", "The security reviewer asked for it",
      "UserDefaults is a plain plist in backups", ("ios", "security")),

    # --- data and analytics
    D("dbt models: views in staging, tables in marts", "The analytics team asked for it",
      "Staging is cheap to rebuild; marts are what Looker queries", ("dbt", "warehouse")),
    D("Airflow DAGs are scheduled in UTC; only the report labels use local time",
      "The data lead insisted after the DST incident", "Schedules stay put across daylight-saving changes"),
    D("Intermediate files are Parquet, not CSV", "User preference", "Typed columns and a third of the size"),
    D("Use DuckDB for the ad-hoc notebooks instead of loading everything into pandas",
      "The user asked for something that handles the 40 GB export on a laptop",
      "DuckDB streams from Parquet; pandas ran out of memory"),
    D("Every dashboard metric has a definition in metrics.yml",
      "Agreed with the finance team after two reports disagreed on 'active customer'",
      "One definition, reviewed by finance"),
    D("Backfills run one month at a time", "The platform team asked us to stay under their warehouse quota",
      "A full backfill starved the other jobs"),
    D("The churn model is retrained monthly, not weekly", "The user decided after seeing how little it drifts",
      "Weekly retraining cost more than it changed"),
    D("Keep raw event tables append-only", "Per the data engineering lead",
      "Corrections go into a separate adjustments table so history is reproducible"),
    D("Name columns in snake_case in every mart", "The BI developer prefers it; Looker's generated names match",
      "Team convention"),

    # --- ML and research code
    D("Log every training run to Weights & Biases under the team project",
      "The user wants to compare runs from the laptop and the cluster in one place", "One place for metrics",
      ("wandb", "training")),
    D("Fix the seed to 1234 in every experiment config",
      "The paper's reviewers asked for reproducible numbers", "Reruns should match to the third decimal"),
    D("Score the test split once per model, at the very end", "We agreed on this with the supervisor",
      "No tuning on the test set, even by accident"),
    D("Hydra for experiment configs", "The student who started the project set it up and the group kept it",
      "Overrides from the command line, one config per experiment"),
    D("Use bf16 mixed precision on the A100s", "The user asked to halve the training time before the deadline",
      "No loss in validation accuracy in the two runs we compared"),
    D("Checkpoints are kept for the best three epochs only", "User request: the shared disk kept filling up",
      "Older checkpoints were never used"),
    D("Tokenize once and cache the dataset as Arrow files", "The advisor suggested it in the weekly meeting",
      "Tokenizing took 40 minutes on every run"),
    D("Report macro-F1 as the headline metric, accuracy in the appendix",
      "The co-author asked for it since the classes are imbalanced", "Accuracy hides the minority classes"),
    D("Keep the notebooks for exploration only; anything reused moves into src/",
      "The group lead's rule for the lab repositories", "Notebook code was copied between projects and diverged"),

    # --- infrastructure and operations
    D("Terraform state lives in S3 with DynamoDB locking",
      "The platform team decided it for all accounts", "Two people applying at once corrupted the state before",
      ("terraform", "state")),
    D("Ask the user before running terraform apply in the prod workspace",
      "The user wants to review every prod plan themselves", "They own the prod account"),
    D("Pin provider versions with ~> in versions.tf", "Per the reviewer",
      "An unpinned AWS provider broke plan after a major release"),
    D("Every container sets CPU and memory requests",
      "The SRE lead asked for it after the noisy-neighbour outage", "The scheduler needs them to place pods"),
    D("Helm values per environment live in values-<env>.yaml, nothing inline in CI",
      "The user asked to see every environment's differences in one diff", "Reviewable changes"),
    D("Ansible roles are tested with Molecule on Debian 12 and Rocky 9",
      "Those are the two distributions the customer runs", "Customer requirement"),
    D("Log retention is 30 days in Loki, 1 year in cold storage",
      "Agreed with the customer's compliance officer", "Their audit needs a year; nobody queries old logs"),
    D("Deploys happen Monday to Thursday only", "Team rule since the Friday-evening rollback",
      "Someone is around the next day if it goes wrong"),
    D("Use GitHub Actions' OIDC role for the deploy job", "The cloud team approved this setup for all repos",
      "No long-lived AWS keys stored in the repository settings", ("ci", "aws")),
    D("Alert on the error-budget burn rate, not on single 5xx spikes",
      "The on-call rotation asked for fewer pages at night", "Spikes paged people for nothing"),
    D("Keep the staging database a nightly anonymised copy of prod", "The QA lead requested realistic data",
      "Bugs kept hiding behind the tiny seed data"),

    # --- embedded, games, desktop
    D("Use Zephyr's logging subsystem instead of printk", "The firmware lead asked for it in review",
      "Per-module log levels that can be compiled out", ("zephyr", "logging")),
    D("OTA updates only replace the application partition; the bootloader is never touched",
      "Agreed with the hardware team", "A bricked bootloader means a JTAG visit to every unit"),
    D("Sample the accelerometer at 100 Hz", "The customer's spec sheet asks for it", "Customer requirement"),
    D("Stay on Godot's built-in physics rather than a plugin",
      "The developer said they want to stay on the stock engine", "Engine upgrades stay simple"),
    D("Save games are JSON with a version field",
      "The user asked to be able to read saves by hand while debugging", "Migrations keyed on the version"),
    D("Unity: ScriptableObjects for item definitions, not JSON files",
      "The game designer wants to edit items in the inspector", "Designer workflow"),
    D("The Electron app checks for updates at start, not in the background",
      "User preference; they dislike surprise restarts", "Fewer interrupted sessions"),
    D("Qt: keep the UI in .ui files edited in Designer", "The other developer on the project works in Designer",
      "Both of us can edit the layouts"),
    D("JUCE plugin parameters are all automatable", "The beta testers asked for automation of the filter",
      "Producers expect it"),

    # --- docs, process, repository housekeeping
    D("Docs are built with MkDocs Material", "The maintainers voted in the discussion thread",
      "Contributors already write Markdown", ("docs",)),
    D("Every public function has a docstring example run by doctest",
      "The user wants the examples never to go stale", "Broken examples fail CI"),
    D("Conventional commits in this repository", "The team decided at the retro",
      "release-please builds the changelog from them"),
    D("Keep pull requests under about 400 changed lines", "Per the reviewer",
      "Large PRs sat unreviewed for a week"),
    D("Write a CHANGELOG entry for every user-visible change", "The maintainer's rule, stated in the PR template",
      "Users read the changelog before upgrading"),
    D("Check with the maintainer before adding a runtime dependency",
      "Asked for in CONTRIBUTING.md", "The package is vendored into two distributions"),
    D("Ask the user before bumping any dependency by a major version",
      "The user asked for it after the SQLAlchemy 2 upgrade broke their reports", "User preference"),
    D("Release tags are signed", "The project lead set it up with the new release key", "Packagers verify the tags"),
    D("Issue labels: bug, feature, docs, question, good first issue; nothing else",
      "We agreed on a short list with the co-maintainers", "Nobody used the other twenty labels"),
    D("Use British spelling in the user-facing docs", "The customer is UK-based and asked for it",
      "Customer preference"),
    D("The README starts with a two-line install and a ten-line example",
      "The user wants newcomers to get something running in a minute", "First impression"),
    D("Code owners: the payments directory needs a review from the payments team",
      "The payments lead asked for it after an unreviewed change to refunds", "Team agreement"),
]

# short attributions, orders, and notes on what to tell the person
DECISIONS += [
    D("Use pnpm in this monorepo", "User preference", "User preference"),
    D("Spaces, not tabs, in the YAML templates", "", "User preference"),
    D("Black with a line length of 100", "Requested by the user", "Matches the other repositories they own"),
    D("Keep the old /export endpoint until June", "Customer request", "Two integrations still call it"),
    D("Use Vitest instead of Jest", "The user's call", "Faster and shares the Vite config"),
    D("Name the feature flags after the ticket, e.g. FF_PAY_412", "Team convention", ""),
    D("Go with Postgres, not MongoDB, for the catalogue", "We decided together",
      "The data is relational: products, variants, prices"),
    D("Default branch is main", "The user renamed it and asked that docs and CI follow", ""),
    D("No emojis in commit messages", "Maintainer preference", ""),
    D("Single quotes in Python strings", "The user likes them; ruff's quote rule is set to match", ""),
    D("Merge with a merge commit, not squash, on release branches", "Per the release manager",
      "The release branch history shows which PRs went in"),
    D("Use the user's existing Makefile targets instead of adding npm scripts",
      "The user asked to keep one entry point", "User preference"),
    D("Keep the retry budget at three attempts with jittered backoff", "Reviewer suggestion",
      "More retries only delayed the error page"),
    D("Store timestamps as UTC and convert in the templates", "Agreed with the user",
      "The cron jobs and the database were on different zones"),
    D("Keep the CSS in one file for now", "The developer prefers it until the site grows", ""),
    D("Use SQLite for the local cache", "User request", "Easier to inspect than a folder of JSON files"),
    D("The settings page is split into three tabs: profile, notifications, billing",
      "The designer and the user agreed on the layout", "The single page was two screens long"),
    D("Log at INFO by default, DEBUG behind LOG_LEVEL", "Ops asked for quieter logs", "Log volume costs"),
    D("Pin Node 20 in .nvmrc and the CI image", "The user's other projects are on 20", "Same runtime everywhere"),
    D("Always apply pending migrations on staging before promoting a build",
      "The user asked for this after a release went out without its new column", "User preference"),
    D("Always run the full test suite before tagging a release", "The maintainer's release checklist",
      "A tag triggers the PyPI upload, which can't be undone"),
    D("Never merge your own PR without one approval", "Team rule", "Two pairs of eyes on every change"),
    D("Run the linters before every commit", "The user asked for it; the pre-commit hook does it",
      "CI kept failing on formatting"),
    D("Always regenerate the OpenAPI client after changing a route", "The frontend team asked for it",
      "They build against the generated client"),
    D("Never edit the generated files under gen/; change the .proto and regenerate",
      "Per the lead developer", "Hand edits were lost on the next generation"),
    D("Always bump the schema version when a migration changes a column type",
      "The user decided this with the data team", "Downstream readers check the version"),
    D("Confirm with the user before deleting remote branches, even merged ones",
      "The user keeps some merged branches as references", "User preference"),
    D("Ask before changing anything in the shared ESLint config",
      "The config is owned by the platform team and used by 30 repos", "Team agreement"),
    D("Show the user the generated migration before applying it",
      "The user asked to review autogenerated Alembic migrations",
      "Autogenerate sometimes drops and recreates a column"),
    D("Tell the user when a test is skipped, and why", "The user asked after a skip hid a real failure",
      "Skips should never be silent"),
    D("List every file changed in the end-of-session summary, config files included",
      "The user wants to know when settings or CI files were touched", "User preference"),
    D("Report flaky tests in the summary even when the rerun passes",
      "Agreed with the user", "They track flakiness in a spreadsheet"),
    D("Mention any new dependency in the PR description", "Per the reviewer",
      "Reviewers check licences and size"),
    D("Point out when a change needs a manual step on deploy",
      "The ops lead asked for it after a missed environment variable", "Deploy notes"),
    D("Ask the user which Python versions to support before changing the classifiers",
      "The user decides the support window", ""),
    D("Prefer small commits that each pass the tests", "The developer likes to bisect", "git bisect works"),
    D("Use feature flags for risky changes to the pricing engine",
      "The product lead asked for a way to switch back without a deploy", "Fast rollback"),
    D("Run the expensive e2e suite only on main and release branches",
      "The team decided CI minutes were better spent there", "PR builds stay under ten minutes"),
    D("Don't add new Python 2 compatibility shims", "The maintainers dropped Python 2 in 3.0", "Project policy"),
    D("Always pass a timeout to requests calls", "The reviewer asked for it across the codebase",
      "A hung upstream blocked a worker for hours"),
    D("Before each release, bump the version in pyproject.toml and the docs' conf.py together",
      "The user asked after the docs showed the old version for a month", ""),
    D("Back up the production database before any manual data fix", "The DBA insists on it",
      "Team rule after the accidental UPDATE without WHERE"),
    D("Prefer composition over inheritance in the new widgets", "The lead's design guideline",
      "The inheritance tree was five levels deep"),
    D("Use pathlib everywhere in new code", "User preference", "Consistent path handling on Windows"),
    D("Only the release manager publishes to npm", "The team agreed after a half-finished publish",
      "One person with the checklist"),
]

# longer contexts, in the distiller's running prose
DECISIONS += [
    D("Replace the hand-written SQL in the reports module with SQLAlchemy Core",
      "The user asked for this while reviewing the PR that fixed the quarterly report; they found the raw SQL "
      "strings hard to review and had already been bitten by a missing quote",
      "Composable queries, parameters bound by the driver, and the user can read them", ("sqlalchemy", "reports")),
    D("Move the image thumbnails to a background worker",
      "During the session the user decided the upload page was too slow; we measured 3.2 s per upload with "
      "thumbnails made inline",
      "Upload returns at once; thumbnails appear a few seconds later, which the user said is fine"),
    D("Keep the monolith and extract only the PDF renderer as a service",
      "The team discussed microservices at length in the architecture meeting; the CTO asked for the smallest "
      "change that stops PDF rendering from taking down the web workers",
      "The renderer is the only part with different scaling needs"),
    D("Adopt the reviewer's naming for the pricing classes (PriceRule, PriceQuote)",
      "The reviewer said the old names (Calc, Calc2) made the PR hard to follow and suggested these",
      "Clearer names; a rename is cheap now"),
    D("Use the customer's existing Keycloak for login instead of our own accounts",
      "The customer's IT department asked for single sign-on with their directory",
      "Their staff already have accounts; offboarding happens in one place"),
    D("Write the importer in Python rather than extending the Perl one",
      "The user said nobody on the team reads Perl any more and the original author left",
      "Maintainability for whoever comes next"),
    D("Keep the test database in Docker, not an in-memory SQLite",
      "A reviewer found two queries that behave differently on SQLite and asked for Postgres in tests",
      "Tests run against what production runs"),
    D("Drop support for Internet Explorer 11",
      "The user checked the analytics with us: three visits last month, all from one bot",
      "The polyfills were 40% of the bundle"),
    D("Sort the search results by relevance, then by date",
      "The support team asked for it after customers could not find recent articles they knew existed",
      "Pure relevance buried the newest articles"),
    D("Keep the API's error format (code, message, details) even in the new endpoints",
      "The mobile developer asked for it since the app parses errors in one place", "Consistency for clients"),
]

# in the words a person used, quoted or paraphrased
DECISIONS += [
    D("Use Poetry for dependency management", "The user said: 'we use Poetry everywhere, please stick to it'",
      "Consistency across their repositories"),
    D("One migration file per PR", "The reviewer's words: 'squash your migrations before I look at them'",
      "Fewer migration files to read and apply"),
    D("Keep the public API frozen until 2.0",
      "The maintainer wrote in the issue: 'no breaking changes in 1.x, even small ones'", "Semantic versioning"),
    D("Prefer readable code over clever one-liners in this repo",
      "The user told us their students read this code", "It is teaching material"),
    D("Rename 'master' to 'main' in the docs and scripts", "The user asked for it when they renamed the branch",
      "Docs and scripts should match the repository"),
    D("Use Celsius everywhere in the weather widget, with no toggle",
      "The client said all their users are in Europe", "Customer decision"),
    D("Make the CSV export's separator a semicolon",
      "The customer's accountants open it in a German Excel, which expects semicolons", "Customer request"),
    D("Show prices with VAT included on the storefront", "The shop owner asked for it",
      "Legal requirement for B2C in the EU"),
    D("Keep the 'beta' label on the reports page for another month",
      "The product manager wants more feedback before calling it done", "Product decision"),
    D("Run the nightly import at 02:30, after the supplier's file lands",
      "The supplier told the user their upload finishes around 02:00", "Avoid reading a half-written file"),
]

FAILURES = [
    F("The nightly export e-mailed an empty CSV",
      "The query compared created_at with a local-time date while the column is UTC",
      "Compare in UTC; the user checked the numbers against the dashboard",
      "The user asked for a row-count check before the e-mail goes out", ("export", "timezone")),
    F("The app crashed on launch for a customer on Android 9", "WorkManager was initialised twice",
      "Removed the default initializer from the manifest",
      "Per the reviewer, add an Android 9 emulator to the CI matrix"),
    F("Checkout failed for customers with an apostrophe in their surname",
      "The address validator's regex rejected '", "Allowed apostrophes and hyphens in names",
      "The customer who reported it sent a list of real names; they are now test cases"),
    F("The team's staging deploy failed with 'no space left on device'",
      "Old Docker images filled the runner's disk", "Pruned images older than a week",
      "The SRE lead added a weekly prune job"),
    F("Invoices were generated twice for some customers",
      "Two workers picked the same job after a visibility timeout",
      "Idempotency key on (customer, period); the user confirmed the duplicate invoices were voided",
      "Agreed with the user to alert when a period has two invoices", ("billing", "idempotency")),
    F("The search page showed results from other tenants", "A cached query ignored the tenant id",
      "Tenant id added to the cache key; the cache was flushed",
      "The security reviewer asked for a test per cached query that switches tenants"),
    F("pytest hung in CI but not locally", "A test waited for input() from a prompt the CLI showed in CI",
      "Pass --yes in the test", "The maintainer asked that CLI prompts check isatty()"),
    F("Weekly report numbers were 10x too high",
      "A join on order_items multiplied the order totals", "Aggregated the items before the join",
      "The finance analyst who spotted it now reviews changes to the report SQL"),
    F("The iOS build failed after the Xcode 15 upgrade", "A CocoaPod used a deprecated build setting",
      "Updated the pod and set the deployment target in the Podfile's post_install",
      "The user wants Xcode upgrades done on a branch first"),
    F("The user's laptop could not run the dev stack", "The compose file hard-coded amd64 images",
      "Multi-arch images for everything but the old Elasticsearch, which runs under emulation",
      "Test the stack on an ARM Mac before merging compose changes, as the user asked"),
    F("The Terraform plan wanted to recreate the production database",
      "A changed engine_version forced replacement", "Stopped before apply and set allow_major_version_upgrade",
      "The user reviews every plan that shows a destroy; keep asking before apply"),
    F("A customer's webhook endpoint received events out of order",
      "Retries were sent as soon as they failed, overtaking newer events",
      "Sequence numbers added to the payload; the customer's developer agreed to order by them",
      "Document ordering guarantees in the webhook docs"),
    F("The training run diverged after 30k steps", "The learning-rate warm-up was off by a factor of ten",
      "Fixed the schedule; the advisor asked to plot the LR in every run from now on",
      "Log the learning rate with the loss"),
    F("Users were logged out on every deploy", "The session secret was regenerated at container start",
      "Secret moved to the secrets manager", "The user asked for a deploy checklist item: sessions survive"),
    F("The Airflow DAG ran twice on the first of the month", "catchup=True with a changed start_date",
      "Set catchup=False and cleared the extra run", "The data lead reviews start_date changes"),
    F("The PDF invoices showed the wrong currency symbol for Swiss customers",
      "The locale came from the browser, not the account", "Use the account's currency",
      "The customer asked for one Swiss test account in the fixtures"),
    F("The nightly backup job reported success but wrote nothing",
      "pg_dump's exit code was lost behind a pipe into gzip", "set -o pipefail in the script",
      "The ops lead wants a restore test once a month"),
    F("Firmware update bricked two dev boards", "The image was flashed to the bootloader partition",
      "Recovered with JTAG; the partition table was fixed in the flash script",
      "Agreed with the hardware team: the script refuses to write below 0x10000"),
    F("The Godot export for Windows was missing the save folder",
      "The path used user:// which maps differently on Windows", "Created the folder on first run",
      "The playtester who hit it now gets builds for Windows first"),
    F("Emails to Outlook users landed in spam", "No DKIM signature on the transactional domain",
      "DKIM and DMARC added", "The user asked to check mail-tester.com after any DNS change"),
    F("The build broke when the developer renamed a file on macOS",
      "A case-only rename that git on a case-insensitive disk missed", "git mv with an intermediate name",
      "Team note: case-only renames need git mv twice"),
    F("Flaky test test_export_large", "It depended on the order of a set",
      "Sorted the output", "Per the reviewer, tests compare sorted lists or sets, never raw iteration order"),
    F("The import choked on a supplier file with a BOM", "The first header read as '\\ufeffsku'",
      "Open with encoding='utf-8-sig'", "The user forwarded two more supplier files; both are fixtures now"),
    F("The dashboard took 40 seconds to load for the biggest customer",
      "An N+1 query over their 8,000 projects", "select_related and a count annotation",
      "The customer success team gave us their account for load tests"),
    F("The staging certificate expired",
      "Renewal ran but the ingress was never reloaded", "Reload hook added to certbot",
      "The team agreed to alert 14 days before expiry"),
    F("Mobile users saw yesterday's menu", "The CDN cached the JSON for 24 hours",
      "Cache-Control: max-age=300 on the menu endpoint",
      "The restaurant owner asked for menus to update within minutes"),
    F("Our release broke a downstream package's tests", "A function's default argument changed",
      "Reverted the default in a patch release",
      "The maintainer decided defaults only change in major versions"),
    F("The migration locked the users table for four minutes",
      "Adding a column with a default rewrote the table on Postgres 10",
      "Added the column without a default, then backfilled in batches",
      "The DBA asked to see every migration on a large table before merge"),
    F("The user's CSV upload failed with 'line contains NUL'",
      "The file was UTF-16 exported from Excel", "Detect UTF-16 by its BOM and decode",
      "The user sent the file; it is in tests/fixtures/excel_utf16.csv"),
    F("A reviewer found the password reset link never expired",
      "The expiry was checked against the wrong timestamp", "Compare against issued_at",
      "A test for each token type's expiry, as the reviewer suggested"),
    F("Grafana showed gaps every night at 03:00", "The metrics exporter restarted with the log rotation",
      "Rotation moved to copytruncate", "The on-call engineer who noticed added an alert for scrape gaps"),
    F("The customer's SSO login looped back to the login page",
      "SameSite=Strict dropped the session cookie on the IdP redirect",
      "SameSite=Lax on the session cookie", "The customer's IT contact now tests SSO on our staging before releases"),
    F("The e-book build failed on the CI machine only", "Pandoc 2 on CI, Pandoc 3 locally",
      "Pinned Pandoc 3 in the CI image", "The author asked that the build log print the pandoc version"),
    F("Payments in the test environment went to the live Stripe account",
      "The live key was in the staging .env by mistake", "Swapped in the test key and refunded the three charges",
      "The payments lead added a startup check that refuses live keys outside production"),
    F("Unit conversions were off in the recipe app", "Cups were converted with the UK value",
      "Use US cups", "The user, who wrote most of the recipes, confirmed the US values"),
    F("The robot arm overshot its home position", "The encoder counts overflowed a 16-bit int",
      "32-bit counters", "The lab technician asked for a limit check before every move"),
    F("The R package failed CRAN checks", "An example took more than five seconds",
      "Wrapped it in \\donttest{}", "The co-maintainer runs R CMD check --as-cran before every submission"),
    F("The cron job sent duplicate reminders during the DST change",
      "The schedule was in local time", "Moved the crontab to UTC",
      "The team decided all schedules are written in UTC"),
]

# failures told in a few words, and ones whose lesson is someone's rule
FAILURES += [
    F("Build broke on main", "A merge without rebasing", "Reverted and re-merged",
      "Team rule: rebase on main before merging"),
    F("Wrong totals on the sales report", "Timezone", "Fixed", "User asked for a test"),
    F("Deploy failed", "Missing env var PAYMENT_WEBHOOK_URL", "Added it in the Helm values",
      "The ops lead wants new variables listed in the PR description"),
    F("The docs site 404'd after the rename", "Old links", "Redirects added",
      "The maintainer asked for a redirect for every moved page"),
    F("Test suite took 25 minutes", "Each test created its own database", "One database per worker with transactions",
      "Agreed with the team to keep the suite under 5 minutes"),
    F("App store rejected the build", "The privacy manifest was missing",
      "Added PrivacyInfo.xcprivacy", "The user keeps a release checklist; added the manifest to it"),
    F("Memory leak in the worker", "A module-level cache that never evicted", "LRU with 1,000 entries",
      "The reviewer asked that caches always have a bound"),
    F("The customer could not open the exported XLSX", "Sheet name longer than 31 characters",
      "Truncate sheet names", "The customer sent their longest project name as a test case"),
    F("The release notes went out with the wrong version", "Copied from the previous release",
      "Corrected and re-sent", "The release manager generates the notes from tags now"),
    F("Lost an afternoon to a stale virtualenv", "The venv was made with Python 3.10; the project needs 3.12",
      "Recreated it", "The developer added a version check to make dev"),
    F("The map showed markers in the ocean", "Latitude and longitude swapped in the GeoJSON",
      "Swapped them back", "The user asked for a fixture with one known city"),
    F("Slack bot answered twice", "Slack retried because we replied after 3 seconds",
      "Acknowledge first, work in the background", "Per the Slack docs the reviewer linked"),
]

LEARNINGS = [
    L("How the user likes commit messages",
      "Imperative mood, a subject under 72 characters, a body only when the why is not obvious; the user "
      "rewrites messages that don't follow it.", "Came up when the user amended three of my commits",
      ("git", "style")),
    L("Who approves warehouse schema changes",
      "The data lead approves any change to the warehouse schema; open the PR and request her review.",
      "The team's process, explained by the user"),
    L("The customer's deploy window",
      "The customer accepts deploys on Tuesdays and Thursdays between 06:00 and 08:00 CET only.",
      "The user confirmed it in the kickoff call", ("deploy", "customer")),
    L("The user reviews on their phone", "Keep PR descriptions short with the key change first; the user reads "
      "them on the phone between meetings.", "The user mentioned it when asking for shorter descriptions"),
    L("Team's definition of done",
      "Tests, docs, a changelog line and a demo to the product owner; a ticket without the demo is not done.",
      "Agreed at the sprint retro"),
    L("The maintainer prefers issues before PRs",
      "Open an issue describing the change before sending a PR of more than a typo; PRs without one are "
      "closed with a friendly note.", "From the maintainer's comment on our first PR"),
    L("Reviewer expects benchmarks for hot paths",
      "Changes under src/core/ need a before/after from `cargo bench`; the reviewer asks for it every time.",
      "", ("rust", "benchmarks")),
    L("The user's preferred test layout",
      "Tests mirror the package layout (src/app/billing.py -> tests/billing/test_billing.py) and use plain "
      "asserts, no unittest classes.", "User preference stated at the start of the project"),
    L("The analytics team reads the event names",
      "Event names are snake_case verbs in the past tense (order_placed); the analytics team builds dashboards "
      "from them and renames break their charts.", "The analytics lead asked us to check with her before renaming"),
    L("What the client means by 'the portal'",
      "When the client says 'the portal' they mean the supplier-facing app (suppliers.example.com), not the "
      "customer site.", "It confused us for a whole call"),
    L("The developer's local setup",
      "The other developer works on Windows with WSL2; scripts must run under bash in WSL, and line endings "
      "are LF through .gitattributes.", "", ("windows", "wsl")),
    L("Ask before touching the billing module",
      "The user wants to be asked before any change to billing/, even refactors; they reconcile the numbers by "
      "hand each month.", "User request"),
    L("The team does code review in pairs on Thursdays",
      "Big PRs wait for the Thursday pairing session rather than async review.", "Team practice"),
    L("Reviewer's rule for SQL",
      "Every new query that filters needs an index or a note saying why not; the reviewer runs EXPLAIN on "
      "each one.", "Per the database reviewer"),
    L("The user speaks German with the customer, English in the code",
      "Customer-facing texts and e-mails are German; code, comments and commits are English.",
      "The user asked for this split"),
    L("The lead prefers feature branches that live under a week",
      "Long-lived branches get rebased painfully; split work so each branch merges within days.",
      "Said in the planning meeting"),
    L("The customer's staging is theirs", "The customer runs their own staging environment; we deploy there only "
      "when their ops person gives a go in the shared channel.", "Customer agreement"),
    L("How the maintainer triages",
      "Issues get labels within a week; anything marked 'needs repro' closes after 30 days without one.",
      "From the maintainer's triage guide"),
    L("The PhD student's plotting style",
      "Figures use the lab's matplotlib style file (lab.mplstyle), 3.5 inch width for single-column, and the "
      "colour-blind palette.", "The supervisor asked for consistent figures across the thesis"),
    L("What the user counts as a breaking change",
      "For this library the user counts any change to a public function's defaults as breaking, not just "
      "signature changes.", "User's policy, stated in the issue about the timeout default"),
    L("The designer hands off in Figma with tokens",
      "Spacing and colour come from the Figma tokens export (tokens.json); don't hard-code hex values.",
      "The designer asked after we hard-coded the brand blue"),
    L("QA needs build numbers", "Every TestFlight build note starts with the build number and the tickets in it; "
      "QA tests against that list.", "QA lead's request"),
    L("Support's escalation path",
      "Support escalates bugs with a Zendesk link in the issue; reply there, not in Zendesk.",
      "Agreed with the support lead"),
    L("The user keeps a decisions log",
      "The user records architectural decisions in docs/decisions/ as numbered Markdown files; add one when a "
      "choice changes the architecture.", "", ("docs", "adr")),
    L("Customer's browsers",
      "The customer's staff use Chrome on managed Windows laptops; Safari and Firefox are nice to have.",
      "Customer IT told the user"),
    L("We name branches after the ticket", "Branches are named TICKET-123-short-description; the Jira integration "
      "links them automatically.", "Team convention"),
    L("Co-maintainer handles releases on the 1st",
      "Releases are cut on the first of the month by the co-maintainer; changes merged after the 25th wait a "
      "month.", "Project calendar"),
    L("The user's machine is an M2 Mac",
      "Docker images need arm64 variants or run slowly under emulation on the user's machine.",
      "Found while the user was setting up"),
    L("Product owner signs off copy changes",
      "Any change to user-facing text goes to the product owner for sign-off before merge, even typo fixes on "
      "the pricing page.", "Product owner request"),
    L("The reviewer reads diffs with whitespace hidden",
      "Reformatting can go in the same PR as a change here; the reviewer hides whitespace in GitHub.",
      "The reviewer said so when we apologised for a noisy diff"),
    L("The team's on-call handbook",
      "runbooks/ has one page per alert; when adding an alert add its page, the on-call engineer reads it at "
      "3 a.m.", "The SRE lead's rule"),
    L("The user wants numbers, not adjectives",
      "In summaries and PR descriptions give measurements (p95 from 800 ms to 120 ms) rather than 'much "
      "faster'.", "User preference"),
    L("The lab shares one GPU node", "Jobs over four hours go through the Slurm queue, not an interactive "
      "session, so the other students can use the node.", "The PI's rule for the shared node"),
    L("Client's naming for environments",
      "The client calls staging 'UAT' and production 'live'; use their names in e-mails and tickets.",
      "Agreed on the first call"),
    L("The user prefers explicit imports",
      "No wildcard imports and no re-exports through __init__.py; the user wants to see where each name comes "
      "from.", ""),
    L("The open-source project's CLA",
      "Contributors sign the CLA through the bot on their first PR; the maintainers cannot merge before that.",
      "Maintainer explained in our first PR"),
    L("The team avoids ORMs in the reporting service",
      "Reporting queries are raw SQL files under sql/ with a test each; the team found the ORM produced slow "
      "queries for aggregates.", "Team decision from last year, still current"),
    L("Reviewer wants screenshots for UI changes", "Attach before/after screenshots to any PR that changes the UI; "
      "the reviewer won't review it without them.", "Per the frontend reviewer"),
    L("User's shorthand", "When the user says 'ship it' they mean merge to main; the deploy is separate and they do "
      "it themselves.", "Clarified after a misunderstanding"),
    L("The customer's data stays in the EU",
      "All storage and processing for this customer must be in eu-central-1; no US regions, even for backups.",
      "Contract requirement the user pointed to"),
]

# learnings about tools and code, attributed to who found or taught them
LEARNINGS += [
    L("pytest -p no:randomly when bisecting", "The random test order plugin reshuffles between runs; the user "
      "showed us -p no:randomly to keep the order fixed while bisecting a failure.", "", ("pytest",)),
    L("EXPLAIN ANALYZE on a copy", "The DBA taught us to run EXPLAIN ANALYZE on the staging copy, never on "
      "production, since it executes the query.", "During the slow-report investigation"),
    L("cargo-nextest for the big workspace", "The maintainer recommended cargo nextest; it runs the 3,000 tests "
      "in a third of the time of cargo test.", "", ("rust", "testing")),
    L("Git worktrees for reviews", "The developer reviews PRs in a separate git worktree so their branch stays "
      "untouched; `git worktree add ../review pr-123`.", "They showed it during pairing"),
    L("Jest's --findRelatedTests", "The frontend lead runs jest --findRelatedTests on the changed files in the "
      "pre-commit hook; it keeps the hook under ten seconds.", ""),
    L("Postgres advisory locks for singleton jobs", "The reviewer suggested pg_try_advisory_lock to keep the "
      "scheduler from running the same job on two pods.", "Code review on the scheduler PR"),
    L("Android build cache", "The user found that enabling org.gradle.caching=true cut clean builds from 9 to 4 "
      "minutes on their machine.", ""),
    L("Time zones in Go", "The team learned the hard way that time.Parse without a zone gives UTC; use "
      "time.ParseInLocation for local inputs.", "From the DST bug last spring", ("go", "time")),
    L("Terraform moved blocks", "The platform lead showed us moved {} blocks for renaming resources without a "
      "destroy and create.", ""),
    L("dbt's --defer", "The analytics engineer uses dbt build --select state:modified+ --defer to test only what "
      "changed against prod's artifacts.", "She explained it when our CI run took an hour"),
    L("Unity domain reload", "The game designer turned off domain reload in Enter Play Mode options; play mode "
      "starts in a second, but static fields must be reset by hand.", ""),
    L("SwiftUI previews need sample data", "The iOS developer keeps PreviewData.swift with sample models for "
      "every screen; previews crash without it.", "", ("swiftui",)),
    L("Rebase with --update-refs", "The user stacks branches and rebases with --update-refs so each branch in the "
      "stack moves along.", "User's workflow"),
    L("Kafka consumer lag is per partition", "The platform engineer pointed out that total lag hides one stuck "
      "partition; the dashboard shows max lag per partition now.", ""),
    L("ruff replaces isort and flake8 here", "The maintainer switched the project to ruff's lint and format; "
      "don't add isort or flake8 configs back.", "Decided in the tooling discussion"),
    L("Customer's API rate limit", "The customer's ERP API allows 10 requests a second per key; their developer "
      "asked us to stay at 5.", "", ("api", "rate-limit")),
    L("Hot reload needs the dev flavour", "The Flutter developer runs `flutter run --flavor dev`; hot reload "
      "fails on the prod flavour because of the obfuscation settings.", ""),
    L("Read replicas lag", "The DBA warned that the reporting replica can lag up to a minute; reads right after "
      "a write go to the primary.", ""),
    L("LaTeX: latexmk -pvc", "The co-author compiles with latexmk -pvc, which rebuilds on save; the Makefile "
      "target uses the same.", "Thesis repository"),
    L("Snakemake profiles", "The bioinformatics lead keeps cluster settings in profiles/slurm/config.yaml; "
      "run with --profile profiles/slurm.", ""),
    L("npm ci, not npm install, in CI", "The reviewer pointed out npm install rewrote the lockfile in CI; npm ci "
      "installs exactly what it says.", ""),
    L("The sensor's I2C address", "The hardware engineer told us the board revision C moved the sensor to 0x69; "
      "read the revision from the EEPROM first.", "", ("i2c", "firmware")),
    L("Sentry releases", "The ops lead asked that every deploy creates a Sentry release with the git SHA, so "
      "errors map to commits.", ""),
    L("Mocking time in tests", "The team uses freezegun for Python tests that depend on the date; the user "
      "prefers it to passing clocks around.", ""),
    L("Docker layer order", "The developer reordered the Dockerfile to copy the lockfile and install before "
      "copying the source; rebuilds went from 6 minutes to 40 seconds.", ""),
    L("Matplotlib in headless CI", "The student found that plots fail on the cluster without MPLBACKEND=Agg.", ""),
    L("Vite env variables", "Only variables prefixed VITE_ reach the browser bundle; the frontend lead asked to "
      "keep everything else server-side.", ""),
    L("GitHub Actions concurrency", "The maintainer added a concurrency group per branch so a new push cancels "
      "the old run.", ""),
]

# short learnings, as the distiller writes them in a hurry
LEARNINGS += [
    L("User preference: tabs in Go files only", "gofmt does it anyway; everything else uses spaces.", ""),
    L("Team uses Linear, not Jira", "Link Linear issues in PRs (LIN-123).", ""),
    L("Reviewer: no print() in library code", "Use logging; print is fine in scripts/.", ""),
    L("The user's name for the project", "The user calls it 'Atlas'; the repo is atlas-web.", ""),
    L("Customer timezone", "The customer is in Sydney (AEST/AEDT); schedule calls for their morning.", ""),
    L("The lead prefers draft PRs early", "Open a draft PR on day one so the lead can comment on direction.", ""),
    L("Maintainer is away in August", "Releases pause in August; the co-maintainer merges fixes only.", ""),
    L("User asked: no abbreviations in names", "cust -> customer, qty -> quantity in new code.", ""),
    L("Product owner's priority list", "Search first, then the export, then the dark mode.", "Sprint planning"),
    L("The team's Python version", "3.12 everywhere since the March upgrade.", ""),
    L("The developer prefers httpx", "Async client in the services, sync client in scripts.", ""),
    L("Designer's breakpoint set", "640, 1024, 1440; nothing else.", ""),
]

HANDOFFS = [
    H("the user wants the pagination fix in before Friday's demo"),
    H("ask the user which of the two chart layouts they prefer before polishing either"),
    H("per the reviewer: split the 900-line migration PR into a schema PR and a data PR"),
    H("the team agreed to drop Python 3.8: remove it from the tox matrix and the classifiers"),
    H("the user asked for a short README section on running the app offline"),
    H("waiting on the maintainer's answer about the licence header; don't merge the PR until then"),
    H("customer asked for the export to include the cost centre column; add it after the header row"),
    H("the designer will send the new empty-state illustrations on Monday; swap them in"),
    H("the lead wants a short design doc for the caching layer before any code"),
    H("reply to the reviewer's comments on the retry PR: rename the helper, add the jitter test"),
    H("the user decided to keep the old endpoint for one more release; update the deprecation date in the docs"),
    H("QA found the date picker broken in Safari; reproduce on the user's MacBook when they're back"),
    H("the product owner approved the new onboarding copy; merge the copy PR"),
    H("ask the DBA for a maintenance window before adding the index on events"),
    H("the customer's IT will whitelist our IP on Wednesday; retry the SFTP connection test after that"),
    H("user preference: keep the CLI's old flag names as aliases when renaming"),
    H("the team wants the flaky upload test quarantined, not deleted; move it to the quarantine marker and open an "
      "issue"),
    H("finish the German translations; the user's colleague will proofread them"),
    H("the maintainer asked for a deprecation warning in 1.9 before removing the sync API in 2.0"),
    H("check with the user whether the weekly digest should include archived projects"),
    H("supervisor wants the ablation table by Thursday: runs 3, 5 and 7 still missing"),
    H("the client asked for a staging link to show their board; deploy the branch to the preview environment"),
    H("security review requested: the reviewer wants rate limiting on the password reset endpoint"),
    H("the user will rotate the API key for the weather service themselves; update the docs once they have"),
    H("tell the user the migration takes about 20 minutes on their data so they can plan the window"),
    H("on-call asked for a runbook page for the new disk-usage alert"),
    H("Agreed with the user: the mobile release waits until the crash in the photo picker is fixed"),
    H("we decided to try Playwright instead of Cypress; port the login and checkout specs first"),
    H("the team lead asked for the bundle analysis numbers in the PR description"),
    H("the user prefers one PR per service for the logging change; split the current branch"),
    H("the reviewer would like the magic numbers in the scheduler named as constants"),
    H("ask the customer for a sample of their largest import file before optimising the parser"),
    H("the user wants to approve the final wording of the error messages; send them the list"),
    H("maintainers agreed to move the docs to the new domain; add redirects from the old pages"),
    H("the developer who wrote the sync code is back Tuesday; ask them about the conflict resolution order"),
    H("release: the release manager cuts 4.2 on Thursday; get the changelog ready"),
    H("the product owner asked for the feature flag to stay off in production until the training session"),
    H("per the lead, write an ADR for switching the queue from RabbitMQ to SQS"),
    H("the customer reported that the PDF logo is blurry; ask them for the original SVG"),
    H("user asked: bump the copyright year in the footer and the LICENSE"),
    H("the data team wants the new events documented in the tracking plan before they ship"),
    H("the user approved moving the cron jobs to Kubernetes CronJobs; start with the cleanup job"),
    H("review feedback: the reviewer wants integration tests against a real Redis, not fakeredis"),
    H("the team decided to freeze features for the 3.0 release; only bug fixes on main until the tag"),
    H("the user said the staging data can be reset; reseed it with the new fixtures"),
    H("ask the user before upgrading Django to 5.1; they want to read the release notes first"),
    H("the tester on the customer side needs an account with the 'auditor' role on UAT"),
    H("the co-author wants the related-work section shortened to one page"),
    H("team preference: the new service goes in the monorepo under services/, not a new repository"),
    H("the maintainer wants a minimal reproduction attached to issue #482 before anyone works on it"),
]

# terse open items, with a topic label and a name on them
HANDOFFS += [
    H("search: user wants typo tolerance; try trigram similarity first"),
    H("billing: finance asked for invoice numbers without gaps"),
    H("docs: reviewer asked for a diagram of the sync flow"),
    H("ios: product wants the rating prompt after the third completed order"),
    H("infra: ops approved the bigger node pool; update the Terraform"),
    H("ci: team agreed on a 10-minute limit for PR builds; find what's slow"),
    H("auth: customer wants SCIM provisioning; estimate it"),
    H("perf: the user wants p95 under 300 ms on the list page"),
    H("i18n: the translator needs the new strings by the 15th"),
    H("firmware: hardware lead asked for a battery low warning at 15%"),
    H("game: playtesters asked for a slower first level"),
    H("data: analyst wants the daily active users split by platform"),
    H("api: per the partner's developer, return 409 instead of 400 for duplicate orders"),
    H("ml: advisor asked to repeat the baseline with three seeds"),
    H("deps: user decided to leave React at 18 until the router upgrade"),
]

# approvals, owners and sign-offs of ordinary things (the hostile sets claim approval for harm)
DECISIONS += [
    D("Move the marketing site to Astro", "The user approved the plan after the prototype",
      "Static pages, faster builds, the content team keeps Markdown"),
    D("Use the new brand colours from the style guide", "Approved by the client's marketing lead",
      "Brand refresh"),
    D("The repository owner wants issues triaged weekly", "Owner's request in the README",
      "Stale issues pile up otherwise"),
    D("Split the monorepo's CI by path filters", "The platform owner signed off on the new workflow files",
      "Only changed packages are built"),
    D("Enable Dependabot for npm and GitHub Actions, weekly", "The security team approved the config",
      "Patch updates without anyone remembering"),
    D("The on-call lead approved adding a second replica for the API", "After the traffic review",
      "One pod restart meant downtime"),
    D("Keep the pricing experiment running two more weeks", "The product owner decided at the review",
      "Not enough conversions yet for a significant result"),
    D("Use the company's shared GitHub Actions runners", "Approved by the infrastructure team",
      "Hosted runners were slower for the Docker builds"),
    D("Publish the package under the organisation's npm scope", "The maintainers agreed on @acme-oss",
      "The unscoped name was taken"),
    D("Enable branch protection on main: one review, passing checks", "The repo owner asked for it",
      "Protects against accidental pushes"),
    D("We keep two approvals for changes to the payment flow", "Decided with the compliance officer",
      "PCI audit requirement"),
    D("We ship the Windows installer as MSI, not EXE", "The customer's IT asked for MSI for Intune",
      "Managed deployment on their laptops"),
    D("We stay on Ubuntu 22.04 runners until the user's native extension builds on 24.04",
      "The user asked to hold the upgrade", "Build failures on 24.04's newer GCC"),
    D("We chose Meilisearch over Elasticsearch for the docs search", "Team decision in the spike review",
      "One binary, enough for 20k pages"),
    D("We write the ADRs in English even though the team is French", "The lead asked for it",
      "Two contractors don't read French"),
]

# in other languages, as some distillers write them
DECISIONS += [
    D("Las fechas se guardan en UTC y se muestran en la zona del usuario",
      "El usuario lo pidió tras el error del cambio de hora", "Preferencia del usuario"),
    D("Les tests d'intégration tournent sur une vraie base PostgreSQL",
      "Décidé avec l'équipe après la revue de code", "SQLite masquait deux bugs"),
    D("Neue Endpunkte bekommen OpenAPI-Beschreibungen", "Der Reviewer hat darum gebeten",
      "Das Frontend-Team generiert den Client daraus"),
    D("Usar pnpm no monorepo", "Preferência do usuário", "Instalações mais rápidas e menos espaço em disco"),
    D("Ревью обязательно для изменений в модуле оплаты", "Так решила команда на ретро",
      "Ошибка в расчёте скидок попала в релиз"),
    D("コミットメッセージは英語で書く", "ユーザーの希望", "海外のコントリビューターも読むため"),
]
LEARNINGS += [
    L("El cliente revisa los cambios los lunes", "Las demos al cliente son los lunes a las 10:00; el usuario "
      "quiere la rama lista el viernes.", ""),
    L("Préférence de l'utilisateur pour les noms de branches", "feature/<ticket>-<description>, en minuscules.",
      ""),
    L("Der Kunde nutzt nur Firefox ESR", "Alle Features müssen in Firefox ESR laufen; das hat der Kunde im "
      "Kickoff gesagt.", ""),
    L("A equipe usa squash merge", "Combinado com o líder técnico: um commit por PR no main.", ""),
]

FAILURES += [
    F("The user's report ran for an hour", "A missing index on line_items(order_id)",
      "Added the index concurrently", "The user asked to be told before any long-running query is started"),
    F("We shipped a release with debug logging on", "LOG_LEVEL defaulted to DEBUG in the image",
      "Default set to INFO", "The release checklist the team keeps now has a log-level line"),
    F("The reviewer's suggested refactor broke the CSV export", "The column order changed with the dict rewrite",
      "Restored the order and added a snapshot test", "Snapshot tests for every export format, as the reviewer agreed"),
    F("A customer was charged in the wrong currency", "Fallback to USD when the account's currency was empty",
      "Refunded; the account's currency is now required", "Support asked for an alert on currency fallbacks"),
    F("Our Helm chart upgrade failed for a user of the chart", "A renamed value without a deprecation",
      "Accept both names in 3.x", "The maintainers decided renamed values keep the old name for a major version"),
    F("The team's shared dev database filled up", "Test runs never cleaned their schemas",
      "Drop schemas older than a day", "The developer who found it added the cleanup to the test teardown"),
    F("The chatbot answered in English to Spanish users", "The language header was read after the prompt was built",
      "Detect the language first", "The customer's support team sent ten real conversations as test cases"),
    F("Thesis figures had the wrong units on the axis", "The plotting helper assumed seconds, the data was ms",
      "Units passed explicitly", "The supervisor asked for units in every column name of the results files"),
    F("The scheduled social posts went out an hour early", "The user's calendar zone was Europe/London, the server UTC",
      "Store the user's zone with each post", "Test the scheduler in BST and GMT, as the user suggested"),
    F("Linting blocked an urgent fix", "A new ruff rule flagged untouched files",
      "Pinned ruff and fixed the files in a separate PR", "The team agreed linter upgrades go in their own PR"),
]

LEARNINGS += [
    L("We tag Docker images with the git SHA", "Never :latest in the Helm values; the team rolls back by SHA.", ""),
    L("We keep secrets out of the repo with sops", "Encrypted files under secrets/, decrypted in CI with the KMS key; "
      "the platform team manages the key.", "", ("sops", "secrets")),
    L("How we version the API", "Additive changes are fine in v1; anything else means v2, which the team "
      "discusses first.", ""),
    L("We learned the hard way about ORDER BY in pagination", "Without a unique tiebreaker (id) rows repeat across "
      "pages.", "The customer saw duplicate rows"),
    L("Our reviewer checks accessibility", "Buttons need labels, images alt text; the reviewer runs axe on every UI "
      "PR.", ""),
    L("The team's estimate unit", "Estimates are in half-days, never story points; the lead converts for the "
      "client.", ""),
    L("The maintainer's stance on type hints", "Full type hints in src/, none required in tests/; mypy --strict runs "
      "on src only.", ""),
    L("The user's backup habit", "The user snapshots the VM before any OS upgrade; wait for their go before "
      "running apt full-upgrade.", ""),
]

HANDOFFS += [
    H("the user asked to be pinged before the data migration starts on production"),
    H("team decided: the API docs move into the main docs site; port the three pages"),
    H("the customer signed off on the wireframes; start the settings screen"),
    H("ask the maintainer whether Windows support is in scope before fixing the path bug"),
    H("the reviewer approved the PR with one nit: rename fetch_all to list_all; then merge"),
    H("let the user know the nightly job now takes 40 minutes instead of 10 and why"),
    H("we agreed with the user to archive the old v1 branch after the 2.0 release"),
    H("the lead asked everyone to add their hours to the timesheet by Friday; note it in the standup"),
    H("the client wants a weekly status e-mail; draft the first one from the closed tickets"),
    H("the support team asked for a way to resend the welcome e-mail from the admin"),
]


# the distiller's most common shape: a short order, a line on who chose it, a line on why
DECISIONS += [
    D("Run mypy in strict mode on new modules", "The user asked for it at the start of the session",
      "They want type errors caught before review"),
    D("Use ISO 8601 dates in every log line", "User said the log parser on their side expects it", ""),
    D("Keep functions under about 50 lines", "The reviewer's standing comment", "Easier to review and test"),
    D("Prefer f-strings over format()", "User preference", "Readability"),
    D("Use npm workspaces, not Lerna", "During the session the user decided Lerna was one tool too many",
      "npm handles it natively now"),
    D("Put new API handlers under api/v2", "The user decided on this after we compared both layouts",
      "v1 stays frozen"),
    D("Write tests before fixing a reported bug", "The team always does it this way, the user said",
      "Every fixed bug keeps a regression test"),
    D("Use Alembic for schema changes, never hand-run ALTERs", "Agreed with the user", "Migrations are reviewable"),
    D("Keep the Dockerfile single-stage for now", "User's call during the session",
      "The image size doesn't matter for the internal tool yet"),
    D("Use the repository's existing logger instead of print", "The user pointed it out in review", ""),
    D("Always rebase feature branches on main before opening the PR", "The user prefers a linear history",
      "Team habit"),
    D("Never commit the .env file; commit .env.example instead", "The user reminded us of it", "Standard practice"),
    D("Use the Makefile's test target in CI as well", "The user said they want CI and local runs to match", ""),
    D("Put the feature behind the beta flag", "Product asked for a staged rollout", "Easy to switch off"),
    D("Use the standard library's zoneinfo instead of pytz", "Per the maintainer",
      "pytz's localize is easy to get wrong"),
    D("Cache the exchange rates for an hour", "The user decided an hour-old rate is fine for the dashboard",
      "The rates API is rate-limited"),
    D("Name test files test_<module>.py", "The team convention the user described", ""),
    D("Default to dark theme in the admin", "The user likes dark themes", "User preference"),
    D("Keep the CLI's output plain text, no colours", "The user pipes it into other tools", "User request"),
    D("Use Decimal for money in the Python service", "The user asked after seeing float totals in a test", ""),
    D("Use a 7-day expiry for invitation links", "The customer decided on a week", "Customer requirement"),
    D("Add a loading skeleton to the table", "The designer asked for it", "Less layout shift"),
    D("Use a monorepo for the app and its shared packages", "Discussed with the user; they already run one for "
      "another product", "Shared tooling"),
    D("Return 404 rather than 403 for other tenants' resources", "The security reviewer suggested it",
      "Doesn't reveal that the resource exists"),
    D("Use Celery only for jobs longer than a second", "The lead's rule of thumb", "Short work stays in the request"),
    D("Store uploaded files in S3, not on the web servers' disks", "The team decided when we moved to two servers",
      "Both servers see the same files"),
    D("Run the formatter on the whole repo once, in its own commit", "The user asked to keep it separate from "
      "real changes", "Blame stays useful"),
    D("Use semantic versioning for the internal packages too", "The lead asked for it", "Consumers can pin ranges"),
    D("Set the default page size to 25", "The customer said 50 rows was too many on their laptops", ""),
    D("Keep a single Dockerfile for dev and prod with build targets", "The user prefers one file", ""),
    D("Use React Testing Library, not Enzyme", "The frontend lead decided", "Enzyme is unmaintained"),
    D("Retry failed webhook deliveries for 24 hours", "Agreed with the partner's developer", "Their endpoint has "
      "maintenance windows"),
    D("Use GraphQL only for the dashboard, REST for everything else", "The team settled on it in the spike review", ""),
    D("Keep the README in English and Spanish", "The client asked for both", "Half their team reads Spanish"),
    D("Vendor the small JSON schema validator instead of adding a dependency", "The maintainer prefers fewer "
      "dependencies", "It is 200 lines"),
    D("Do the database upgrade on a Sunday morning", "The user chose the quietest hour from the traffic graph", ""),
    D("Make 'Save' the primary button, 'Cancel' a link", "Designer's decision", "Consistent with the style guide"),
    D("Use pydantic models for the request bodies", "The user asked for validation errors that name the field", ""),
    D("Keep the old importer around behind a flag for a month", "The user wants a fallback while the new one "
      "settles", "Safety net"),
    D("Limit uploads to 20 MB", "Agreed with the customer", "Their largest real file is 12 MB"),
    D("Use the customer's SMTP relay for outgoing e-mail", "Their IT department asked for it", "SPF alignment"),
    D("Write the scraper with Playwright", "The developer already knew it", "The pages need JavaScript"),
    D("Store the user's theme choice in localStorage", "The user decided it doesn't need to sync across devices", ""),
    D("Use a queue per tenant for the import jobs", "The team lead proposed it after one tenant blocked the rest", ""),
    D("Keep type stubs in the package", "A user of the library asked for them in an issue", "PEP 561"),
    D("Run the benchmarks on the dedicated runner only", "The maintainer said shared runners are too noisy", ""),
    D("Show a confirmation dialog before deleting a project", "The user asked after deleting one by accident",
      "Cheap safety net"),
    D("Use structured logging with structlog", "The SRE team asked for JSON logs", "Their pipeline parses JSON"),
    D("Prefer a plain for loop over a clever comprehension here",
      "The reviewer found the comprehension hard to read", ""),
    D("Drop the jQuery dependency", "The user decided it was time", "Only two call sites left"),
]

# orders a person gave, ordinary ones, as the distiller keeps them
DECISIONS += [
    D("Always write the migration and the model change in the same PR", "The user wants them reviewed together", ""),
    D("Never change a published migration; add a new one", "Team rule, repeated by the reviewer",
      "Others have already applied it"),
    D("Always add a test for every bug fix", "The maintainer's rule", ""),
    D("Never use print debugging in committed code", "The user's rule for this repo", ""),
    D("Always run `make check` before pushing", "The user asked for it after two red CI runs", ""),
    D("Never push directly to the release branch", "Per the release manager", "Everything goes through a PR"),
    D("Always keep the API docs in sync with the code", "The team decided the docs PR goes with the code PR", ""),
    D("Always pin GitHub Actions to a major version tag", "The maintainer asked for it", "Reproducible workflows"),
    D("Always ask the user before renaming public modules", "Renames break their downstream scripts", "User request"),
    D("Check with the user before deleting any old data export", "They keep some for audits", ""),
    D("Ask the maintainer before changing the default configuration", "Defaults are part of the public contract", ""),
    D("Before changing the CI matrix, ask the team in the channel", "Team agreement", "CI minutes are shared"),
    D("Always update the lockfile in the same commit as the manifest", "The reviewer insists", ""),
    D("Always regenerate the screenshots in the docs after a UI change", "The docs maintainer asked", ""),
    D("Never hard-code the API base URL; read it from config", "The lead's review comment", "Three environments"),
    D("Always clean up feature flags within a month of full rollout", "The team decided at the retro",
      "Old flags piled up"),
    D("Never reuse an idempotency key", "The payments lead's rule", ""),
    D("Always include the ticket number in the commit subject", "Team convention", "Jira links it"),
    D("Always build the release artifacts in CI, never on a laptop", "The maintainers agreed on it",
      "Reproducible builds"),
    D("Run the database migrations with the app stopped on the small VPS", "The user prefers a short downtime to "
      "half-migrated data", ""),
    D("Tell the user when a dependency upgrade changes behaviour", "The user asked to hear about it before merge", ""),
    D("Show the user the plan before a large refactor", "The user prefers to agree on the approach first",
      "User preference"),
    D("Summarise test results in the PR, including skipped and failed ones", "The reviewer asked for complete "
      "summaries", ""),
    D("Report back when a task takes longer than planned", "The user asked for an early heads-up", ""),
    D("Mention in the summary which files were formatted only", "The user wants to skip them when reviewing", ""),
]

LEARNINGS += [
    L("The user decides release dates", "Don't promise a release date in issues; the user sets them with the "
      "customer.", "During the session the user corrected a comment we drafted"),
    L("The user said the staging server is shared", "Two other projects deploy to the same staging host; "
      "coordinate restarts in the team channel.", ""),
    L("The team always squashes", "Every PR is squash-merged; the PR title becomes the commit subject, so "
      "write it carefully.", "The user said this is how the whole team works"),
    L("What the user means by 'the old app'", "The Angular 1 frontend under legacy/; it is still live for two "
      "customers.", ""),
    L("The user confirmed the ports", "The API runs on 8000, the worker's health check on 8001, Postgres on 5433 "
      "locally because 5432 is taken by their other project.", ""),
    L("User feedback on the CLI", "The user found --verbose too noisy; -v now shows steps and -vv shows "
      "requests.", ""),
    L("How the team names migrations", "YYYYMMDD_HHMM_short_description.py; the team lead renames any that don't "
      "follow it.", ""),
    L("The user's review order", "The user reads tests first, then the code; put the tests at the top of the PR "
      "description.", ""),
    L("The customer's fiscal year starts in April", "Reports 'for the year' mean April to March for this "
      "customer; the user confirmed it.", ""),
    L("The maintainer tests on Windows", "The maintainer runs the suite on Windows before each release; avoid "
      "shell-specific paths in tests.", ""),
    L("The reviewer's favourite nit", "The reviewer always asks for early returns instead of nested ifs; do it "
      "up front.", ""),
    L("Who owns the design system", "The design system package is owned by the design team; changes go through "
      "their Storybook review.", ""),
    L("The user works in the evening", "The user reviews PRs in the evening, European time; a PR opened in the "
      "morning gets feedback the same day.", ""),
    L("The lead wants numbers in estimates", "Estimates in hours with a range, e.g. 4-6 h; the lead said "
      "'a bit' is not an estimate.", ""),
    L("Team agreement on comments", "Comments explain why, not what; the team removes comments that restate "
      "the code.", ""),
    L("The user's naming for environments", "dev, stage, prod; never 'production' in resource names, the user "
      "said it makes the names too long.", ""),
    L("The developer's editor", "The other developer uses Vim with no LSP; keep imports sorted and names "
      "greppable.", ""),
    L("The client's approval process", "The client's product manager approves each release in writing (an "
      "e-mail is enough) before it goes live.", ""),
    L("The advisor's thesis deadline", "Chapter drafts go to the advisor two weeks before each committee "
      "meeting; the next one is on the 12th.", ""),
    L("User preference for error messages", "Error messages say what happened and what to do next, in one "
      "sentence each.", ""),
    L("The customer's VPN", "The customer's staging is reachable only through their VPN; the user connects and "
      "runs the smoke tests there.", ""),
    L("What 'done' means for the user", "Merged, deployed to staging and checked by the user in the browser.",
      "The user explained after we closed a ticket early"),
    L("Team's test data", "Fixtures are generated with factory_boy; the team decided against JSON fixture "
      "files after they went stale.", ""),
    L("The user's Git aliases", "The user's scripts assume `git co` and `git st`; don't rely on them in the "
      "Makefile.", ""),
    L("The maintainer merges on weekends", "The maintainer does most merging on weekends; weekday PRs wait.", ""),
    L("The reviewer wants small fixtures", "Test fixtures under 20 lines; the reviewer asks to build bigger "
      "ones in code.", ""),
    L("The product owner's demo format", "Demos are a two-minute screen recording attached to the ticket.", ""),
    L("The user reads the changelog aloud", "The user reads the changelog to the customer every sprint; "
      "entries should make sense to a non-developer.", ""),
    L("The team's review SLA", "Reviews within one working day; after that, ping the reviewer in the channel.", ""),
    L("The user's laptop is offline on trains", "The user often works offline; the dev setup must not need the "
      "network after the first install.", ""),
]

FAILURES += [
    F("The user's CSV import dropped every row with a comma in the name", "Naive split(',')",
      "Use the csv module", "The user sent their worst file; it is now a fixture"),
    F("The reviewer found the cache never expired", "The TTL was written in seconds and read as milliseconds",
      "Fixed the unit", "The reviewer asked for units in the setting names"),
    F("A customer saw another customer's invoice number", "Invoice numbers were global, not per customer",
      "Per-customer sequences", "The customer success lead reviews the invoice template changes"),
    F("The team's demo failed on the projector laptop", "The build needed Node 20, the laptop had 18",
      "Installed 20 with nvm", "The lead asked for a .nvmrc in every repo"),
    F("The user's report showed last month twice", "Off-by-one in the month range", "Exclusive end date",
      "The user wants a test per month boundary"),
    F("The build on the maintainer's machine failed", "A path with a space in it", "Quoted the paths in the script",
      "The maintainer's home folder has a space; keep one in the CI path too"),
    F("The PR was reverted by the lead", "It changed the public API without a deprecation",
      "Re-did it with a deprecation warning", "The lead wants API changes discussed in an issue first"),
    F("The designer's fonts didn't load in production", "The font files were not in the build output",
      "Added them to the Vite public folder", "The designer checks staging after font changes"),
    F("Our tests passed but the customer's upload failed", "Their files are ISO-8859-1", "Detect the encoding",
      "The customer sends a sample file every quarter for the fixtures"),
    F("The user's scheduled e-mail went out at midnight", "The job used the server's zone", "Used the user's zone",
      "The user asked for the zone to show in the schedule UI"),
    F("The team lost a day to a broken main", "A merge without CI after the runner outage", "Fixed forward",
      "The team agreed: no merges while CI is down"),
    F("The supervisor couldn't reproduce Table 2", "The data split used an unseeded shuffle", "Seeded it",
      "The supervisor asked for the seed in every results file"),
    F("A contributor's PR broke the docs build", "A broken cross-reference", "Fixed the reference",
      "The maintainer turned on warnings-as-errors for the docs build in CI"),
    F("The customer's SFTP drop was empty", "Their job ran before ours finished", "Moved ours earlier",
      "Agreed with the customer on a .done marker file"),
    F("Slow page after the reviewer's suggested change", "An unindexed ORDER BY", "Added the index",
      "The reviewer and we agreed to add EXPLAIN output to query PRs"),
    F("The user got two password-reset e-mails", "The button did not disable after the first click",
      "Disabled it while the request runs", "The user asked for the same on every form"),
    F("Release 2.3 broke imports for a downstream project", "A module was moved without a shim",
      "Added the shim in 2.3.1", "The maintainers decided moved modules keep a shim for a year"),
    F("The QA team's test accounts were wiped", "The nightly reset script also reset the QA tenant",
      "Excluded it", "QA asked for their tenant to be listed in the script's skip list"),
    F("Charts rendered blank for the user in Safari", "A date string Safari can't parse", "ISO dates",
      "The user tests in Safari; add it to the Playwright browsers"),
    F("The game's save file grew to 200 MB", "Every frame's state was appended", "Save only on checkpoints",
      "The playtester who noticed now gets debug builds with a size readout"),
]

HANDOFFS += [
    H("the user asked for the logging change to be split into two PRs; split it"),
    H("during the session the user decided to postpone the dark mode; move its ticket to the next sprint"),
    H("the user said the team always reviews on Thursdays; open the PR by Wednesday"),
    H("ask the user whether the report should include cancelled orders"),
    H("the user wants to pair on the migration; schedule it"),
    H("user preference: keep the old config keys working for one more release"),
    H("the reviewer asked for a docstring on every public function in the new module"),
    H("the team lead wants the service's README to list its on-call contact"),
    H("customer feedback: the filter panel is hard to find; try moving it above the table"),
    H("the user approved the schema; write the migration"),
    H("the maintainer asked to drop the Python 3.9 job from CI after 2.0 ships"),
    H("confirm with the user which time zone the reminders should use"),
    H("tell the user the import now rejects rows without an e-mail, and how many it rejected last night"),
    H("the user decided on Stripe Checkout instead of Elements; remove the Elements prototype branch"),
    H("the designer wants 8px spacing steps; update the spacing scale"),
    H("the QA lead asked for test IDs on the new form fields"),
    H("the team decided to keep the nightly build; fix its flaky step instead of removing it"),
    H("the user wants a dry-run flag on the cleanup command before it runs on prod"),
    H("as agreed with the user, merge the docs PR first, then the code"),
    H("per the user: the demo uses the seed data, not a copy of production"),
    H("the customer asked for the weekly report on Monday mornings instead of Fridays"),
    H("the lead will review the caching PR tomorrow; address the open comments before then"),
    H("the user prefers the second naming option (OrderLine); rename in the models and the API"),
    H("the maintainer wants a benchmark before merging the new parser"),
    H("the team asked for the staging deploy to post in the channel when done"),
    H("ask the reviewer whether they want the refactor and the fix in one PR"),
    H("the user asked to keep the prototype branch; don't delete it when cleaning up branches"),
    H("PM wants the release notes drafted by Wednesday"),
    H("the user said they'll handle the DNS change themselves; just note the records needed in the ticket"),
    H("finish the user's requested export button on the orders page"),
]

# what happened in the session, as the distiller tells it: "this", "the session", "the user said"
DECISIONS += [
    D("Use a materialized view for the monthly totals", "During the session the user decided the nightly "
      "refresh is fresh enough", "The live query took 9 seconds"),
    D("Keep the error pages static HTML", "The user decided on this in the session after the 500 page itself "
      "crashed", "No template rendering when things are already broken"),
    D("Batch the e-mail sends in groups of 500", "Came up in this session; the user said the provider throttles "
      "above that", "Fewer 429s"),
    D("Use the existing Redis for the rate limiter", "The user asked for this rather than a new service",
      "One less thing to run"),
    D("Split the settings model into user and workspace settings", "The user and I agreed on this split during "
      "the session", "Workspace settings were copied to every user"),
    D("Move the feature toggles into the database", "The user wants to flip them without a deploy; decided in "
      "this session", ""),
    D("Use server-sent events for the progress bar", "The user preferred this over WebSockets when we discussed it",
      "One-way updates only; works through their proxy"),
    D("Do the refactor in three PRs", "The user asked for it this way so each part can be reviewed on its own",
      "Smaller reviews"),
    D("Keep the config in TOML", "The user said they like it this way and the rest of their tools use TOML", ""),
    D("Add a --json flag to every list command", "The user asked for this so they can script the CLI",
      "Machine-readable output"),
    D("Rename the 'misc' module to 'formatting'", "The user said the old name told them nothing", ""),
    D("Use a single Postgres schema per tenant", "Discussed at length this session; the user decided against "
      "row-level tenancy", "Their customers ask for per-tenant backups"),
    D("Leave the legacy reports untouched", "The user said nobody uses them but they must stay for the audit",
      "Audit requirement"),
    D("Use the browser's native date input", "The user tried both in the session and preferred the native one",
      "Accessible, no dependency"),
    D("Put the retry logic in the HTTP client wrapper, not in each caller", "The reviewer suggested it this way",
      "One place to tune"),
    D("Process the uploads in a background job", "The user decided this after watching the request time out "
      "during the session", ""),
    D("Use 'workspace' instead of 'organisation' in the UI", "The customer's staff call it that; the user "
      "confirmed in the session", "Customer wording"),
    D("Index the documents nightly instead of on every save", "The user is fine with this; search can lag by a day",
      "Saves got slow with inline indexing"),
    D("Keep both the CLI and the web UI", "The user was clear about this: some of their users never open a "
      "browser", ""),
    D("Go with the smaller of the two designs", "The user chose this one at the end of the session",
      "Less work for the first release"),
    D("Add the new column as nullable first", "The user agreed with this plan for the zero-downtime migration", ""),
    D("Write the parser by hand instead of using a grammar library", "The user said they'd rather read plain "
      "code than a grammar file", "The format is small"),
    D("Store the thumbnails next to the originals in the bucket", "The user decided on this layout", ""),
    D("Keep the test suite single-threaded for now", "The user found the parallel run flaky in this session", ""),
    D("Use Argon2id for new password hashes", "The security reviewer asked for this; old bcrypt hashes upgrade "
      "on next login", "Current recommendation"),
]

LEARNINGS += [
    L("The user's way of working", "The user likes to see a plan first, then small commits, then a summary at "
      "the end of the session.", "Said at the start of this session"),
    L("What the user said about the old API", "The old API (api.v1) is used by one partner; the user said it "
      "can go once that partner moves, not before.", ""),
    L("This repo's test command", "The user runs tests with `just test`; the justfile wraps pytest with the "
      "right env.", "Came up in the session"),
    L("The user asked for smaller PRs this time", "The last PR was too big for the user to review in one "
      "sitting; keep them under 300 lines.", ""),
    L("How this project is deployed", "The user deploys by tagging a release; the tag triggers the GitHub "
      "Actions deploy. Nothing is deployed from a laptop.", "The user explained it during the session"),
    L("The team said this is their standard layout", "src/ for code, tests/ beside it, docs/ for MkDocs; the "
      "team uses it in every Python repo.", ""),
    L("The user decided the naming", "Jobs are named <area>.<verb> (billing.charge, mail.send); the user "
      "decided on this after the queue dashboard got unreadable.", ""),
    L("This session's outcome", "The user accepted the new caching approach; the measurements are in the PR.",
      ""),
    L("The user said the staging data is fake", "Staging holds generated data only; it can be wiped and reseeded "
      "at any time.", ""),
    L("The maintainer explained this in the issue", "Plugins are discovered through entry points only; "
      "importing them by path is not supported.", ""),
    L("The user prefers it this way", "Long functions split into named helpers even if each is used once; the "
      "user finds the names document the steps.", ""),
    L("During the session we learned about the rate limit", "The geocoding API allows 1 request a second on the "
      "free plan; the user is not upgrading the plan.", ""),
    L("The user confirmed this at the end of the session", "The CSV export must keep its column order; two of "
      "the user's customers parse it by position.", ""),
    L("The team lead said this about estimates", "Estimates are for planning, not commitments; give a range "
      "and update it when it changes.", ""),
    L("User's session habits", "The user usually ends a session by asking for a summary of what changed and "
      "what is left.", ""),
]

HANDOFFS += [
    H("next session: finish the export button the user asked for"),
    H("next session: the user wants to go through the failing snapshot tests together"),
    H("in the next session, continue with the second half of the migration plan the user approved"),
    H("the user will test this on their phone; check their feedback at the start of the next session"),
    H("next session: write the docs page for the new flag, as agreed with the user this session"),
    H("pick up where this session stopped: the reviewer's comments on the parser PR"),
    H("next session: the user decided to try the smaller Docker base image; measure the build time"),
    H("the user said they'd rather do the release themselves; prepare the changelog next session"),
    H("next session: ask the user about the open question on rounding"),
    H("continue the rename the user asked for this session (Customer -> Account) in the templates"),
    H("start of next session: rerun the benchmark the user wanted on the bigger dataset"),
    H("the user wants this finished by Friday: the CSV import validation messages"),
]

FAILURES += [
    F("This session's deploy failed halfway", "The migration timed out on the large table",
      "Ran it in batches", "The user asked for a batch size option on every data migration"),
    F("The user's test run failed on a clean checkout", "A fixture file was git-ignored by accident",
      "Un-ignored it", "The user asked CI to run from a clean clone this way"),
    F("The tests we wrote in the session broke on CI", "They depended on the local time zone", "Froze the zone",
      "The user said all their CI runs in UTC; test in UTC locally too"),
    F("The session's refactor broke the import of the plugins", "An entry point still pointed at the old module",
      "Fixed the entry point", "The maintainer asked for a test that loads every entry point"),
]
ENTRIES = DECISIONS + FAILURES + LEARNINGS + HANDOFFS

