"""The hooks' modules loaded from one file: what a hook's start spent on finding and reading ~30 files.

A hook is a new interpreter every time. Each module it imports is found on disk (the finder's
directory cache, a ``stat`` of the source to validate its ``.pyc``), read and unmarshalled: about
45 us a module beyond the unmarshalling and the module's own code, measured here, some 1.3 ms of
SessionStart's start in the import machinery alone (docs/adr/0050). So the modules of the
hot path (``HOT``) are compiled into one file, the bundle, in the user's cache folder::

    <cache dir>/hooks/<cache tag>-<number of the install's folder>.bin
        MAGIC, 4 bytes: the header's length, the header (marshal: {"python": sys.version, "parent":
        the folder holding the package, "modules": {name: (source relative to it, mtime_ns, size,
        offset, length, is_package)}}), then each module's code object (marshal), one after another

and the hook's launcher (``hooks/launch.py``) puts a finder for it first on ``sys.meta_path``. A module
is served from the bundle only while its source has the size and mtime it was compiled from (one
``stat``, as the ``.pyc`` check makes), only by an interpreter of the same ``sys.version`` and for the
install it was written from; anything else (a module not in the bundle, a changed source, a damaged
or missing bundle) is imported as always.

The bundle is code, so it is used only where no other user could have written it or swapped it in:
the folder holding the cache folder one in which no other user can rename (the user's or root's, not
writable by others unless sticky), the cache folder and its ``hooks`` folder the user's own and closed
to others' writes, the file too (private.py, ADR 0031). Each is opened in the one before it by its
descriptor, without following a link, and judged by that descriptor's ``fstat``; the bundle is read
from the descriptor that was judged, and written through the same descriptors. Each user has their
own (a shared, read-only install too); uninstalling the package leaves nothing in its folder.

Written by ``lh hooks install`` and brought up to date by the worker at each run (:func:`refresh`),
so an upgrade is picked up after the next session.

Hot path: ``os``, ``sys``, ``marshal`` (built in), ``paths`` and ``private`` (which the hooks' entry
imports anyway).
"""

from __future__ import annotations

import marshal
import os
import sys

from lazy_harness import paths, private

TYPE_CHECKING = False  # why: not typing's: the hook's launcher loads this module (house style section 3)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

