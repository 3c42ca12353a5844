"""Cues for the entries of recall_set, written by following the distill prompt's cue rule
entry by entry, from the entries alone, without access to any prompt of the evaluation.
Filler entries take their template's cues with the component's name in place of {c}.
"""

TARGETS = {
    "s-d1": [
        "european customers' cards keep getting declined at checkout",
        "how do we handle 3d secure when charging a card",
        "which stripe api should we use to take payments",
    ],
    "s-d2": [
        "admin page times out when uploading big product photos",
        "where do product thumbnails get generated",
        "make product image uploads faster in the admin",
    ],
    "s-d3": [
        "order report counts one hour twice when clocks change",
        "how should we store dates for shoppers in other timezones",
        "times on the site are off by an hour",
    ],
    "s-d4": [
        "add login with google and apple",
        "users get logged out when their google token expires",
        "link a social login to an existing customer account",
    ],
    "s-d5": [
        "where is the shopping cart stored",
        "database hammered by writes from guest shoppers",
        "how does a guest cart become an order",
    ],
    "s-d6": [
        "turn a promotion on without deploying",
        "how do i add a new feature switch",
        "marketing wants to toggle a sale themselves",
    ],
    "s-d7": [
        "how is sales tax calculated at checkout",
        "tax amount looks wrong for one us state",
        "tax total does not update right after cart change",
    ],
    "s-f1": [
        "checkout crashes with a 500 right after payment",
        "payment webhook says the order does not exist",
        "payment went through but the order lookup fails sometimes",
    ],
    "s-f2": [
        "password reset email lands in the junk folder",
        "hotmail users are not getting our emails",
        "what to check after changing the email sending service",
    ],
    "s-f3": [
        "category page takes forever to load",
        "way too many sql queries on one page",
        "how to catch query count regressions in tests",
    ],
    "s-f4": [
        "add a required column to a big table safely",
        "deploy froze the orders table during a migration",
        "how to run migrations on postgres without downtime",
    ],
    "s-f5": [
        "background tasks stopped running but workers look alive",
        "celery queue keeps growing after redis restarted",
        "workers not picking up any jobs",
    ],
    "s-f6": [
        "customer got the same coupon discount twice",
        "double click submits the form twice",
        "stop a promo code from being stacked",
    ],
    "s-l1": [
        "on_commit callback never runs in my test",
        "test expecting a task queued after save fails",
        "email sent after commit never shows up in tests",
    ],
    "s-l2": [
        "payment succeeded event arrives before the session completed one",
        "webhook handler breaks depending on which event comes first",
        "can stripe deliver events in a different order",
    ],
    "e-d1": [
        "how should raw data be laid out in the bucket",
        "nightly job scans too much data and costs too much",
        "csv or parquet for the raw extracts",
    ],
    "e-d2": [
        "two airflow tasks need different pandas versions",
        "shared worker broke after one task upgraded a library",
        "give one pipeline task its own dependencies",
    ],
    "e-d3": [
        "where should i put a new transformation",
        "can i do the data cleanup in python inside the dag",
        "analysts want to review the transform logic",
    ],
    "e-d4": [
        "events from phones arrive days late and go missing",
        "daily numbers change a few days after the fact",
        "incremental model skips late data",
    ],
    "e-d5": [
        "where do passwords for the source databases live",
        "how to add an api key for a new source system",
        "every dag author can see the connection passwords",
    ],
    "e-d6": [
        "snowflake bill suddenly huge this month",
        "warehouse keeps running when nobody is querying",
        "how to cut snowflake credit usage",
    ],
    "e-f1": [
        "rows doubled in the table after the job retried",
        "is it safe to rerun a failed load",
        "duplicate rows in the warehouse after a backfill",
    ],
    "e-f2": [
        "pod killed out of memory while reading a huge csv",
        "process a file bigger than memory with pandas",
        "extract task dies with exit code 137",
    ],
    "e-f3": [
        "dbt build fails in ci but works in prod",
        "ci says a source or model is not found",
        "how to run dbt checks in ci against an empty schema",
    ],
    "e-f4": [
        "airflow stopped scheduling new runs",
        "dags not triggering, scheduler seems stuck",
        "airflow database disk is almost full",
    ],
    "e-f5": [
        "daily revenue is a day off for australian customers",
        "which date should events be grouped by for reports",
        "daily totals don't match what customers see locally",
    ],
    "e-l1": [
        "script only processes some of the files in the bucket",
        "listing s3 keys stops at exactly 1000",
        "how to list every object under a prefix",
    ],
    "e-l2": [
        "reading the parquet folder fails with a type mismatch",
        "can i change a column's type in existing parquet files",
        "error merging schemas across partitions",
    ],
    "e-l3": [
        "dag run date is one day behind what i expect",
        "which day's data does my daily dag process",
        "why does yesterday's run only start today",
    ],
    "f-d1": [
        "where does the app keep data when there's no signal",
        "asyncstorage too slow with lots of work orders",
        "how do offline changes reach the server later",
    ],
    "f-d2": [
        "ship a quick fix without waiting for app store review",
        "how do we build and release the mobile app",
        "push a javascript change straight to users' phones",
    ],
    "f-d3": [
        "photo uploads take forever on bad mobile coverage",
        "what size are site photos when uploaded",
        "technicians can't upload pictures before closing the job",
    ],
    "f-d4": [
        "screen transitions laggy on cheap android phones",
        "which navigation library does the app use",
        "navigation animation stutters when opening a screen",
    ],
    "f-d5": [
        "two technicians edited the same job, whose changes win",
        "customer signature disappeared after syncing",
        "how are conflicting offline edits merged",
    ],
    "f-f1": [
        "app crashes immediately on older android phones",
        "release build crashes at startup but debug works",
        "what to test before publishing after a react native upgrade",
    ],
    "f-f2": [
        "iphone users stopped getting push notifications",
        "notifications work in development but not in production",
        "what to check after renewing the apple push certificate",
    ],
    "f-f3": [
        "phone battery dies fast with the app running",
        "phone gets hot while the app tracks location",
        "how often should the app ask for gps position",
    ],
    "f-f4": [
        "same work order shows up twice on the server",
        "retry after a timeout creates duplicate records",
        "make sync requests safe to send again",
    ],
    "f-f5": [
        "signature comes out as a blank white image",
        "signature capture broken on a samsung tablet",
        "exported signature is sometimes empty",
    ],
    "f-l1": [
        "upload stops when the app goes to background on iphone",
        "how long can ios keep running a background task",
        "big upload fails when the user switches apps",
    ],
    "f-l2": [
        "my code changes don't show up in the app",
        "changed an env variable but the app uses the old value",
        "babel config change not taking effect",
    ],
    "i-d1": [
        "where is the terraform state stored",
        "two people ran terraform apply at the same time",
        "state file got corrupted, how do we prevent that",
    ],
    "i-d2": [
        "pods stuck pending for minutes waiting for a node",
        "how does the cluster add more nodes",
        "karpenter or cluster-autoscaler, which one do we run",
    ],
    "i-d3": [
        "how do we get https certificates for internal services",
        "let's encrypt http challenge fails for a private service",
        "add tls to a new internal hostname",
    ],
    "i-d4": [
        "one pod ate all memory and took the node down",
        "deploy rejected because resource limits are missing",
        "what cpu and memory should my pod ask for",
    ],
    "i-d5": [
        "how do i apply terraform changes to production",
        "can i run terraform apply from my laptop",
        "infra doesn't match what was reviewed in the pr",
    ],
    "i-d6": [
        "where do we look at application logs",
        "how long are logs and metrics kept",
        "elasticsearch too expensive, what do we use instead",
    ],
    "i-f1": [
        "api went down during the cluster upgrade",
        "all replicas evicted at once while draining nodes",
        "keep the service up while upgrading nodes",
    ],
    "i-f2": [
        "terraform plan wants to replace the database",
        "is it safe to bump the postgres version in terraform",
        "protect the production database from accidental deletion",
    ],
    "i-f3": [
        "file upload fails with 502 or 413 through ingress",
        "large uploads fail but small ones work",
        "raise the max request body size on nginx",
    ],
    "i-f4": [
        "browser shows a certificate warning on staging",
        "certificate did not renew automatically",
        "how do we find out before a cert expires",
    ],
    "i-f5": [
        "pods crash looping after deploy, can't reach the database",
        "new version times out connecting to postgres",
        "network policy blocks the new pods",
    ],
    "i-l1": [
        "restarting a statefulset hangs partway through",
        "rollout restart only replaced some of the pods",
        "one stuck pod blocks the others from restarting",
    ],
    "i-l2": [
        "aws bill is high because of the nat gateway",
        "why is traffic to s3 costing so much",
        "cut networking costs in the vpc",
    ],
    "i-l3": [
        "terraform error invalid for_each argument",
        "loop over values that are only known after apply",
        "plan fails when iterating over resources it creates",
    ],
    "g-l1": [
        "find which commit broke this test",
        "test used to pass, when did it start failing",
        "automate searching history for a regression",
    ],
    "g-l2": [
        "list keeps growing between function calls",
        "function remembers values from the previous call",
        "why is a default argument shared between calls in python",
    ],
    "g-l3": [
        "getting database is locked errors from sqlite",
        "several processes writing to sqlite at once",
        "sqlite fails under concurrent writes",
    ],
    "g-l4": [
        "docker build reinstalls all packages on every code change",
        "speed up slow docker builds",
        "docker layer cache is not being used",
    ],
}

