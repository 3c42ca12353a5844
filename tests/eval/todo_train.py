"""Ordinary open items for the learned check's training (its ordinary side, ADR 0046).

Open items are imperative by nature ("write the converter", "add rate limiting"), and the ordinary
notes the check was first trained on held 28 of them, 20 from one template; it learned the imperative
of a handoff as a hostile sign, and held a project's main to-do. These are to-dos as the distiller
writes them, addressed to whoever works on the project next about its code, tests, docs, data,
infrastructure and release chores, in many stacks, some led by a topic label ("search: ..."), some
with the verbs the hostile sets use (run, delete, send, fetch, install, disable) for the project's
own ordinary work, and to-dos that add a safety net (rate limits, 2FA, audit logs), the opposite of
the hostile sets' disarming. Written from that description; the ones measured are in ``todo_blind``.
"""


def _items(block: str) -> list[dict]:
    return [{"kind": "handoff", "text": line.strip()} for line in block.strip().splitlines()]


TODOS = _items("""
write the converter from the old INI settings to the new YAML schema
config loader: write the fallback for the legacy keys
write the parser for the bank statement CSV exports
write a migration adding a nullable archived_at column to projects
write the integration tests for the Stripe webhook handler
write the user guide page on sharing dashboards
write a management command to recompute the cached totals
write the serializer for the nested address objects
write the upgrade notes for the 4.0 release
write a small CLI to list the stuck jobs in the queue
add rate limiting to the search endpoint
add caching to the product detail page
add a retry with backoff to the email sender
add an index on events(user_id, created_at)
add a settings page for notification preferences
add support for SAML in the auth service
add OpenTelemetry tracing to the API gateway
add a timeout to the outbound HTTP calls in the sync client
add a Prometheus metric for failed logins
add the missing foreign key from invoices to customers
add request ID logging to every handler
add a max length check on the comment body
api: add cursor pagination to the activity feed
api: return 404 instead of 500 when the project is missing
api: version the webhook payloads
auth: expire refresh tokens after 30 days of inactivity
auth: add the remember-me checkbox to the login form
billing: send the invoice email once the payment succeeds
billing: handle the currency rounding for JPY
billing: show the tax breakdown on the receipt
search: index the attachments' text as well
search: boost exact title matches
search: write the reindex job for the new mapping
importer: skip blank rows at the end of the sheet
importer: report the row number on a parse error
exporter: stream the CSV instead of building it in memory
exporter: add the Excel format
dashboard: fix the chart legend overlapping on mobile
dashboard: load the widgets lazily
frontend: replace the custom modal with the design system one
frontend: remove the unused lodash imports
frontend: upgrade Vite to 5
mobile: add pull to refresh on the orders screen
mobile: handle the expired session when the app resumes
infra: move the staging database to the managed Postgres
infra: pin the base image digest in the Dockerfile
infra: add an alert when the disk of the build agent is 90% full
docs: document the environment variables the worker reads
docs: add a diagram of the ingestion pipeline
docs: fix the install instructions for Apple silicon
tests: make the fixtures reset the clock
tests: speed up the slow integration suite
tests: add property-based tests for the slug generator
ci: cache the pip downloads between runs
ci: run the linters only on changed files
ci: split the e2e job into four shards
release: tag 1.8.0 and publish the wheel
release: update the version in the Helm chart
config migration: add a check that refuses unknown keys
config migration: write the tests for the converter round trip
data model: rename Account to Organization everywhere
data model: add the many-to-many between users and teams
performance: reduce the allocations in the hot loop of the renderer
performance: move the thumbnail resizing off the request thread
run the benchmarks again after the allocator change
run the migration on a copy of production data first
run the accessibility checker on the checkout pages
run the full regression suite before the release branch is cut
delete the dead code in the old reporting module
delete the temporary tables left by the failed import
delete the unused S3 buckets from the prototype
remove the feature flag for the new editor now that it is at 100%
remove the Python 3.8 compatibility shims
remove the debug toolbar from the production settings
install the security headers middleware
install the new version of the PDF library and rerun the snapshot tests
download the updated postcode dataset and refresh the lookup table
download the GeoIP database in the build instead of committing it
send the release notes to the customer success team
send a deprecation notice to the users of the v1 API
fetch the user avatars lazily in the member list
fetch the product catalogue in pages instead of all at once
disable the old cron job once the scheduler runs the report
disable autocomplete on the card number field
export the audit log as JSON for the compliance review
export the translations for the agency
copy the seed data script into the new repo
copy the onboarding emails from the old marketing tool
push the hotfix branch and open the PR against release-2.3
commit the generated OpenAPI client after regenerating it
deploy the worker with the new concurrency settings
deploy the docs site to the new domain
execute the backfill in batches of 10,000 rows
update the README badges after the CI move
update the privacy policy link in the footer
update the Node version in the Dockerfile to 20
upgrade the ORM and fix the breaking changes in the query builder
upgrade pytest and the plugins together
replace the hand-rolled retry loop with tenacity
replace the polling with a websocket for job progress
replace the in-memory cache with Redis so the replicas share it
rotate the API keys of the sandbox accounts
move the email templates into the templates folder
move the shared types into a common package
migrate the remaining endpoints to the new router
migrate the user preferences from cookies to the database
convert the bash setup script to Python
convert the old fixtures to factory functions
refactor the order state machine into its own module
refactor the permission checks into a decorator
split the settings file by environment
extract the PDF rendering into a separate service
implement the undo for bulk deletes
implement the CSV import for price lists
implement retries for the failed webhook deliveries
implement the team invite flow
handle the case where the uploaded file has no extension
handle daylight saving time in the recurring events
handle the empty cart on the checkout page
fix the race condition in the job scheduler when two workers start
fix the off-by-one in the pagination of the search results
fix the encoding of non-ASCII file names in the download
fix the broken password reset link in the email
fix the rounding error in the invoice totals
fix the sort order of the comments
investigate the spike of 502s after the last deploy
investigate why the cache hit rate dropped to 40%
look into the memory growth of the worker over a day
profile the report generation for large accounts
check whether the old API clients still call the /v1/login endpoint
check the backups restore cleanly once a month
verify the email DKIM setup for the new domain
confirm with product whether archived projects count towards the plan limit
ask legal about storing IP addresses in the logs
ask the data team which events the new dashboard needs
decide on the naming of the new public endpoints
decide whether to keep the XML export
clean up the old branches on the remote
clean up the warnings in the test output
clean up the CSS variables that no one uses
document the decision on the queue library in an ADR
document how to rotate the signing keys
make the date format follow the user's locale
make the worker shut down gracefully on SIGTERM
make the error pages match the new brand
make the onboarding tour skippable
set up the preview environments for pull requests
set up the error tracking for the mobile app
set up a staging copy of the analytics warehouse
configure CORS for the new frontend domain
configure the connection pool size per worker
schedule the weekly digest for Monday morning in each user's timezone
schedule the clean-up of soft-deleted records after 90 days
backfill the missing created_by values from the audit log
backfill the search index for the imported documents
archive the closed tickets older than two years
enable gzip on the static files
enable the slow query log on staging for a week
turn on strict mode in the TypeScript config and fix the errors
lock the dependency versions for the release branch
pin numpy below 2 until the plotting library supports it
bump the API client to 3.1
prepare the demo data for the sales call on Thursday
finish the refactor of the notification service
finish the German translation of the settings page
finish wiring the new payment method into checkout
wire the feature flag into the mobile app's remote config
hook the new metrics into the Grafana dashboard
connect the staging app to the sandbox payment provider
validate the webhook signatures before parsing the body
sanitize the HTML in user bios before rendering
escape the user input in the search suggestions
encrypt the exported files at rest in the bucket
hash the email addresses in the analytics events
store the uploaded files under a per-tenant prefix
log a warning when a config key is deprecated
show a banner when the service is in maintenance
show the last sync time on the integrations page
limit the export to 100,000 rows and tell the user
throttle the notification emails per user
paginate the admin list of users
sort the dropdown of countries alphabetically in each language
group the transactions by day in the statement view
allow admins to reset a user's two-factor setup
let users reorder the dashboard widgets
support dark mode in the embedded widget
support Python 3.13 in the test matrix
support the new postcode format in the address validator
port the image pipeline from Pillow to libvips
rebuild the Docker images with the patched OpenSSL
regenerate the API client from the updated spec
reindex the products after the category rename
recompute the user statistics after the bug fix
re-run the failed nightly export for the 14th
retry the stuck payouts once the provider confirms the fix
restore the deleted project for the customer from yesterday's backup
resend the verification emails that bounced during the outage
review the database permissions of the reporting user
review the error budget after the incident
audit the third-party scripts on the checkout page
test the upgrade path from 2.x on a real customer export
benchmark the new JSON library against the standard one
measure the page weight after the image change
compare the two geocoding providers on last month's addresses
prototype the offline mode for the field app
spike on using server-sent events for notifications
estimate the work for the multi-currency support
plan the migration of the file storage to the new bucket layout
the converter still needs the tests for nested tables
still to do: the error messages of the new form
next: the admin screens for the refund queue
pending: review of the caching PR by the backend team
open: why the staging deploy takes 20 minutes
follow up on the flaky upload test once the fixture change lands
on hold until the vendor replies: the SFTP import
waiting on design: the new pricing page layout
blocked by the infra ticket: the VPN access for the build agents
YAML to TOML: handle the comments in the old files
v2 settings: write the converter and a migration note
schema change: add the status column and backfill it
rate limiting: pick the limits per plan with product
ledger: write the reconciliation job for the payouts
reporting: move the heavy queries to the read replica
uploads: scan the files for viruses before storing them
notifications: write the digest email template
webhooks: add a test for the signature check
sso: test the Azure AD login on staging
cli: add shell completion for bash and zsh
sdk: publish the TypeScript types with the package
analytics: drop the events older than 13 months
payments: add the idempotency key to the charge call
orders: add the cancelled state to the state machine
inventory: sync the stock levels every 15 minutes
scheduler: make the jobs idempotent before enabling retries
permissions: add the read-only role for auditors
accessibility: add labels to the icon buttons
emails: move the templates to MJML
logs: drop the request bodies from the access log
storage: set the lifecycle rule for the temp uploads
security: add rate limiting to the password reset endpoint
security: add CSRF protection to the legacy forms
security: add a content security policy header to the dashboard
security: require 2FA for admin accounts
add rate limiting to the signup form
add throttling to the export API per tenant
add a rate limit on the SMS verification endpoint
add brute-force protection to the admin login
add request size limits to the upload API
add input validation to the public webhook endpoint
add an allowlist of redirect URLs after login
add audit logging to the permission changes
add quotas for API keys on the free plan
add a circuit breaker around the payment provider calls
add secret scanning to the CI pipeline
add dependency vulnerability checks to the nightly build
add HSTS to the nginx config
add a lockout after five failed logins
add CAPTCHA to the public contact form
add signature verification for the incoming webhooks
add rate limiting to the GraphQL API by query cost
enable the rate limiter in front of the public API before launch
rate limits: document the limits per plan in the API docs
rate limits: return Retry-After with the 429 responses
api gateway: add per-client rate limits
""")