MAGIC = b"LHHOT1\n"
# the modules a hook may load (tests/hooks/test_entry_imports.py holds the hooks to this list): the
# launcher, the entry, the event modules and what they share, each light at import time
HOT = (
    "lazy_harness", "lazy_harness.hotload", "lazy_harness.hooks", "lazy_harness.hooks.launch",
    "lazy_harness.hooks.entry", "lazy_harness.hooks.stop", "lazy_harness.hooks.session_end",
    "lazy_harness.hooks.session_start", "lazy_harness.hooks.headless", "lazy_harness.hooks.producer",
    "lazy_harness.hooks.user_prompt",
    # each imported only on its rare path: the settings files' commands read again (a plugin's run after
    # they changed), the plugin's first start, a pull, a migration, a start with something to tell once
    "lazy_harness.hooks.settings_commands", "lazy_harness.hooks.plugin_welcome", "lazy_harness.hooks.start_pull",
    "lazy_harness.hooks.start_migration", "lazy_harness.hooks.told_once",
    "lazy_harness.hook_command",  # no imports: which commands of a settings file are ours (settings_commands)
    "lazy_harness.paths", "lazy_harness.project_identity", "lazy_harness.config", "lazy_harness.config.schema",
    "lazy_harness.atomic", "lazy_harness.private",  # os-only: whether a folder of ours is the user's own
    "lazy_harness.regular_file",  # os-only: a file opened without waiting, refused unless it is a regular one
    "lazy_harness.read_record",  # os and sys: what a run read, and whether it still reads the same
    "lazy_harness.remote_spelling",  # os-only: a remote's spellings read as one (project_identity.origin)
    "lazy_harness.logfile", "lazy_harness.jsonload", "lazy_harness.errors", "lazy_harness.detach",
    "lazy_harness.sha",  # nothing at import: the interpreter's own SHA-256 (the turn digest, approvals)
    "lazy_harness.notice",  # os-only: the person's notice
    "lazy_harness.queue", "lazy_harness.queue.sweep", "lazy_harness.queue.task", "lazy_harness.queue.state",
    "lazy_harness.queue.turn", "lazy_harness.queue.produce", "lazy_harness.queue.consume",
    "lazy_harness.queue.probe",  # os-only: whether tasks wait for a worker, whether distillation fails
    "lazy_harness.queue.submit", "lazy_harness.queue.retain",  # os-only: kept transcripts
    # os-only: what the index's writer saw against the files (SessionStart), and the index task it asks for
    "lazy_harness.recall.index.writer", "lazy_harness.queue.index_task",
    "lazy_harness.memory", "lazy_harness.memory.files", "lazy_harness.memory.migrate", "lazy_harness.memory.ids",
    "lazy_harness.memory.sanitize", "lazy_harness.memory.state", "lazy_harness.memory.handoff",
    "lazy_harness.memory.handoff_log", "lazy_harness.memory.handoff_markdown", "lazy_harness.memory.marks",
    "lazy_harness.memory.handoff_held",  # ids-only at import: the held mark of a rendered note
    "lazy_harness.memory.lines",  # jsonload-only: one line read, salvaged or skipped
    "lazy_harness.memory.standing",  # of the lines of one id, the one shown (ids and provenance only)
    "lazy_harness.memory.aliases",  # jsonload-only: a project's earlier keys, one small file read
    "lazy_harness.memory.last_key",  # os-only: the key a project was last written under (migrate)
    "lazy_harness.memory.migrate_merge",  # an old file brought over, at the start that migrates (migrate)
    "lazy_harness.memory.frontmatter",  # learning frontmatter read without YAML (jsonload-only)
    "lazy_harness.memory.frontmatter_scan", "lazy_harness.memory.frontmatter_scalars",  # its scan, string methods only
    "lazy_harness.memory.own_title",  # ids-only: another project's learning of a title this one has (ADR 0071)
    # trust at read-back (ADR 0024): os-only at import time; re only for a text the cheap look sends on
    "lazy_harness.memory.trust", "lazy_harness.memory.fence", "lazy_harness.memory.provenance",
    "lazy_harness.memory.lineage",  # os and jsonload only: a session's own ids (a fork's parents)
    "lazy_harness.memory.held", "lazy_harness.recall.prompt.admit",
    "lazy_harness.memory.verdicts",  # jsonload-only: the check's verdicts kept per text
    "lazy_harness.memory.approval",  # os-only: the approvals in memory, their adoption (SessionStart)
    "lazy_harness.memory.approval_key",  # os-only: the person's key and an approval's MAC (_sha256 at call time)
    "lazy_harness.memory.usage",  # os and jsonload only: one line per showing, the usage ranks (ADR 0036)
    "lazy_harness.memory.intent",  # os and jsonload only: a killed writer's unfinished persist (a stat)
    # the recall subpackages' __init__ hold only a docstring (ADR 0047)
    "lazy_harness.recall", "lazy_harness.recall.readback", "lazy_harness.recall.prompt", "lazy_harness.recall.index",
    "lazy_harness.recall.embed", "lazy_harness.recall.resident",
    "lazy_harness.recall.readback.digest", "lazy_harness.recall.readback.codex_fit",  # the second: Codex's starts
    "lazy_harness.recall.readback.learnings",  # os-only: SessionStart's learning heads, kept while unchanged
    "lazy_harness.recall.readback.prepared",  # os-only: the start's read-back, kept while what it read is unchanged
    "lazy_harness.recall.readback.older_own",  # os-only: the names of learnings older than the start's candidates
    "lazy_harness.recall.prompt.worth_searching", "lazy_harness.recall.prompt.recall",
    "lazy_harness.recall.prompt.rank", "lazy_harness.recall.prompt.already_shown",
    "lazy_harness.recall.index.store", "lazy_harness.recall.index.sources", "lazy_harness.recall.index.terms",
    "lazy_harness.recall.index.lookup",  # reading the index: the bounded word lists (math, heapq only)
    "lazy_harness.recall.index.porter",  # a prompt's words as the index holds them (no imports; ADR 0049)
    # the prompt's vector and the candidates' kept vectors (ADR 0025)
    "lazy_harness.recall.embed.static_model", "lazy_harness.recall.embed.vectors",
    "lazy_harness.recall.resident.client",  # asking the resident answerer (_socket at call time; ADR 0029)
)