DECISION_TEMPLATES = [
    [
        "why can't most users see the {c} yet",
        "when does the {c} go live for everyone",
        "hide an unfinished feature from most users",
    ],
    [
        "where does the {c} code live",
        "changes to the {c} keep breaking other things",
        "how should other code call into the {c}",
    ],
    [
        "{c} is slow, redoing the same work every request",
        "why does the {c} take a few minutes to update",
        "speed up the {c} responses",
    ],
    [
        "how do i find {c} events in the logs",
        "what log format does the {c} use",
        "searching logs during an incident takes forever",
    ],
    [
        "who is responsible for the {c}",
        "who should review changes to the {c}",
        "{c} broke and nobody picked it up",
    ],
]

FAILURE_TEMPLATES = [
    [
        "{c} stopped working after updating packages",
        "minor version upgrade changed behaviour without warning",
        "should we pin exact dependency versions",
    ],
    [
        "{c} shows old data after an update",
        "changes don't show up until an hour later",
        "cache not cleared after saving",
    ],
    [
        "{c} returns empty results instead of an error",
        "{c} failing quietly with nothing in the logs",
        "find where exceptions are being ignored",
    ],
]

LEARNING_TEMPLATES = [
    [
        "{c} cuts off long input without any warning",
        "is there a max length for the {c}",
        "data gets truncated but no error is raised",
    ],
    [
        "who knows how the {c} works",
        "original author of the {c} left the team",
        "who maintains the {c} now",
    ],
]
