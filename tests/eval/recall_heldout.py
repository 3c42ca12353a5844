"""The held-out part of the prompt recall set: more prompts over the same memory (``recall_set.ENTRIES``),
written before the method was last changed and not looked at while changing it. Each is a second
way of asking for an entry, sharing at most one content word with it. The evaluation reports this
part apart from the development part, so a change that only fits the development prompts shows.
"""

# (project, prompt, expected keys)
PROMPTS = [
    ("shopfront", "german shoppers get stuck on the 3ds popup from their bank", ["s-d1"]),
    ("shopfront", "uploading a big jpg in the backoffice never finishes", ["s-d2"]),
    ("shopfront", "support iphone users logging in via their apple id", ["s-d4"]),
    ("shopfront", "people on microsoft mail say our 'forgot login' messages get flagged as junk", ["s-f2"]),
    ("shopfront", "the products-by-type listing takes ages to render, the orm hits the db hundreds of times", ["s-f3"]),
    ("shopfront", "background jobs quit picking up work once the cache cluster failed over", ["s-f5"]),
    ("shopfront", "somebody stacked the same promo codes by tapping quickly", ["s-f6"]),
    ("shopfront", "can I rely on stripe notifications arriving in sequence", ["s-l2"]),
    ("shopfront", "resume the money-back work for orders that are only half returned", ["s-h1"]),
    ("etl-pipes", "what file format do we land the source exports in", ["e-d1"]),
    ("etl-pipes", "where do api keys for the upstream systems live for the pipelines", ["e-d5"]),
    ("etl-pipes", "compute credits vanish over the weekend when nobody queries", ["e-d6"]),
    ("etl-pipes", "the 12gb export makes the container die with exit 137", ["e-f2"]),
    ("etl-pipes", "airflow quit kicking off anything, the backing postgres volume is full", ["e-f4"]),
    ("etl-pipes", "sydney and tokyo sales land on the wrong calendar day", ["e-f5"]),
    ("etl-pipes", "why does the scheduled run's logical timestamp point at the previous period", ["e-l3"]),
    ("etl-pipes", "analysts want the business logic somewhere they can read it", ["e-d3"]),
    ("fieldapp", "push a hotfix to techs' phones without going through apple review", ["f-d2"]),
    ("fieldapp", "merge rules when two people change one ticket while disconnected", ["f-d5"]),
    ("fieldapp", "the tracking eats the phone's charge in a few hours", ["f-f3"]),
    ("fieldapp", "server ends up with two copies of the same ticket after a timeout", ["f-f4"]),
    ("fieldapp", "large file transfer stops once the user switches to another app on iphone", ["f-l1"]),
    ("infra-live", "what prevents two engineers from clobbering the tf statefile at once", ["i-d1"]),
    ("infra-live", "how do private hosts get their https certs issued", ["i-d3"]),
    ("infra-live", "retention period for our observability data?", ["i-d6"]),
    ("infra-live", "bumping the k8s version made the backend unreachable while machines were rotated", ["i-f1"]),
    ("infra-live", "large file posts fail with a gateway error at the load balancer", ["i-f3"]),
    ("infra-live", "why is our aws networking bill so big for bucket downloads", ["i-l2"]),
    ("etl-pipes", "function arg initialized to {} keeps state across invocations", ["g-l2"]),
    ("infra-live", "container builds re-download every dependency whenever one line of the app changes", ["g-l4"]),
    # no relevant memory
    ("shopfront", "draft a polite reply declining the conference invitation", []),
    ("etl-pipes", "what is the big-o of quicksort in the worst case", []),
    ("fieldapp", "make the heading font a bit bigger on the about screen", []),
    ("infra-live", "give me a bash one-liner that counts lines in all markdown files", []),
    ("etl-pipes", "write unit tests for this string padding helper", []),
    ("fieldapp", "suggest names for the new mascot of our app", []),
]
