"""Independent judgements of the no-memory prompts of the three blind sets, one reader per set, each made
without seeing what recall returns. ``tests.eval.recall_blind``: for each prompt
labelled with no expected entry (``expected == []``, in ``PROMPTS`` and in the held-out part
``recall_blind_heldout.PROMPTS``, 31 prompts), which entries of the memory a developer starting
that prompt's task would want to see. It was made without seeing what recall returns for any prompt.

The question asked, of every candidate entry: "a competent developer starting exactly that task
would want to see it before starting: an entry that would change what they do, or warns of a mistake
they are about to make in that task. Not 'same topic words'; not 'vaguely related'. When unsure,
leave it out."

Candidates were every entry the prompt's session could be shown: the prompt's own project's
decisions, failures and learnings, and the general learnings of every project. One reader read each
candidate in full (summary, rationale or cause and prevention, tags), filler (``x-``, ``t-``) and
targets alike, on 2026-12-02.

Used to report noise apart from the original labels: an injection for a no-memory prompt of a key
listed here is a judged-useful entry, not noise, even though the label says the prompt needs none.

Keyed by (project, prompt): one prompt text, "Fix the typo in the README heading", is a no-memory
prompt of both billing-svc and handbook, and ``x-h4`` is a handbook entry that billing-svc never sees.

``tests.eval.recall_blind2`` (27 no-memory prompts) and ``tests.eval.recall_blind3`` (28) were judged
the same way and on the same day by two other readers, each with the same question, each reading every
candidate entry of a prompt's scope in full (tags and cues aside), neither seeing the others' answers.
"""

