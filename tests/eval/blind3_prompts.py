"""Prompts of the third blind precision set (``recall_blind3``), written before its memory.

Written first, from a description of three projects and of the tasks a developer starts in them,
typed the way a task is started: short, often lower-case, sometimes vague, sometimes a pasted error
line. Only then were the memory entries written (``recall_blind3``), from the *past episodes* noted
beside some tasks (``#   past: key: ...``, what an earlier session of that project went through), in
the words a distiller would use, never looking back at the prompt. About a third of the labelled
prompts describe a symptom while their episode (and so their entry) names the cause: they share
almost no words. A task without a past episode needs no memory: its expected list is empty and
whatever it gets is noise. Those are everyday tasks in the project's own vocabulary (an admin
screen, a test, the database, the README, a migration, CI, a dependency bump, logging, an endpoint),
the prompts that share generic words with many entries.

Nothing was fitted on this set: it is held out whole, measured once.

The projects:

- ``stockroom``: the back office of an online shop selling tea and teaware: Django 4.2 with the
  Django admin for the staff, Django REST Framework for the storefront's API, Postgres, Celery with
  Redis as broker (nightly inventory sync, e-mails, label printing), Shopify order webhooks, Stripe
  refunds, ShipEngine shipping labels, WeasyPrint pick lists, S3 through django-storages, Sentry,
  pytest-django with factory_boy, GitHub Actions, Docker images deployed to ECS.
- ``snapvault``: a command-line backup tool in Rust: clap for the CLI, tokio, content-defined
  chunking, zstd compression and age encryption of chunks, a SQLite index of snapshots (rusqlite),
  upload to S3-compatible storage, restore and prune commands, a FUSE mount on Linux, integration
  tests with assert_cmd, releases cross-compiled for Linux, macOS and Windows by GitHub Actions and
  published to crates.io and Homebrew.
- ``fleetops``: the platform repository of a logistics company: Terraform modules and live
  configuration for AWS (VPC, EKS, RDS Postgres, IAM, S3, CloudFront, Route 53, ACM), state in S3
  with DynamoDB locks, Atlantis running plan and apply on pull requests, tflint and checkov in CI,
  three environments (dev, staging, prod) in separate accounts, Helm releases of cluster add-ons
  (external-dns, cert-manager, the AWS load balancer controller, Karpenter).
"""

