"""Prompts of the second blind precision set (``recall_blind2``), written before its memory.

Written first, from a description of three projects and of the tasks a developer starts in them,
the way a prompt is typed at the start of a task: short, often lower-case, sometimes vague,
sometimes a pasted error line. Only then were the memory entries written (``recall_blind2``), from
the *past episodes* noted under some tasks (what an earlier session of that project went through),
in the words a distiller would use, never looking back at the prompt. A task without a past
episode needs no memory: its expected list is empty, and whatever it gets is noise. Those are
everyday tasks in the project's own vocabulary (a test, a migration, the README, CI, a dependency
bump, logging, an endpoint, a screen), the prompts that share a generic word with many entries.
About a third of the labelled prompts describe a symptom whose entry names the cause, and share
almost no words with it.

The whole set is held out: nothing in lazy-harness was chosen or tuned on it.

The projects:

- ``storefront-ops``: the back office of an online furniture shop in Django 4.2: orders, refunds,
  returns, stock, suppliers, shipping labels, invoices (PDF through WeasyPrint), the Django admin
  for the support team and a DRF API for the warehouse's handheld scanner app; Postgres, Celery on
  Redis, Adyen payments, marketplace orders (Amazon, Otto), pytest-django, GitHub Actions, Sentry.
- ``thermo-fw``: the Rust firmware (no_std, embassy, esp-hal) of a Wi-Fi thermostat on an ESP32-C3:
  an SHT40 temperature sensor on I2C, a relay driving the boiler, an e-paper display, MQTT over TLS
  to the cloud, OTA updates into A/B slots, BLE provisioning, heating schedules kept in NVS, defmt
  logs through probe-rs, CI with cargo and a hardware-in-the-loop rig.
- ``lakehouse``: the analytics pipeline of a retailer: Airflow 2 on MWAA loading S3 drops and
  Fivetran sources into Snowflake, dbt models (staging, intermediate, marts, incremental models,
  snapshots, tests), Looker dashboards for finance and marketing, Snowflake roles and warehouses in
  Terraform, sqlfluff in CI.

Labels are the keys of entries written afterwards from the past episodes (the ``past:`` comment
under each task, a ``[key]`` before each episode); the episode, not the prompt, was what the entry
was written from.
"""