JUDGED = {
    "tests.eval.recall_blind": {
        # --- first part (recall_blind.PROMPTS) ---
        ("pantry", "Add a loading spinner to the wishlist screen"): [
            "x-p3",  # screens use the src/ui design-system components: take the spinner from there
        ],
        ("pantry", "rename the 'Favourites' tab to 'Saved'"): [
            "x-p5",  # whole-screen Jest snapshots break on any copy change: expect them to fail
        ],
        ("billing-svc", "Fix the typo in the README heading"): [],  # x-h4 is handbook's: never shown here
        ("handbook", "Fix the typo in the README heading"): [
            "x-h4",  # (handbook) an anchor is the heading's slug: a typo fix breaks links; pin {#id}
        ],
        ("billing-svc", "bump the go version to 1.23 in the dockerfile"): [
            "x-b6",  # a Go toolchain update broke the build on go.sum: run go mod tidy, verify in CI
        ],
        ("handbook", "write a new page about webhooks"): [
            "x-h2",  # every page needs a frontmatter description, used for SEO and the search snippet
        ],
        ("handbook", "make the footer links open in a new tab"): [],
        ("billing-svc", "write a unit test for the invoice number formatter"): [],
        ("pantry", "update the privacy policy link in settings"): [],
        # --- second part (recall_blind_heldout.PROMPTS) ---
        ("pantry", "Add a loading spinner to the checkout button"): [
            "x-p3",  # UI comes from the src/ui design-system components, the button's spinner too
        ],
        ("pantry", "Add dark mode colors for the onboarding screens"): [
            "x-p3",  # colours belong in the design-system components, not raw View styling
        ],
        ("pantry", "write tests for the unit conversion helper (cups to grams)"): [],
        ("pantry", "Change the app icon to the new logo"): [],
        ("pantry", "translate the settings screen to spanish"): [],
        ("pantry", "add a share button to recipes"): [
            "x-p3",  # the new button is a src/ui design-system component, not a raw styled View
        ],
        ("billing-svc", "Fix the typo in the error message for expired cards"): [],
        ("billing-svc", "add a field for the customer's VAT number to the invoice response"): [
            "b-d2",  # API changes start in the .proto (buf breaking in CI): add the field there first
        ],
        ("billing-svc", "update the CHANGELOG for the release"): [],
        ("billing-svc", "write a table driven test for the discount calculation"): [
            "x-b7",  # before tax, per line, rounded half-even: this sets the expected values
        ],
        ("billing-svc", "rename the package internal/util to internal/money"): [],
        ("billing-svc", "add a makefile target to run the linter"): [
            "x-b3",  # the README lists every make target: the new target goes in it too
        ],
        ("handbook", "Add a loading spinner to the search dialog"): [],
        ("handbook", "add a page explaining our pricing tiers"): [
            "x-h2",  # every page needs a frontmatter description, used for SEO and the search snippet
        ],
        ("handbook", "increase the font size of headings on mobile"): [
            "x-h1",  # moves every screenshot: redo baselines in the Linux container, not macOS
        ],
        ("handbook", "update the copyright year in the footer"): [],
        ("billing-svc", "review this function for readability"): [],
        ("pantry", "explain what a closure is in javascript"): [],
        ("handbook", "write a commit message for these changes"): [],
        ("pantry", "Add a loading spinner to the shopping list screen"): [
            "x-p3",  # screens use the src/ui design-system components: the spinner comes from there
        ],
        ("billing-svc", "add a database index on invoices.customer_id"): [
            "x-b10",  # CONCURRENTLY, in its own migration: a plain CREATE INDEX locked invoices
        ],
        ("handbook", "fix the broken test after renaming the sidebar component"): [],
    },
    "tests.eval.recall_blind2": {
        # ---- storefront-ops ----
        ("storefront-ops", "add a test for the order cancel endpoint"): [
            "x-so-41",  # statuses are django-fsm transitions: the test must cover refused transitions (cancel after
                # shipped) and the logged transition, not a free status write
        ],
        ("storefront-ops", "rename the Lieferant column in the supplier admin to Supplier"): [],
        ("storefront-ops", "bump django to 4.2.16"): [
            "so-l1",  # the lock must be recompiled with `make lock` in the Linux image; compiling it on a Mac pulls
                # macOS-only wheels
        ],
        ("storefront-ops", "fix typo in README setup section"): [],
        ("storefront-ops", "add some logging to the refund view"): [],
        ("storefront-ops", "migration adding a notes field to Customer"): [
            "x-so-18",  # GDPR erasure anonymizes the customer: a free-text notes field may hold personal data and
                # must be cleared by the anonymization too
        ],
        ("storefront-ops", "cache pip downloads in the github workflow"): [],
        ("storefront-ops", "new endpoint listing open orders for the scanner app"): [
            "so-d4",  # scanner devices authenticate with one hashed DRF token per device: the endpoint uses that
                # auth, not sessions or JWT
            "x-so-6",  # the API is versioned in the URL path and old scanner versions must keep working: where the
                # endpoint goes and what it must not break
        ],
        ("storefront-ops", "make the product list in the admin sortable by price"): [],
        # ---- thermo-fw ----
        ("thermo-fw", "add a unit test for the schedule parser"): [],
        ("thermo-fw", "bump embassy-executor to the latest"): [
            "x-fw-23",  # stable Rust only: the bump must not enable embassy's nightly features or need a nightly
                # toolchain
        ],
        ("thermo-fw", "rename tmp_c to temperature_c in the telemetry struct"): [
            "x-fw-1",  # temperatures are i16 centi-degrees in the firmware: `_c` may mean centi, so `temperature_c`
                # (Celsius) would mislabel the unit
        ],
        ("thermo-fw", "fix the clippy warnings in the display module"): [],
        ("thermo-fw", "update README flashing instructions for windows"): [
            "x-fw-31",  # first flash needs download mode (hold BOOT while plugging in USB): a step the instructions
                # must carry
        ],
        ("thermo-fw", "log a line whenever the relay switches"): [
            "x-fw-11",  # level rule: info in release, debug/trace dev only, and defmt strings cost flash; decides the
                # level of the new line
        ],
        ("thermo-fw", "show humidity on the home screen of the display"): [
            "x-fw-36",  # partial-update windows must be rotated with the layout through the one helper; a new
                # humidity field's window is exactly that
        ],
        ("thermo-fw", "ci: run cargo fmt --check as its own job"): [],
        ("thermo-fw", "add an mqtt command to reboot the device"): [
            "fw-d4",  # commands arrive at QoS 1, i.e. possibly twice: a reboot command must not be redelivered into a
                # reboot loop (ack before rebooting, dedupe)
            "x-fw-40",  # a reboot through the watchdog resets RTC memory: state that must survive has to be in NVS
                # before rebooting
        ],
        # ---- lakehouse ----
        ("lakehouse", "add an accepted_values test on order status"): [],
        ("lakehouse", "write column docs for fct_orders"): [
            "lk-d8",  # the agreed revenue definition (net of refunds and VAT, EUR at the order date's rate, at
                # shipment) is what the amount columns' docs must say
            "lk-d4",  # guest checkouts keep a null customer id on purpose: the customer id column's doc must say so
            "x-lk-25",  # dates are Europe/Berlin, timestamps UTC with a _utc suffix: the date and time columns' docs
                # must state it
        ],
        ("lakehouse", "bump dbt-snowflake to 1.8"): [
            "x-lk-23",  # dbt packages are pinned to exact versions: they must be bumped to versions that support dbt
                # 1.8 in the same change
        ],
        ("lakehouse", "new dag to load the hubspot export from s3"): [
            "lk-f3",  # start_date a fixed pendulum date with catchup=False, never datetime.now()
            "lk-f7",  # S3 sensors in mode="reschedule" or they hold MWAA worker slots
            "lk-f14",  # wait on the file prefix with a wildcard, not on a marker file the sender may stop writing
            "x-lk-26",  # no queries or network calls at DAG parse time
            "x-lk-35",  # COPY INTO skips files loaded in the last 64 days: reloads of a corrected export need FORCE
                # or a new name
            "x-lk-20",  # loads check row counts against the previous load and stop above three times: a new source
                # gets that check
            "lk-d1",  # loads run on LOAD_WH, one warehouse per workload
        ],
        ("lakehouse", "fix the typo in the readme about profiles.yml"): [],
        ("lakehouse", "add a discount_amount column to fct_orders"): [
            "lk-d8",  # amounts follow the finance definition (net of VAT, EUR at the order date's rate): decides how
                # discount_amount is computed
            "x-lk-21",  # orders is one of the only incremental models: a new column needs on_schema_change or a full
                # refresh to be filled
        ],
        ("lakehouse", "create a looker view for the returns table"): [
            "x-lk-25",  # dates are already Europe/Berlin and timestamps UTC (_utc): decides the dimension groups'
                # timezone conversion in the view
        ],
        ("lakehouse", "ci should only build changed models"): [],
        ("lakehouse", "log row counts in the load task"): [
            "x-lk-20",  # loads already compare row counts with the previous load (stop above 3x): the counts to log
                # are that check's, and it needs them kept
        ],
    },
    "tests.eval.recall_blind3": {
        # ---- stockroom ----
        ("stockroom", "add a test for the low stock email"): [
            # Stock is a ledger of StockMovement rows and the editable quantity field is gone:
            # the test must create movements to reach low stock, not set a quantity.
            "s-d2",
        ],
        ("stockroom", "fix the typo in the order confirmation template, it says 'recieved'"): [],
        ("stockroom", "bump django to 4.2.16"): [],
        ("stockroom", "add sku to the orders csv export"): [],
        ("stockroom", "add a description field to the Supplier model"): [],
        ("stockroom", "add a swagger page for the storefront api"): [],
        ("stockroom", "the discount code field accepts codes that already expired"): [
            # The expiry check is a date comparison under USE_TZ: date.today() against aware
            # UTC datetimes is the known trap; use timezone.localdate() and freezegun in the test.
            "s-f9",
        ],
        ("stockroom", "rename the 'Misc' product category to 'Accessories'"): [
            # The rename is a data migration; it must use apps.get_model, not import the model
            # class (that exact mistake failed on prod).
            "x-s-42",
        ],
        ("stockroom", "write the README section about running it locally"): [
            # WeasyPrint fails at import without the pango libraries: a local setup must list them.
            "s-f12",
            # Tasks are routed to four queues; a local worker must consume all of them or
            # e-mails, labels and the sync never run.
            "x-s-18",
            # The sync command and its --dry-run, and the rule never to run it from a laptop
            # against prod, belong in a running-locally section.
            "s-l1",
        ],
        ("stockroom", "add a filter by country to the customer admin"): [],
        # ---- snapvault ----
        ("snapvault", "add --json output to the snapshots command"): [
            # The CLI's output tests are insta snapshots through assert_cmd: the new output is
            # tested that way.
            "v-x-36",
            # Ids are shown as 8-hex prefixes for humans: machine output should carry full ids,
            # not reuse the display form.
            "v-x-22",
            # Times are shown in the local zone but stored UTC: JSON should emit UTC, not the
            # human local-time rendering.
            "v-x-30",
        ],
        ("snapvault", "fix clippy warnings after the rust 1.83 update"): [
            # CI tests a stated MSRV (stable of six months ago): fixes clippy suggests may use
            # std APIs newer than the MSRV and break that job.
            "v-x-12",
        ],
        ("snapvault", "update the README example for the mount command"): [
            # The mount is read-only with snapshots by date under /snapshots: the example must
            # show that layout and no writes.
            "v-x-42",
        ],
        ("snapvault", "rename the --keep-daily flag to --keep-days"): [
            # A removed flag is a breaking change: keep --keep-daily as a deprecated alias or
            # treat it as a major change.
            "g-x-06",
            # Retention follows restic: --keep-daily means "newest of each of the last N days";
            # --keep-days reads like a time window (restic's --keep-within), so the rename risks
            # changing what users believe it does.
            "v-d8",
            # The changelog is written by hand: the breaking rename needs its own entry.
            "v-x-28",
        ],
        ("snapvault", "add a progress bar for restore"): [],
        ("snapvault", "bump tokio"): [
            # Tokio raises its own minimum Rust version; CI tests the project's MSRV, so the bump
            # may have to stop at a version that still builds on it.
            "v-x-12",
        ],
        ("snapvault", "write a man page"): [
            # Completions are generated from the full clap Command in build.rs (and broke when
            # generated too early): the man page should be generated the same way.
            "v-x-23",
            # Exit codes 1 error, 2 usage, 3 partial backup: the EXIT STATUS section.
            "v-d5",
            # Config file location and environment overrides: the FILES/ENVIRONMENT sections.
            "v-x-06",
        ],
        ("snapvault", "add a config option for the temp dir"): [
            # Configuration is TOML in the platform config dir with environment variables
            # overriding it: the new option needs both, the same way.
            "v-x-06",
        ],
        ("snapvault", "the spinner flickers in the terminal"): [],
        # ---- fleetops ----
        ("fleetops", "add a new s3 bucket for the reports team"): [
            # Since the provider upgrade, versioning, acl and lifecycle are separate resources per
            # bucket, not inline blocks.
            "o-f7",
            # Stateful resources get prevent_destroy.
            "o-f3",
            # checkov runs in CI; any skip on the new bucket needs an inline rule id and reason.
            "o-d4",
            # Public access is blocked account-wide; sharing goes through CloudFront with OAC,
            # not a public bucket policy.
            "o-x-19",
        ],
        ("fleetops", "tflint fails on the new module"): [],
        ("fleetops", "add tags to all the resources in the vpc module"): [
            # Subnets carry the karpenter.sh/discovery tag: a rewritten tags map must keep it, or
            # Karpenter launches no nodes.
            "o-f2",
            # A module change is released as a git tag and rolled out per environment.
            "o-d3",
            # Otherwise the PR plan shows no changes: live config must bump the module ref.
            "o-x-16",
        ],
        ("fleetops", "write docs on how to add a new environment"): [
            # An environment is a separate AWS account under the Organization, with a role
            # Terraform assumes from the CI account.
            "o-d1",
            # Live config is split into per-environment stacks by layer, wired by remote state
            # outputs: the docs' list of stacks to create.
            "o-d8",
            # Atlantis needs one project per directory with explicit workspaces in atlantis.yaml.
            "o-x-02",
            # cert-manager's role must list the new environment's own hosted zone.
            "o-f4",
            # SSO permission set assignments are Terraform in the org stack; missing them left an
            # account invisible.
            "o-x-26",
            # Raised service quotas are in the quota module and were forgotten on new accounts.
            "o-x-35",
            # Transit Gateway attachments for every account belong to the network stack.
            "o-x-29",
            # Each environment has its own private hosted zone.
            "o-x-03",
            # Each environment has its own ClusterSecretStore.
            "o-d7",
        ],
        ("fleetops", "terraform fmt"): [],
        ("fleetops", "fix the typo in the iam module variable description"): [
            # Variable descriptions feed the terraform-docs README; pre-commit regenerates it.
            "o-x-17",
            # Regenerate with the pinned terraform-docs, or CI rewrites the README and fails.
            "o-x-18",
        ],
        ("fleetops", "add an output for the cluster endpoint"): [
            # Other stacks read it through terraform_remote_state outputs only: it belongs in
            # the cluster stack's outputs.
            "o-d8",
            # If added in the module, it needs a new module tag ...
            "o-d3",
            # ... and the live config's ref bumped, or the plan shows nothing.
            "o-x-16",
        ],
        ("fleetops", "pin the helm chart version for cert-manager"): [
            # Pinning to a version other than the deployed one is an upgrade: a chart once
            # changed its Service selectors and dropped traffic; read the release notes.
            "o-x-06",
        ],
        ("fleetops", "add a CODEOWNERS entry for the network modules"): [
            # The network stack has one owner named in the ownership file: that is who the entry
            # names.
            "t-fleetops-0-d0",
        ],
    },
}