PROMPTS = [
    # --- stockroom ---
    ("stockroom", "refund button in the admin does nothing for some old orders", ["s-f1"]),
    #   past: s-f1: Stripe refunds from the admin action failed silently for orders paid before the move to
    #   PaymentIntents: they store a charge id and no payment_intent, the refund call raised InvalidRequestError,
    #   which the action caught and only logged. Fix: refund by charge when payment_intent is empty, and show
    #   the Stripe error to the staff member as an admin message.
    ("stockroom", "celery worker got killed again last night", ["s-f2"]),
    #   past: s-f2: the nightly inventory sync task loaded every product with its variants prefetched into
    #   memory; the worker's RSS grew past 6 GB and the kernel OOM killer ended it, leaving the sync half done.
    #   Fix: iterate with .iterator(chunk_size=2000), and worker_max_memory_per_child as a guard.
    ("stockroom", "shopify webhook returns 401 since yesterday", ["s-f3"]),
    #   past: s-f3: Shopify order webhooks were rejected because the HMAC check used request.POST re-encoded
    #   instead of the raw request.body; bodies with non-ASCII product names never matched. Verify the HMAC
    #   over the raw bytes, and accept the old and new secret during a secret rotation.
    ("stockroom", "add a test for the low stock email", []),
    ("stockroom", "fix the typo in the order confirmation template, it says 'recieved'", []),
    ("stockroom", "why do we render pick lists with weasyprint and not reportlab", ["s-d1"]),
    #   past: s-d1: pick lists and packing slips are HTML Django templates rendered to PDF by WeasyPrint;
    #   ReportLab was tried but every layout change needed Python drawing code, and the warehouse asks for
    #   layout changes often. WeasyPrint needs pango in the Docker image.
    ("stockroom", "customers in the EU see prices without VAT on the invoice", ["s-f4"]),
    #   past: s-f4: invoice totals were computed from Product.price, which is stored net; tax was only added
    #   in the storefront's basket. Tax is now computed once per order line at checkout and stored on the line
    #   (tax_rate, tax_amount); invoices read the stored amounts, never recompute them.
    ("stockroom", "the stock numbers in admin don't match what the warehouse counted", ["s-d2", "s-f5"]),
    #   past: s-d2: stock is a ledger of StockMovement rows (receipt, sale, adjustment, return), and the
    #   quantity shown is their sum, cached on the variant by a signal; an editable quantity field was removed
    #   because staff overwrote it during sync.
    #   past: s-f5: a race between two Celery tasks decrementing stock for the same variant lost updates;
    #   fixed with select_for_update on the variant row inside transaction.atomic.
    ("stockroom", "bump django to 4.2.16", []),
    ("stockroom", "labels print twice for some orders", ["s-f6"]),
    #   past: s-f6: the ShipEngine label task was retried by Celery after a timeout although the label had been
    #   bought; a second label was bought and printed. The task now sends an idempotency key (the shipment id)
    #   and checks for an existing label before buying.
    ("stockroom", "migration 0047 takes forever on prod", ["s-d3"]),
    #   past: s-d3: adding a column with a default to the 40M row order_line table locked it for minutes.
    #   Rule: big tables get nullable columns first, a batched backfill in a separate data migration, then
    #   the NOT NULL constraint; indexes with AddIndexConcurrently in a non-atomic migration.
    ("stockroom", "add sku to the orders csv export", []),
    ("stockroom", "TypeError: Object of type Decimal is not JSON serializable", ["s-f7"]),
    #   past: s-f7: Celery tasks were sent with Decimal amounts and the json serializer failed; amounts are
    #   passed as strings of the integer number of cents (or ids only), and the task loads the row itself.
    ("stockroom", "staff say the admin order list is super slow", ["s-f8"]),
    #   past: s-f8: the order changelist ran one query per row for customer and shipping address (N+1) because
    #   list_display used a method reading related objects; list_select_related and a show_full_result_count
    #   of False brought the page from 9 s to 300 ms.
    ("stockroom", "tests pass locally but fail in CI with a timezone error", ["s-f9"]),
    #   past: s-f9: tests built dates with date.today() while USE_TZ compared aware datetimes in UTC; in CI
    #   (UTC) a test around midnight in Europe/Berlin failed. Use timezone.localdate() and freezegun in tests
    #   that depend on the day.
    ("stockroom", "add a description field to the Supplier model", []),
    ("stockroom", "where do product images end up in s3 and who can read them", ["s-d4"]),
    #   past: s-d4: product images are uploaded to the media bucket through django-storages with private ACL
    #   and served through CloudFront with signed URLs only for unpublished products; published product
    #   images use a public prefix, cached a year with hashed file names.
    ("stockroom", "emails to customers go out in english even for german orders", ["s-f10"]),
    #   past: s-f10: Celery tasks render templates outside the request, so the active language was the
    #   default; the task now activates the order's language (translation.override(order.language)).
    ("stockroom", "add a swagger page for the storefront api", []),
    ("stockroom", "stripe says the webhook endpoint is failing", ["s-f11"]),
    #   past: s-f11: Stripe webhooks timed out because the view did the refund bookkeeping and sent e-mails
    #   before answering; Stripe retried and events were handled twice. The view now stores the event id
    #   (unique), answers 200, and a Celery task handles it.
    ("stockroom", "how do we run the inventory sync by hand", ["s-l1"]),
    #   past: s-l1: learning: the nightly sync is a management command (manage.py sync_inventory --dry-run)
    #   wrapped by the Celery beat task; run the command in an ECS one-off task with the web image, never from
    #   a laptop against prod.
    ("stockroom", "the discount code field accepts codes that already expired", []),
    ("stockroom", "docker build fails: cannot load library 'gobject-2.0-0'", ["s-d1", "s-f12"]),
    #   past: s-f12: the slim Python base image lacked the pango and gobject libraries WeasyPrint loads at
    #   import; the Dockerfile installs libpango-1.0-0 and libpangoft2-1.0-0, and a CI step imports weasyprint.
    ("stockroom", "some orders are stuck in 'paid' and never get to fulfilment", ["s-f13"]),
    #   past: s-f13: the Celery task that moves paid orders to fulfilment was triggered with .delay() inside
    #   the transaction that saved the order; the worker ran before commit and found no row. Use
    #   transaction.on_commit(lambda: task.delay(...)).
    ("stockroom", "rename the 'Misc' product category to 'Accessories'", []),
    ("stockroom", "api is returning 500 for /api/products/?page=0", ["s-d5"]),
    #   past: s-d5: the storefront API uses cursor pagination, not page numbers: offsets over the product table
    #   were slow and skipped rows during imports. Page number params are rejected with a 400 by convention.
    ("stockroom", "why is sentry so quiet, I know things broke this morning", ["s-f14"]),
    #   past: s-f14: Sentry lost Celery errors because the Sentry SDK was initialised in settings only for the
    #   web process; the worker used another settings module. Init in one place imported by both, with the
    #   CeleryIntegration.
    ("stockroom", "write the README section about running it locally", []),
    ("stockroom", "add a filter by country to the customer admin", []),
    ("stockroom", "pytest takes 12 minutes now", ["s-d6"]),
    #   past: s-d6: tests run with pytest-xdist and --reuse-db; factories build related objects lazily with
    #   factory.SubFactory only where a test needs them, and migrations are skipped in tests (--nomigrations)
    #   with a separate CI job that runs makemigrations --check.
    ("stockroom", "returned items don't go back into stock", ["s-d2", "s-f15"]),
    #   past: s-f15: the return flow created a Return record but no StockMovement of kind "return" when staff
    #   marked items as resellable; restocking must be a movement, never a direct edit.
    ("stockroom", "customer got charged but the order still says unpaid", ["s-f16"]),
    #   past: s-f16: Stripe's checkout.session.completed event arrived before the order row existed (the
    #   Shopify order webhook comes later), and the handler dropped the event for an unknown order. Such
    #   events are now parked in a PendingPayment table and matched when the order is created.
    # --- snapvault ---
    ("snapvault", "backup of my photos folder is way slower than last release", ["v-f1"]),
    #   past: v-f1: a change made the chunker read files with a 4 KiB unbuffered read; throughput dropped from
    #   400 to 60 MB/s. Wrap in BufReader with a 1 MiB buffer; a benchmark (criterion) of the chunker on a
    #   1 GB file runs in CI and fails on a 20% regression.
    ("snapvault", "restore fails on windows with 'The filename, directory name, or volume label syntax is incorrect'",
     ["v-f2"]),
    #   past: v-f2: paths archived on Linux contained ':' and '?' and names ending in a dot, invalid on NTFS;
    #   restore now maps such names with a reversible escape and warns, and keeps the original name in the
    #   snapshot.
    ("snapvault", "add --json output to the snapshots command", []),
    ("snapvault", "why fastcdc and not fixed size chunks", ["v-d1"]),
    #   past: v-d1: content-defined chunking (FastCDC, 512 KiB to 8 MiB, average 2 MiB) so an insert in a file
    #   only changes nearby chunks; fixed-size chunks re-uploaded the whole tail of a file after an insert.
    ("snapvault", "database is locked", ["v-f3"]),
    #   past: v-f3: running backup while a prune held the SQLite index failed with SQLITE_BUSY; the index is
    #   opened in WAL mode with busy_timeout 5000, and prune takes an exclusive lock file so two prunes never
    #   run.
    ("snapvault", "fix clippy warnings after the rust 1.83 update", []),
    ("snapvault", "someone on the issue tracker lost data after prune", ["v-f4", "v-d2"]),
    #   past: v-f4: prune deleted chunks still referenced by a snapshot whose upload had started but not been
    #   committed to the index; prune now skips chunks younger than the oldest running backup (a lease file in
    #   the repository) and deletes in two phases.
    #   past: v-d2: prune is two-phase: it marks unreferenced chunks, then deletes them at the next prune if
    #   still unreferenced after a grace period of 24 hours.
    ("snapvault", "brew install snapvault gives an old version", ["v-f5"]),
    #   past: v-f5: the Homebrew tap was not updated by the release workflow because the job used a
    #   GITHUB_TOKEN that cannot push to another repository; it needs a fine-grained token with contents write
    #   on the tap repository, stored as TAP_TOKEN.
    ("snapvault", "update the README example for the mount command", []),
    ("snapvault", "can we encrypt the index too or only chunks", ["v-d3"]),
    #   past: v-d3: chunks are encrypted with age to the repository's X25519 recipient; the SQLite index stays
    #   local and is uploaded as an encrypted copy after each backup, so a lost laptop can be restored from the
    #   bucket with the key alone.
    ("snapvault", "tests hang on the macos runner", ["v-f6"]),
    #   past: v-f6: the FUSE mount integration tests waited for a mount that never came up on macOS (no
    #   macFUSE on GitHub runners); they are gated behind cfg(target_os = "linux") and a feature flag.
    ("snapvault", "error: linking with `cc` failed for aarch64-unknown-linux-gnu", ["v-d4"]),
    #   past: v-d4: release builds for Linux ARM use cross (Docker images with the toolchains) and musl targets
    #   for static binaries; cargo-zigbuild was tried and failed with the bundled SQLite's C code.
    ("snapvault", "rename the --keep-daily flag to --keep-days", []),
    ("snapvault", "upload to backblaze b2 gets SignatureDoesNotMatch", ["v-f7"]),
    #   past: v-f7: the S3 client used virtual-hosted style URLs and region us-east-1 by default; S3-compatible
    #   providers (B2, MinIO) need path style and their own region. Config has force_path_style and region per
    #   repository.
    ("snapvault", "memory usage goes through the roof with many small files", ["v-f8"]),
    #   past: v-f8: the walker collected all directory entries of the tree into a Vec before chunking, 10M
    #   entries in a home directory took 5 GB; it now streams entries through a bounded channel (capacity 1024)
    #   to the chunker tasks.
    ("snapvault", "add a progress bar for restore", []),
    ("snapvault", "how should errors look for the user", ["v-d5"]),
    #   past: v-d5: library code returns thiserror enums; the binary uses anyhow with context on every I/O
    #   call naming the path; no unwrap outside tests, and exit codes: 1 error, 2 usage, 3 partial backup.
    ("snapvault", "backup says ok but some files are missing from the snapshot", ["v-f9"]),
    #   past: v-f9: files the walker could not read (permission denied) were skipped with a debug log only, and
    #   the backup reported success. Unreadable files are now warnings counted in the summary and make the exit
    #   code 3.
    ("snapvault", "bump tokio", []),
    ("snapvault", "publish to crates.io failed in the release job", ["v-f10"]),
    #   past: v-f10: cargo publish refused the crate because the workspace member snapvault-core was published
    #   after the binary crate that depends on it; publish order is core, then cli, with a wait for the index
    #   between them.
    ("snapvault", "sqlite schema change for the new tags column", ["v-d6"]),
    #   past: v-d6: index schema migrations are numbered SQL files embedded with include_str! and applied in a
    #   transaction by user_version; never edit a shipped migration, add a new one.
    ("snapvault", "timestamps of restored files are all today", ["v-f11"]),
    #   past: v-f11: restore set file mtimes before writing the content, so the write reset them; times are
    #   set with filetime after the file is closed, directories last, in reverse order.
    ("snapvault", "write a man page", []),
    ("snapvault", "zstd level 19 is too slow, what did we pick and why", ["v-d7"]),
    #   past: v-d7: chunks are compressed with zstd level 3 by default; 19 gave 6% smaller repos at 12x the
    #   CPU. Already compressed data (jpeg, zip, mp4) is detected by entropy of the first 64 KiB and stored
    #   uncompressed.
    ("snapvault", "windows defender flags the exe", ["v-l1"]),
    #   past: v-l1: learning: unsigned release binaries for Windows get flagged by SmartScreen and Defender
    #   heuristics; the release job signs the .exe with the code signing certificate from Azure Key Vault
    #   (AzureSignTool), and a false positive is reported through the Microsoft submission portal.
    ("snapvault", "mount shows empty directories", ["v-f12"]),
    #   past: v-f12: the FUSE readdir returned entries only on the first call and the offset was ignored, so the
    #   kernel saw an empty list when it asked again with an offset; return entries from the given offset.
    ("snapvault", "add a config option for the temp dir", []),
    ("snapvault", "ci is red on the windows job, path separator stuff in the tests", ["v-f13"]),
    #   past: v-f13: integration tests compared printed paths with '/' literals; tests build expected paths with
    #   Path::join and compare Path values, and the CLI prints paths in the platform's form.
    ("snapvault", "what's the retention policy logic when keep-weekly and keep-monthly overlap", ["v-d8"]),
    #   past: v-d8: retention follows the restic model: each rule keeps the newest snapshot of each of its last
    #   N periods, a snapshot kept by any rule is kept, and snapshots tagged 'pinned' are never pruned.
    ("snapvault", "the spinner flickers in the terminal", []),
    ("snapvault", "cargo test randomly fails with address already in use", ["v-f14"]),
    #   past: v-f14: integration tests each started the S3 stand-in server on the fixed port 9000 and collided
    #   when cargo ran them in parallel; each test binds port 0 and passes the port it got to the CLI.
    ("snapvault", "ci cache never hits on main, every build compiles from scratch", ["g-l1"]),
    #   past: g-l1: general learning (learned in fleetops): a GitHub Actions cache saved by a pull_request run
    #   is scoped to that PR's merge ref and cannot be restored by main or by other PRs; warm the cache with a
    #   run on push to main, and key it on the lockfile's hash.
    # --- fleetops ---
    ("fleetops", "Error acquiring the state lock", ["o-f1"]),
    #   past: o-f1: an Atlantis apply was cancelled when its pod was evicted and the DynamoDB lock stayed; the
    #   rule: check the lock's Who and Created in the table, confirm no run is active in Atlantis, then
    #   terraform force-unlock with the lock id, never delete the item by hand.
    ("fleetops", "new pods stay pending for 10 minutes in staging", ["o-f2"]),
    #   past: o-f2: Karpenter did not launch nodes because the NodePool's requirements allowed only instance
    #   types out of capacity in eu-west-1a, and the subnet selector tag was missing on the new subnets; widen
    #   the instance families and tag subnets karpenter.sh/discovery.
    ("fleetops", "add a new s3 bucket for the reports team", []),
    ("fleetops", "why is there one aws account per environment", ["o-d1"]),
    #   past: o-d1: dev, staging and prod live in separate AWS accounts under an Organization, so a mistaken
    #   apply or a leaked key cannot reach prod; Terraform assumes a role per account from the CI account.
    ("fleetops", "plan wants to destroy and recreate the rds instance", ["o-f3"]),
    #   past: o-f3: a change of the RDS module's identifier naming (a prefix) forced replacement of the prod
    #   database in the plan; it was caught in review. Rule: prevent_destroy on stateful resources, and
    #   renames through moved blocks or a new argument that keeps the old name.
    ("fleetops", "tflint fails on the new module", []),
    ("fleetops", "certificate for api.staging is not renewing", ["o-f4"]),
    #   past: o-f4: cert-manager's DNS-01 challenges failed because its IRSA role could change records only in
    #   the prod hosted zone; the staging zone id was missing from the policy. Each environment's role lists
    #   its own zone.
    ("fleetops", "how do I get kubectl access to the prod cluster", ["o-l1"]),
    #   past: o-l1: learning: cluster access goes through EKS access entries mapped to SSO permission sets
    #   (aws eks update-kubeconfig with the sso profile); aws-auth configmap edits are no longer used, and
    #   break-glass admin is a separate role with an alarm on use.
    ("fleetops", "add tags to all the resources in the vpc module", []),
    ("fleetops", "atlantis plan output is cut off in the PR comment", ["o-f5"]),
    #   past: o-f5: GitHub comments are limited to 65536 characters; Atlantis split the plan into several
    #   comments but a huge plan of a Helm release with its values diff still hid the changes. Hide
    #   previous comments and keep Helm values out of plans (values as a hash).
    ("fleetops", "we got charged a lot for NAT last month", ["o-d2", "o-f6"]),
    #   past: o-d2: each environment's VPC has S3 and DynamoDB gateway endpoints and ECR interface endpoints,
    #   so image pulls and S3 traffic do not pass through the NAT gateways.
    #   past: o-f6: the data team's pods pulled 8 TB from S3 in another region through NAT; cross-region reads
    #   go through a replicated bucket in the same region.
    ("fleetops", "upgrade the aws provider to v5", ["o-f7"]),
    #   past: o-f7: the aws provider major upgrade moved aws_s3_bucket's inline acl, versioning and
    #   lifecycle blocks into separate resources; plans showed drift on every bucket until each got its own
    #   aws_s3_bucket_versioning etc. with import blocks.
    ("fleetops", "dns record for the new service never shows up", ["o-f8"]),
    #   past: o-f8: external-dns ignored the Ingress because its domain filter listed only the apex zone and
    #   the service used a delegated subdomain zone; add the subdomain zone to --domain-filter and the txt
    #   owner id per cluster.
    ("fleetops", "write docs on how to add a new environment", []),
    ("fleetops", "why are modules pinned by git tag and not registry", ["o-d3"]),
    #   past: o-d3: internal modules live in this repository and are referenced by git tag (ref=vX.Y.Z) from
    #   the live configuration, so a module change is released and rolled out per environment; a private
    #   registry was judged not worth running.
    ("fleetops", "checkov complains about the cloudfront distribution", ["o-d4"]),
    #   past: o-d4: checkov runs in CI with a baseline file; a skip needs an inline comment with the rule id
    #   and the reason (for example the public assets distribution without WAF), reviewed by the security
    #   team.
    ("fleetops", "terraform fmt", []),
    ("fleetops", "the ALB for the api returns 504 during deploys", ["o-f9"]),
    #   past: o-f9: during rolling updates the load balancer controller kept sending traffic to pods that were
    #   terminating; the deregistration delay was 300 s and pods had no preStop sleep. Added a preStop sleep of
    #   15 s, deregistration delay 30 s, and pod readiness gates.
    ("fleetops", "someone changed a security group in the console", ["o-d5"]),
    #   past: o-d5: drift detection: a scheduled Atlantis-independent GitHub Actions job runs plan on every
    #   environment nightly and opens an issue on a non-empty plan; console changes are reverted, not
    #   imported, unless the owner says otherwise.
    ("fleetops", "rds storage almost full", ["o-f10"]),
    #   past: o-f10: the prod database's storage filled with WAL because a logical replication slot of the
    #   retired analytics connector was never dropped; an alarm on the OldestReplicationSlotLag metric was
    #   added, and storage autoscaling with a max.
    ("fleetops", "bump the eks version to 1.31", ["o-d6"]),
    #   past: o-d6: EKS upgrades go one minor at a time, dev first then a week in staging: control plane,
    #   then add-ons (vpc-cni, coredns, kube-proxy) from the compatibility table, then node AMIs through
    #   Karpenter drift.
    ("fleetops", "fix the typo in the iam module variable description", []),
    ("fleetops", "AccessDenied when the pipeline assumes the deploy role", ["o-f11"]),
    #   past: o-f11: the CI's OIDC trust policy matched the sub claim repo:org/fleetops:ref:refs/heads/main
    #   only; jobs running on pull_request have another sub, so plans failed. Trust lists both the main branch
    #   and pull_request subjects, apply only for main.
    ("fleetops", "how do secrets get into the pods", ["o-d7"]),
    #   past: o-d7: application secrets live in AWS Secrets Manager and reach pods through the External
    #   Secrets Operator with a ClusterSecretStore per environment; never as Terraform outputs or in state.
    ("fleetops", "add an output for the cluster endpoint", []),
    ("fleetops", "state file is huge and plans take ages", ["o-d8"]),
    #   past: o-d8: the live configuration is split into small stacks per environment and layer (network, data,
    #   cluster, add-ons, apps) with their own state, reading each other through terraform_remote_state
    #   outputs only; the one big state took 9 minutes to plan.
    ("fleetops", "cloudfront serves the old frontend after deploy", ["o-f12"]),
    #   past: o-f12: index.html was cached by CloudFront for a day because the bucket's objects all got the
    #   same Cache-Control; index.html is now uploaded with no-cache and hashed assets with a year, and the
    #   deploy does not need an invalidation.
    ("fleetops", "the nightly rds snapshot copy to the backup account failed", ["o-f13"]),
    #   past: o-f13: copying encrypted snapshots to the backup account failed because the KMS key policy did
    #   not grant the backup account kms:CreateGrant and Decrypt; snapshots encrypted with the default aws/rds
    #   key cannot be shared at all, so databases use a customer managed key.
    ("fleetops", "pin the helm chart version for cert-manager", []),
    ("fleetops", "karpenter nodes can't pull images, ImagePullBackOff everywhere on the new nodes", ["o-f14"]),
    #   past: o-f14: the ECR interface endpoints' security group allowed 443 only from the old managed node
    #   group's security group; Karpenter nodes have their own security group, so their pulls timed out. The
    #   endpoint security group now allows 443 from the VPC CIDR.
    ("fleetops", "every plan shows an update to the lambda even when nothing changed", ["o-f15"]),
    #   past: o-f15: the log shipper Lambda's source_code_hash changed on every plan because the zip was built
    #   on the runner with fresh file timestamps and permissions; the function is now deployed from a container
    #   image pinned by digest.
    ("fleetops", "add a CODEOWNERS entry for the network modules", []),
]
