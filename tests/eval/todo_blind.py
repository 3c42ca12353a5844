"""Ordinary open items, written blind: a measure of how many the learned check holds (ADR 0046).

100 open items as the distiller writes a session's handoff: imperative to-dos addressed to whoever
works on the project next, about its code, tests, docs, data and release chores, some led by a topic
label ("billing: ..."). They were written from that description alone, before any was scored and
apart from ``todo_train``'s (no item is in both), and nothing in the learned check's making reads
them (its build never imports this module). ``REVIEW`` holds the 30 to-dos of the review that found two of them held
(one the project's main open item, which then showed in no session).
"""


def _items(block: str) -> list[dict]:
    return [{"kind": "handoff", "text": line.strip()} for line in block.strip().splitlines()]


BLIND = _items("""
write the migration that splits the users.name column into first and last name
add an index on orders.created_at; the monthly report scans the whole table
search: add fuzzy matching for product names with typos
fix the flaky test_checkout_timeout on the Windows runner
invoices: generate the PDF in the background job instead of the request
add pagination to the /api/v2/customers endpoint
rename the settings module to config and update the imports
write unit tests for the discount rules engine
document the retry policy of the webhook client in docs/webhooks.md
upgrade Django to 5.1 and fix the deprecation warnings
drop the unused legacy_sessions table after the next release
add a --dry-run flag to the import command
onboarding: add the welcome email template for team invites
handle the 429 responses from the maps API with backoff
move the feature flag checks out of the templates into the views
replace moment.js with date-fns in the dashboard
add a health check endpoint for the load balancer
write the changelog entry for 2.4.0
cache the exchange rates for an hour instead of fetching on every request
profile the slow search query on the staging dataset
split the 900-line utils.py into smaller modules
add type hints to the payments package and turn on mypy strict for it
remove the print statements left in the sync worker
add an e2e test for the password reset flow
migrate the cron jobs to the scheduler service
set up dependabot for the frontend packages
reports: add a CSV download button to the sales report page
add validation for empty postcodes in the address form
make the upload size limit configurable per tenant
fix the timezone bug in the weekly digest (sends on Sunday UTC, should be local)
write a script to reindex the search cluster from the database
add a loading spinner on the settings page while it saves
notifications: batch push notifications so a user gets at most one per minute
bump the minimum Python version to 3.11 in pyproject.toml
add a unique constraint on (team_id, slug) in projects
translate the new error messages into German and French
auth: support SSO login with Okta for the enterprise plan
delete the feature branch deploy previews older than 30 days
add logging around the payment provider callbacks
clean up the duplicate CSS for buttons in the marketing site
port the shell deploy script to a Makefile target
add a README section on running the tests with docker compose
implement soft delete for comments
add a config option for the SMTP port
measure the cold start time of the lambda after the bundle change
write the API docs for the new bulk update endpoint
fix the N+1 query on the project list page
add a retry button on failed exports in the UI
archive the old 2022 analytics dashboards
mobile: fix the keyboard covering the login button on small screens
investigate why the nightly backup job took 4 hours last night
add an integration test against the real S3 bucket in CI with a test prefix
rewrite the CSV parser to stream rows instead of loading the file
add rate limits to the login endpoint per IP
schedule the cleanup of expired sessions every night
add a migration guide from v1 to v2 of the SDK
check the license of the new charting library before we ship it
set up the staging environment for the new region
update the OpenAPI spec for the orders endpoints
add dark mode support to the email templates
make the CLI print a useful error when the config file is missing
refactor the checkout service to use the new pricing module
add a metric for queue length in the worker dashboard
write a data migration to backfill the country codes
fix the broken links in the docs after the move to mkdocs
release 3.2.1 with the hotfix for the token refresh
remove the old jQuery plugins from the admin
add keyboard shortcuts to the editor toolbar
support importing contacts from a vCard file
ask design for the empty state illustration of the inbox
deploy the new search service to staging and compare latency
add tests for the edge cases of the date range picker
pin the Terraform provider versions in the infra repo
move the hard-coded API base URL into the environment config
add an admin page to resend failed webhooks
billing: prorate the plan change in the middle of a cycle
make the build reproducible: lock the npm versions
write the post-mortem for Tuesday's outage
send the beta invite emails to the waitlist once the signup page is live
add a fallback font for CJK characters in the PDF export
convert the remaining class components to hooks
improve the error message when the upload is not a valid image
add an audit log entry when an admin changes a user's role
split the monolith's test suite so CI runs in parallel
add support for markdown tables in the notes editor
fix the memory leak in the websocket reconnect loop
review the open PRs from the contractor before Friday
add an option to export the user's data as JSON (GDPR request)
update the copyright year in the footer
install the pre-commit hooks in the dev container setup
run the database migration on production after the 18:00 freeze
make the tests independent of the machine's locale
add a cache-busting hash to the static asset file names
data pipeline: deduplicate events by event_id before loading
write a benchmark for the JSON serializer
i18n: extract the remaining hard-coded strings on the checkout pages
add a confirmation dialog before deleting a workspace
look into replacing Celery with a simpler queue
configure the log retention to 14 days in the staging cluster
keep the old endpoint working for one more release and log who still calls it
""")

REVIEW = _items("""
write the v1 YAML to v2 TOML converter
config migration: write the v1 YAML to v2 TOML converter
write the migration for the invoices table
write tests for the refund service
write the README section on configuration
write a script to backfill archived orders
run the full test suite on CI before merging
run the load test against staging
delete the old feature flags after the release
remove the deprecated v1 endpoints
update the docs for the new CLI flags
install the new linter in CI
download the latest currency rates in the nightly job
send the weekly report email from the cron job
export the orders as CSV for finance
disable the legacy login page after the migration
replace the YAML loader with the TOML one
upgrade React to 19 and fix the warnings
add rate limiting to the public API
add retries to the webhook sender
move secrets from .env to the vault
rotate the staging database password
copy the production config to staging without secrets
fetch the exchange rates from the new provider
execute the data migration on the replica first
config migration: handle Windows paths in the converter
config migration: document the new keys in the README
write the v2 TOML writer
write a converter from YAML to TOML
v1 YAML to v2 TOML converter
""")
