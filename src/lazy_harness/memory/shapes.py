"""Names for the shapes memory and the worker pass around, for the type checker only.

Imported under ``TYPE_CHECKING`` and never at run time: this module imports ``typing``, which the
modules the hooks load must not (house style §3), so naming a shape here costs a hook nothing.
"""

from collections.abc import Mapping
from typing import Any

# the process environment or a stand-in for it (``os.environ``, a test's dict): read, never changed
Env = Mapping[str, str]

# why Any: a parsed JSON object whose fields are not all checked yet: a line of decisions.jsonl,
# failures.jsonl, handoff.jsonl or marks.jsonl, a learning's frontmatter, a task's fields, a model's
# answer. Whoever reads a field checks its type there (isinstance, ``or ""``), as the store's readers do.
Record = dict[str, Any]
