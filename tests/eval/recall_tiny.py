"""A tiny evaluation set for tests of the evaluation itself (``test_recall_sweep.py``): a few entries
of two projects and a general learning, prompts that the default bar finds, misses and lets noise
through on. Not a measure of recall; ``recall_set`` is.
"""

from tests.eval.recall_set import D, F, H, L

PROJECTS = ("shop", "pipes")

ENTRIES = [
    D("s-d1", "shop", "Charge cards through Stripe PaymentIntents, never the legacy Charges API",
      "PaymentIntents handle 3-D Secure challenges required for European cards", tags=("payments",)),
    D("s-d2", "shop", "Cart contents live in Redis keyed by session, copied to Postgres at checkout",
      "Anonymous carts were writing thousands of rows per hour to the orders database"),
    F("s-f1", "shop", "Password reset emails went to spam for Outlook users",
      "SPF record did not include the transactional mail provider",
      "Check SPF and DKIM after any change of email sender or DNS"),
    H("s-h1", "shop", "Finish partial refunds for orders with returned items"),
    D("p-d1", "pipes", "Land source exports as Parquet files partitioned by day",
      "CSV lost column types and was ten times larger"),
    F("p-f1", "pipes", "The nightly load ran twice and duplicated every row",
      "Two schedulers were running after a failover", "Take a Postgres advisory lock before loading"),
    L("p-l1", "pipes", "Airflow's logical date is the start of the interval",
      "A daily run on the 2nd has logical date the 1st; use data_interval_end for today's partition."),
    L("g-l1", "side-tool", "Docker COPY invalidates the cache for every later layer",
      "Copy requirements.txt and install dependencies before copying the source.", scope="general"),
]

# (project, prompt, expected keys)
PROMPTS = [
    ("shop", "european cards fail the 3-d secure step at checkout", ["s-d1"]),
    ("shop", "why do guest carts live in redis and not postgres", ["s-d2"]),
    ("shop", "outlook users never get the password reset email", ["s-f1"]),
    ("shop", "continue the refunds for partially returned orders", ["s-h1"]),
    ("pipes", "the nightly load duplicated rows again after the failover", ["p-f1"]),
    ("pipes", "what file format do we land the exports in", ["p-d1"]),
    ("pipes", "docker rebuild reinstalls every dependency when the source changes", ["g-l1"]),
    ("pipes", "the daily run writes into yesterday's partition", ["p-l1"]),
    # no relevant memory
    ("shop", "draft a polite reply declining the conference invitation", []),
    ("pipes", "what is the worst case of quicksort on sorted input", []),
    ("shop", "rename the checkout button label to pay now for european users", []),
]
