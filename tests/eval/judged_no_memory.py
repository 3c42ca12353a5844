"""An independent judgement of the no-memory prompts of ``tests.eval.recall_blind``: for each prompt
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
}
