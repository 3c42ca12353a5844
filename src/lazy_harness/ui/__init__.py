"""``lh ui``: a local page over the memory. The server (:mod:`.server`); what it reads: the projects
(:mod:`.reading`), memory's entries, open items and learnings (:mod:`.memory_lists`), held entries and
usage (:mod:`.held_and_usage`), the queue and spend (:mod:`.queue_and_spend`, :mod:`.queue_tasks`), what
the hooks injected (:mod:`.hook_log`), each file read once while unchanged (:mod:`.file_reads`); the
page's sections (:mod:`.sections`) and actions (:mod:`.actions`); the assets in ``static/`` ship as
package data."""
