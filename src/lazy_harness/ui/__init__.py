"""``lh ui``: a local page over the memory. The server (:mod:`.server`), what it reads
(:mod:`.reading`), the page's sections (:mod:`.sections`) and actions (:mod:`.actions`); the assets
in ``static/`` ship as package data."""