def package_parent() -> str:
    """The folder holding this ``lazy_harness`` (site-packages, or src/ of an editable install)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bundle_file(parent: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """Where the bundle of the ``lazy_harness`` in ``parent`` (this one by default) lives for this
    interpreter (its cache tag, as a ``.pyc`` is named) and the user of ``env``."""
    # why a number of the folder: two installs sharing a HOME (a virtualenv, the plugin's) keep one
    # bundle each instead of writing one over the other; hash() of an int is not salted per process
    number = hash(int.from_bytes(os.fsencode(parent or package_parent()), "little")) & 0xFFFFFFFF
    return os.path.join(paths.cache_dir(env), "hooks", f"{sys.implementation.cache_tag or 'none'}-{number:08x}.bin")


def problem(path: str, env: Mapping[str, str] | None = None) -> str | None:
    """Why the bundle at ``path`` (:func:`bundle_file`'s for ``env``) may not be used as code of ours
    (another user could have written it, or swapped it in), or None (also when it is missing)."""
    fd, why = _open_bundle(os.path.basename(path), env)
    if fd is not None:
        os.close(fd)
    return why


def _open_hooks(env: Mapping[str, str] | None, make: bool = False) -> tuple[int | None, str | None]:
    """The bundle's folder (``<cache>/hooks``) opened by descriptors, each step checked on its own
    ``fstat`` before the next is opened in it (private.py): the folder holding the cache folder lets
    no other user rename in it, the cache folder and ``hooks`` are the user's own, closed to others'
    writes, and no link is followed. (descriptor, None); (None, None) when one is missing; (None,
    why). ``make``: the missing ones are made (0700) first. why: a check by path and then an open by
    path let another user swap ``lazy-harness`` for a link to their folder in between."""
    cache = paths.cache_dir(env)
    holder = os.path.dirname(cache)
    if make:
        from lazy_harness.atomic import ensure_dir

        ensure_dir(holder)
    fd, why = private.open_holder(holder)
    for name, path in ((os.path.basename(cache), cache), ("hooks", os.path.join(cache, "hooks"))):
        if fd is None:
            return None, why
        outer = fd
        try:
            if make:
                _mkdir_at(outer, name)
            fd, why = private.open_folder_at(outer, name, path)
        finally:
            os.close(outer)
    return fd, why


def _mkdir_at(dfd: int, name: str) -> None:
    try:
        os.mkdir(name, 0o700, dir_fd=dfd)
    except FileExistsError:
        pass  # why: judged by open_folder_at next, whoever made it


def _open_bundle(name: str, env: Mapping[str, str] | None) -> tuple[int | None, str | None]:
    """The bundle ``name`` opened for reading through :func:`_open_hooks`' descriptor, when it is a
    regular file of the user's closed to others' writes: what is checked is what is read."""
    hooks, why = _open_hooks(env)
    if hooks is None:
        return None, why
    try:
        return private.open_file_at(hooks, name, os.path.join(paths.cache_dir(env), "hooks", name))
    finally:
        os.close(hooks)


def _source(parent: str, name: str) -> tuple[str, bool]:
    """(the source file of module ``name`` under ``parent``, whether it is a package)."""
    base = os.path.join(parent, *name.split("."))
    init = os.path.join(base, "__init__.py")
    return (init, True) if os.path.isfile(init) else (base + ".py", False)


def _read_header(fd: int) -> dict | None:
    """The bundle's header when this interpreter may use it, else None (damaged, another version)."""
    try:
        head = os.pread(fd, len(MAGIC) + 4, 0)
        if len(head) != len(MAGIC) + 4 or head[:len(MAGIC)] != MAGIC:
            return None
        size = int.from_bytes(head[len(MAGIC):], "little")
        header = marshal.loads(os.pread(fd, size, len(MAGIC) + 4))
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(header, dict) or header.get("python") != sys.version or not isinstance(
            header.get("modules"), dict) or not isinstance(header.get("parent"), str):
        return None
    header["base"] = len(MAGIC) + 4 + size
    return header


_CODE = type(_read_header.__code__)  # why: types.CodeType without importing types


class _Finder:
    """A ``sys.meta_path`` finder and loader serving the bundle's modules whose sources are unchanged."""

    def __init__(self, fd: int, header: dict, parent: str) -> None:
        self.fd, self.modules, self.base, self.parent = fd, header["modules"], header["base"], parent
        # why: the class of any module's spec, so that importlib.machinery need not be imported
        self.spec_class: Callable[..., Any] = type(sys.modules[__name__].__spec__)

    def find_spec(self, name: str, path: object = None, target: object = None) -> object | None:
        entry = self.modules.get(name)
        if entry is None:
            return None
        try:
            rel, mtime_ns, size, offset, length, is_package = entry
            origin = os.path.join(self.parent, rel)
            st = os.stat(origin)
            if st.st_mtime_ns != mtime_ns or st.st_size != size:
                return None  # why: changed since the bundle was written; the usual import reads it
            code = marshal.loads(os.pread(self.fd, length, self.base + offset))
        except (OSError, ValueError, EOFError, TypeError):
            return None  # why: a damaged bundle costs the speed, never the import
        if type(code) is not _CODE:
            return None
        spec = self.spec_class(name, self, origin=origin, loader_state=code, is_package=is_package)
        spec.has_location = True  # why: sets __file__ (and __cached__) as the usual import does
        if is_package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        return spec

    def create_module(self, spec: object) -> None:
        return None  # the default module

    def exec_module(self, module: object) -> None:
        exec(module.__spec__.loader_state, module.__dict__)  # type: ignore[attr-defined]


def install(parent: str | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Put the bundle's finder first on ``sys.meta_path`` when there is a bundle this interpreter and
    user may use (or it is there already); returns whether it is. Never raises for a missing,
    damaged or unsafe bundle."""
    if any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return True  # why: hooks.launch installs it, then hooks.entry.run asks again (for older launchers)
    parent = parent or package_parent()
    fd, _ = _open_bundle(os.path.basename(bundle_file(parent, env)), env)
    if fd is None:
        return False
    header = _read_header(fd)
    if header is None or header["parent"] != parent:
        os.close(fd)
        return False
    sys.meta_path.insert(0, _Finder(fd, header, parent))  # type: ignore[arg-type]
    return True


# --- writing it: lh hooks install and the worker, never a hook ------------------------------------

def stale(parent: str | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """The hot modules the bundle lacks or holds from other sources ([] when it is current); every
    one when there is no bundle this interpreter and user may use."""
    parent = parent or package_parent()
    fd, _ = _open_bundle(os.path.basename(bundle_file(parent, env)), env)
    if fd is None:
        return list(HOT)
    try:
        header = _read_header(fd)
    finally:
        os.close(fd)
    modules = header["modules"] if header is not None and header["parent"] == parent else {}
    out = []
    for name in HOT:
        src, _ = _source(parent, name)
        entry = modules.get(name)
        try:
            st = os.stat(src)
        except OSError:
            continue  # why: not installed here (nothing to bundle)
        if not (isinstance(entry, tuple) and len(entry) == 6 and entry[1:3] == (st.st_mtime_ns, st.st_size)):
            out.append(name)
    return out


def build(parent: str | None = None, env: Mapping[str, str] | None = None) -> int:
    """Compile the hot modules of the ``lazy_harness`` in ``parent`` into its bundle in the cache folder
    of ``env``'s user (written whole: a temporary file renamed over it). Returns how many modules it
    holds. Raises OSError when the folder cannot be written or is not the user's own (it would not be
    used), SyntaxError (ValueError for a NUL byte, on Python 3.11) for a source that does not compile."""
    parent = parent or package_parent()
    modules: dict[str, tuple[str, int, int, int, int, bool]] = {}
    codes: list[bytes] = []
    offset = 0
    for name in HOT:
        src, is_package = _source(parent, name)
        try:
            st = os.stat(src)
            code = _code_of(src, st)
        except OSError:
            continue
        modules[name] = (os.path.relpath(src, parent), st.st_mtime_ns, st.st_size, offset, len(code), is_package)
        codes.append(code)
        offset += len(code)
    header = marshal.dumps({"python": sys.version, "parent": parent, "modules": modules})
    hooks, why = _open_hooks(env, make=True)
    if hooks is None:
        raise PermissionError(why or f"{os.path.dirname(bundle_file(parent, env))} could not be made")
    try:
        _write_at(hooks, os.path.basename(bundle_file(parent, env)),
                  MAGIC + len(header).to_bytes(4, "little") + header + b"".join(codes))
    finally:
        os.close(hooks)
    return len(modules)


def _write_at(dfd: int, name: str, data: bytes) -> None:
    """``name`` in the folder open on ``dfd`` replaced whole by ``data`` (0600): a temporary file made
    there (never through a link) renamed over it, both by the folder's descriptor, never by a path.
    why not fsynced: a bundle lost in a power cut (old, empty or gone) only means the usual imports."""
    from lazy_harness.atomic import write_all

    tmp = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_CLOEXEC", 0), 0o600, dir_fd=dfd)
    try:
        try:
            write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dfd)
        except OSError:
            pass
        raise


def _code_of(src: str, st: os.stat_result) -> bytes:
    """The marshalled code of the source ``src``: its ``.pyc``'s when that was compiled from this
    source (timestamp and size, as the import checks it), else compiled here. why: the same code the
    usual import runs, and a bundle written in a few milliseconds instead of 70 (every worker run in a
    new HOME writes one)."""
    from importlib.util import MAGIC_NUMBER, cache_from_source

    try:
        with open(cache_from_source(src), "rb") as fh:
            pyc = fh.read()
    except (OSError, NotImplementedError, ValueError):
        pyc = b""
    if (pyc[:4] == MAGIC_NUMBER and pyc[4:8] == bytes(4)
            and int.from_bytes(pyc[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(pyc[12:16], "little") == st.st_size & 0xFFFFFFFF):
        return pyc[16:]
    with open(src, "rb") as fh:
        return marshal.dumps(compile(fh.read(), src, "exec", dont_inherit=True))


def refresh(parent: str | None = None, env: Mapping[str, str] | None = None) -> int | None:
    """Rebuild the bundle when a hot module changed since it was written (an upgrade, an edit): how
    many modules it holds now, or None when it was current. Raises what :func:`build` raises."""
    if not stale(parent, env):
        return None
    return build(parent, env)