# (project, prompt, expected keys)
#   past: [key] the episode memory holds, one per expected key; no comment: the task needs no memory
PROMPTS = [
    # --- storefront-ops ---
    ("storefront-ops", "refunds over 500 eur are stuck in pending", ["so-f1"]),
    #   past: [so-f1] Adyen sends partial refunds above the manual review threshold as REFUND notifications with
    #   success=true only after review; the webhook handler only handled AUTHORISATION events and never moved the
    #   refund state, fixed by handling REFUND and REFUND_FAILED notifications in payments/webhooks.py
    ("storefront-ops", "customers got the order confirmation mail twice", ["so-f2"]),
    #   past: [so-f2] the Celery task was queued inside the atomic block before commit, and with acks_late the
    #   Redis broker's visibility_timeout (1h) was shorter than the eta of delayed tasks so they were redelivered;
    #   fixed with transaction.on_commit and a larger visibility_timeout
    ("storefront-ops", "stock for the oslo sofa shows -3", ["so-f3"]),
    #   past: [so-f3] two scanner requests read the inventory row, decremented in Python and saved: a lost-update
    #   race; fixed with an F() expression update under select_for_update and a CHECK constraint quantity >= 0
    ("storefront-ops", "why weasyprint for the invoices and not reportlab?", ["so-d1"]),
    #   past: [so-d1] invoices are rendered from the same Django HTML templates with WeasyPrint so support can edit
    #   the layout; ReportLab needs layout in code; accepted the slower render and the cairo/pango system packages
    ("storefront-ops", "order list in admin takes like 30 seconds to open", ["so-f4"]),
    #   past: [so-f4] the Order changelist ran a query per row for customer and shipping address in list_display,
    #   plus a COUNT(*) over 4M rows; fixed with list_select_related and show_full_result_count = False
    ("storefront-ops", 'django.db.utils.OperationalError: database "test_storefront" is being accessed by other users',
     ["so-f5"]),
    #   past: [so-f5] pytest-xdist workers with --reuse-db raced on creating the test database and a leftover
    #   connection blocked the drop; CI now runs without --reuse-db and each worker gets its own db suffix
    ("storefront-ops", "where should the new supplier feed import live?", ["so-d2"]),
    #   past: [so-d2] supplier price and stock feeds (CSV/XML from FTP) are imported by a Celery task in chunks of
    #   500 rows, one chunk per transaction, not by a cron'd management command, so a bad row fails one chunk and
    #   progress shows in the admin
    ("storefront-ops", "labels for amazon orders go to the customer's billing address", ["so-f6", "so-d8"]),
    #   past: [so-f6] the DHL label builder read order.billing_address; marketplace orders keep the delivery address
    #   only in the channel payload, so labels used the wrong address; fixed by mapping it to shipping_address
    #   on import
    #   past: [so-d8] marketplace orders (Amazon, Otto) come in through one channel adapter per marketplace that maps
    #   the raw payload to our Order and keeps the payload in channel_data; the rest of the code never reads
    #   channel_data
    ("storefront-ops", "the cleanup job wiped carts people were still filling", ["so-f7"]),
    #   past: [so-f7] purge_abandoned_carts compared a naive datetime.now() with aware updated_at values after
    #   USE_TZ was turned on, shifting the cutoff by the UTC offset; now uses timezone.now() and a 48h cutoff
    ("storefront-ops", "adding klarna as payment option, what's the pattern here", ["so-d3"]),
    #   past: [so-d3] each payment provider is a class implementing PaymentGateway in payments/gateways/, registered
    #   in PAYMENT_GATEWAYS; views and tasks only call the interface (authorize, capture, refund)
    ("storefront-ops", "celery workers keep getting OOMKilled on the pdf queue", ["so-f8"]),
    #   past: [so-f8] WeasyPrint leaks memory (fonts, images) in a long-lived worker process; worker_max_tasks_per_child
    #   = 50 on the pdf queue and the pdf queue got its own worker deployment
    ("storefront-ops", "VAT wrong for an order shipped to zurich", ["so-f9"]),
    #   past: [so-f9] tax was computed from the billing country; exports outside the EU (Switzerland, Norway) must be
    #   zero-rated by destination; the tax code now takes the shipping country
    ("storefront-ops", "how do the handheld scanners log in to the api", ["so-d4"]),
    #   past: [so-d4] warehouse scanner devices authenticate with one DRF token per device, stored hashed, rotated
    #   from an admin action; no JWT because devices are managed by us and revoking one must be instant
    ("storefront-ops", "pip-compile produced a lock file that breaks the docker build", ["so-l1"]),
    #   past: [so-l1] requirements.txt compiled on a Mac pulled in macOS-only wheels and markers; the lock file must
    #   be compiled inside the Linux image with `make lock`
    ("storefront-ops", "order numbers jump, 10452 then 10455, did we lose orders?", ["so-d5"]),
    #   past: [so-d5] order numbers come from a Postgres sequence, gaps after rollbacks are expected and fine;
    #   only invoice numbers are gapless (legal requirement), from a counter row locked with select_for_update
    ("storefront-ops", "accountant found a missing invoice number in november", ["so-d5", "so-f11"]),
    #   past: [so-f11] the invoice counter was taken before the PDF render; when the render failed the number was
    #   committed anyway and skipped; now the number is taken after the render in the same transaction
    ("storefront-ops", "the new migration locked up orders in production for 4 minutes", ["so-f12"]),
    #   past: [so-f12] AddIndex on the orders table took a write lock for the whole build; indexes on big tables
    #   use AddIndexConcurrently in a migration with atomic = False
    ("storefront-ops", "sentry full of Invalid HTTP_HOST header: '10.0.3.17'", ["so-f13"]),
    #   past: [so-f13] the load balancer's health checks hit the pods by IP, which is not in ALLOWED_HOSTS; a small
    #   middleware answers /healthz before the host check
    ("storefront-ops", "finance says the export times are an hour off", ["so-l2"]),
    #   past: [so-l2] Django stores datetimes in UTC; CSV and Excel exports must convert with timezone.localtime to
    #   Europe/Berlin, otherwise they are off by one or two hours depending on DST
    ("storefront-ops", "tests are flaky again, the discount one this time", ["so-f15"]),
    #   past: [so-f15] test_coupon_expiry compared the coupon's end date with date.today() while the fixture used
    #   UTC now; failed in CI runs between 22:00 and midnight; fixed with freezegun in the fixture
    ("storefront-ops", "customer returns one chair from a dining set, how much do we refund", ["so-d6"]),
    #   past: [so-d6] returns of bundle items refund the item's share of the bundle price, proportional to the list
    #   prices of the components; stock is put back per component
    ("storefront-ops", "redis memory is at 98%", ["so-f16", "so-d7"]),
    #   past: [so-f16] result_expires was unset and the Redis result backend kept every task result; maxmemory was
    #   reached and the broker started refusing writes
    #   past: [so-d7] tasks ignore their results by default (task_ignore_result = True); only the export tasks the
    #   admin polls keep a result, for one day
    ("storefront-ops", "searching Sessel in the product admin finds nothing", ["so-f17"]),
    #   past: [so-f17] product names live in django-parler translation rows; search_fields looked at the empty base
    #   column; now searches translations__name
    ("storefront-ops", "add a test for the order cancel endpoint", []),
    ("storefront-ops", "rename the Lieferant column in the supplier admin to Supplier", []),
    ("storefront-ops", "bump django to 4.2.16", []),
    ("storefront-ops", "fix typo in README setup section", []),
    ("storefront-ops", "add some logging to the refund view", []),
    ("storefront-ops", "migration adding a notes field to Customer", []),
    ("storefront-ops", "cache pip downloads in the github workflow", []),
    ("storefront-ops", "new endpoint listing open orders for the scanner app", []),
    ("storefront-ops", "make the product list in the admin sortable by price", []),
    # --- thermo-fw ---
    ("thermo-fw", "thermostat reboots every few hours", ["fw-f1"]),
    #   past: [fw-f1] the task watchdog fired because the MQTT reconnect did a blocking TLS handshake over 5 s on the
    #   executor; the handshake moved to its own task and a supervisor task feeds the watchdog
    ("thermo-fw", "temperature reads 2 degrees too high", ["fw-f2"]),
    #   past: [fw-f2] the SHT40 sits next to the LDO and the radio and self-heats the board; it is read with the
    #   radio in power save and a fixed offset calibrated per board revision
    ("thermo-fw", "ota bricked my dev board", ["fw-f3"]),
    #   past: [fw-f3] the new image marked itself valid at boot before it proved it could reach the broker, so the
    #   bootloader never rolled back; mark_app_valid is called only after the first MQTT CONNACK
    ("thermo-fw", "remind me why we went with embassy and not esp-idf std", ["fw-d1"]),
    #   past: [fw-d1] embassy async on bare metal (esp-hal) instead of esp-idf with std: smaller image, no FreeRTOS,
    #   deterministic tasks; cost: writing our own MQTT client glue and fewer ready drivers
    ("thermo-fw", "error: linking with `rust-lld` failed ... region `dram_seg' overflowed by 9216 bytes", ["fw-f4"]),
    #   past: [fw-f4] the static TLS rx/tx buffers (16 KB each) exhausted RAM; reduced to 4 KB with the max fragment
    #   length extension, which the broker supports
    ("thermo-fw", "e-paper shows ghost digits after a day", ["fw-l1"]),
    #   past: [fw-l1] the e-paper panel needs a full refresh after at most 10 partial refreshes, or old pixels linger
    ("thermo-fw", "relay clicks on and off every few seconds", ["fw-d2", "fw-f5"]),
    #   past: [fw-d2] the control loop has a hysteresis of 0.3 degC around the set point and a minimum on/off time
    #   of 3 minutes to protect the boiler
    #   past: [fw-f5] a test unit's relay contacts welded after rapid cycling during a sensor glitch, before the
    #   minimum cycle time existed; sensor reads that jump more than 2 degC are now discarded
    ("thermo-fw", "provisioning over bluetooth fails on iphones", ["fw-f6"]),
    #   past: [fw-f6] iOS caches the GATT table; after a firmware update changed characteristics iPhones used stale
    #   handles; the firmware now exposes the Service Changed characteristic and indicates it after an update
    ("thermo-fw", "error[E0463]: can't find crate for `core` on the CI runner", ["fw-f7"]),
    #   past: [fw-f7] the runner lacked the riscv32imc-unknown-none-elf target; rust-toolchain.toml lists the
    #   target and components, and the CI cache key includes that file
    ("thermo-fw", "where are the wifi credentials stored", ["fw-d3"]),
    #   past: [fw-d3] Wi-Fi credentials and the device's MQTT client key live in the NVS partition, encrypted with
    #   flash encryption; never compiled into the image; written during BLE provisioning
    ("thermo-fw", "defmt output is garbage", ["fw-l2"]),
    #   past: [fw-l2] defmt decodes log frames with the exact ELF that was flashed; probe-rs run with another build's
    #   ELF shows malformed frames; CI keeps the ELF next to every released binary
    ("thermo-fw", "readings arrive out of order in the cloud dashboard", ["fw-d4"]),
    #   past: [fw-d4] telemetry is published at QoS 0 with a sequence number and the device timestamp, the backend
    #   orders by sequence; commands use QoS 1
    ("thermo-fw", "device drops off the wifi at night", ["fw-f8"]),
    #   past: [fw-f8] with power save and listen interval 10 the station missed the access point's group key
    #   rekey and was deauthenticated; listen interval 3 and reconnect with exponential backoff
    ("thermo-fw", "hil tests time out randomly", ["fw-f9"]),
    #   past: [fw-f9] switching the relay board made the unpowered USB hub reset and drop the debug probe; powered
    #   hub, flyback diode on the relay coil, and the harness re-attaches the probe once
    ("thermo-fw", "clock on the display was off by an hour since sunday", ["fw-f10"]),
    #   past: [fw-f10] the time zone was stored as a fixed UTC offset, so daylight saving changes were missed; now a
    #   POSIX TZ string is stored and applied on the device
    ("thermo-fw", "i2c bus stuck after a brownout", ["fw-f11"]),
    #   past: [fw-f11] the SHT40 held SDA low after a transaction cut by a reset; at init the driver clocks SCL nine
    #   times and sends a STOP to free the bus
    ("thermo-fw", "heapless or alloc for the json payloads?", ["fw-d5"]),
    #   past: [fw-d5] no global allocator in the firmware; JSON is serialized with serde-json-core into heapless
    #   buffers sized at compile time
    ("thermo-fw", "release build doesn't fit in the ota partition anymore", ["fw-f12", "fw-d6"]),
    #   past: [fw-f12] panic messages and core::fmt pulled into the release build pushed it over the slot size;
    #   release profile uses panic-halt, opt-level "z", lto and codegen-units 1
    #   past: [fw-d6] the partition table of the 4 MB flash: two OTA slots of 1.9 MB, 64 KB NVS, otadata, no factory
    #   app
    ("thermo-fw", "heating schedule gone after a power cut", ["fw-f13"]),
    #   past: [fw-f13] schedule edits were written to NVS by a 60 s debounce timer, and a power loss inside that
    #   window lost them; now written right away, NVS wear levelling is enough
    ("thermo-fw", "set point from the app arrives at the broker but the unit ignores it", ["fw-f14"]),
    #   past: [fw-f14] after a reconnect with a clean session the broker dropped the subscription and the firmware
    #   did not resubscribe to the command topic; now resubscribes when CONNACK says session_present = 0
    ("thermo-fw", "rev C board has the sensor on other pins", ["fw-d7"]),
    #   past: [fw-d7] the board revision is read from strapping resistors at boot into a BoardConfig (pins, I2C
    #   addresses, calibration) in board.rs, not selected by cargo features, so one image runs on every revision
    ("thermo-fw", "update server says no update available though the new build is uploaded", ["fw-l3"]),
    #   past: [fw-l3] the OTA server offers an image only if its semver from Cargo.toml is greater than the device's;
    #   the version must be bumped for every release, a rebuild with the same version is refused
    ("thermo-fw", "turning on flash encryption for the production batch, anything to watch out for?",
     ["fw-l4", "fw-d3"]),
    #   past: [fw-l4] flash encryption in release mode burns eFuses and cannot be undone; dev boards use development
    #   mode; a test unit was lost by burning release mode on it
    ("thermo-fw", "add a unit test for the schedule parser", []),
    ("thermo-fw", "bump embassy-executor to the latest", []),
    ("thermo-fw", "rename tmp_c to temperature_c in the telemetry struct", []),
    ("thermo-fw", "fix the clippy warnings in the display module", []),
    ("thermo-fw", "update README flashing instructions for windows", []),
    ("thermo-fw", "log a line whenever the relay switches", []),
    ("thermo-fw", "show humidity on the home screen of the display", []),
    ("thermo-fw", "ci: run cargo fmt --check as its own job", []),
    ("thermo-fw", "add an mqtt command to reboot the device", []),
    # --- lakehouse ---
    ("lakehouse", "snowflake bill doubled this month??", ["lk-f1", "lk-d1"]),
    #   past: [lk-f1] Terraform set auto_suspend = 3600 on TRANSFORM_WH, so the warehouse idled for an hour after
    #   every dbt run; credits doubled; back to 60 seconds
    #   past: [lk-d1] one warehouse per workload (LOAD_WH, TRANSFORM_WH, BI_WH), size XSMALL, auto_suspend 60,
    #   resource monitors per warehouse, so cost shows per workload
    ("lakehouse", "orders_daily has duplicate rows", ["lk-f2"]),
    #   past: [lk-f2] the incremental model had no unique_key, so re-processing late-arriving data appended rows;
    #   unique_key set and incremental_strategy merge
    ("lakehouse", "the dag didn't run yesterday", ["lk-f3"]),
    #   past: [lk-f3] start_date was datetime.now(), so the scheduler never saw a finished interval and never
    #   triggered; start_date is a fixed pendulum date and catchup=False
    ("lakehouse", "why dbt core and not dbt cloud again", ["lk-d2"]),
    #   past: [lk-d2] dbt Core run from Airflow with the Cosmos-like task split instead of dbt Cloud: one
    #   scheduler, lineage per model in Airflow, no per-seat cost
    ("lakehouse", "revenue in looker doesn't match what finance reports", ["lk-f4", "lk-d8"]),
    #   past: [lk-f4] stg_payments filtered status != 'failed', so refunds (negative payments, status 'refunded')
    #   were summed into gross revenue twice
    #   past: [lk-d8] revenue as agreed with finance: net of refunds and VAT, converted to EUR at the order date's
    #   rate, recognized at shipment
    ("lakehouse", "Database Error 002003 (02000): SQL compilation error: Object 'RAW.SHOPIFY.ORDERS' does not exist "
     "or not authorized", ["lk-f5"]),
    #   past: [lk-f5] a new Fivetran connector created its schema as the FIVETRAN role and the TRANSFORMER role had
    #   no grants on it; future grants on RAW's schemas are now managed in Terraform
    ("lakehouse", "naming for a new staging model?", ["lk-d3"]),
    #   past: [lk-d3] model naming: stg_<source>__<entity> one per source table with renames and casts only, int_
    #   for intermediate, fct_ and dim_ in marts
    ("lakehouse", "need to backfill march for the events table", ["lk-l1"]),
    #   past: [lk-l1] backfill the incremental events model with dbt vars start_date/end_date, one month per run
    #   and max_active_runs 1; overlapping runs delete each other's partitions
    ("lakehouse", "customer snapshot table is 400 GB", ["lk-f6"]),
    #   past: [lk-f6] the dbt snapshot used the check strategy on all columns including last_seen_at, so every
    #   customer got a new version each day; switched to check_cols on the business columns
    ("lakehouse", "tasks sit in queued forever", ["lk-f7", "lk-l6"]),
    #   past: [lk-f7] S3KeySensors in poke mode held every worker slot on MWAA; sensors now use mode="reschedule"
    #   past: [lk-l6] deferrable operators need the triggerer, which MWAA only runs from Airflow 2.7 environments;
    #   check the environment version before using deferrable=True
    ("lakehouse", "not_null test fails on stg_stripe__charges.customer_id", ["lk-d4"]),
    #   past: [lk-d4] guest checkouts have no customer id and keep null; the not_null test has a where clause that
    #   excludes guest charges
    ("lakehouse", "marketing dashboard takes forever to load", ["lk-d5"]),
    #   past: [lk-d5] Looker explores on the raw sessions fact were too slow; agg_sessions_daily is materialized as
    #   a table by dbt and the explores read it; aggregate awareness in LookML for the rest
    ("lakehouse", "some app event timestamps are in the future", ["lk-f8"]),
    #   past: [lk-f8] the mobile SDK sends the client's local time without offset and the loader parsed it as UTC;
    #   partitioning now uses the server received_at, client time kept as text
    ("lakehouse", "can analysts see customer emails in snowflake?", ["lk-d6"]),
    #   past: [lk-d6] masking policies on email and phone columns; only the PII_READER role sees clear values, and
    #   analysts query the masked marts
    ("lakehouse", "fivetran sync broke after they renamed a column in the source db", ["lk-l3"]),
    #   past: [lk-l3] Fivetran keeps the old column and adds the renamed one; staging models coalesce new and old
    #   column; schema change handling is set to allow columns
    ("lakehouse", "dbt run takes 40 min now, used to be 12", ["lk-f9"]),
    #   past: [lk-f9] int_sessions was a view used by 12 marts and recomputed by each; materialized as a table
    ("lakehouse", "lint job fails with templating errors on ref()", ["lk-l4"]),
    #   past: [lk-l4] sqlfluff must use the dbt templater with a profiles dir in CI; the jinja templater cannot
    #   render dbt macros
    ("lakehouse", "Broken DAG: ModuleNotFoundError: No module named 'plugins.operators'", ["lk-f10"]),
    #   past: [lk-f10] MWAA unpacks plugins.zip at the top of the path, so imports are `from operators import`; the
    #   zip must be uploaded and the environment updated for a change to show
    ("lakehouse", "fct_orders_eur has null amounts on sundays", ["lk-f11"]),
    #   past: [lk-f11] the ECB publishes no exchange rates on weekends and holidays; dim_fx_rates now forward-fills
    #   the last published rate
    ("lakehouse", "can I drop the tables in ANALYTICS_OLD", ["lk-d7"]),
    #   past: [lk-d7] retired schemas are kept 90 days after the switch, then dropped after a zero-copy clone to an
    #   ARCHIVE database; time travel is 7 days in prod and 1 day in dev
    ("lakehouse", "my dev run overwrote the prod marts!!", ["lk-f12"]),
    #   past: [lk-f12] the overridden generate_schema_name macro ignored the target, so dev builds wrote into the prod
    #   schemas; the custom schema is used only for target prod, dev writes to dbt_<user>
    ("lakehouse", "we stopped getting slack alerts when a dag fails", ["lk-f13"]),
    #   past: [lk-f13] security rotated the Slack webhook in the Airflow connection and the on_failure_callback
    #   swallowed the 403; the callback now logs its errors and a heartbeat check alerts on silence
    ("lakehouse", "partner files land in snowflake a day late", ["lk-f14"]),
    #   past: [lk-f14] the S3 sensor waited for a _SUCCESS marker the partner stopped writing, timed out after 24 h
    #   and the next run picked the files up; the sensor now waits on the file prefix with a wildcard
    ("lakehouse", "add an accepted_values test on order status", []),
    ("lakehouse", "write column docs for fct_orders", []),
    ("lakehouse", "bump dbt-snowflake to 1.8", []),
    ("lakehouse", "new dag to load the hubspot export from s3", []),
    ("lakehouse", "fix the typo in the readme about profiles.yml", []),
    ("lakehouse", "add a discount_amount column to fct_orders", []),
    ("lakehouse", "create a looker view for the returns table", []),
    ("lakehouse", "ci should only build changed models", []),
    ("lakehouse", "log row counts in the load task", []),
]
