"""The ways of writing one remote, read as one (``project_identity.origin``; docs/how/project-key.md).

- :func:`normalize_remote`: ``host/owner/repo`` for the https, ssh and scp forms; the path lowercased
  on the hosts known to ignore its case (:data:`CASE_INSENSITIVE_HOSTS`);
- :func:`needs_lookup`: whether a URL may be a shorthand (``gh:owner/repo``, an ssh host alias) that
  only the person's git or ssh configuration makes a host's;
- :func:`config_values`, :func:`rewritten`: git's config files as git reads them, and its
  ``url.<base>.insteadOf`` rewrite; :func:`ssh_hostname`: the ``HostName`` of a plain ``Host`` alias.

Text in, text out: the files are read by ``project_identity`` (its owner and regular-file checks).
Every function takes any text, however odd, and answers without raising (an odd file is no
rewrite). Hot path: only ``os``.
"""

import os

# why these four: their owner and repository names are case-insensitive (``github.com/Owner/Repo``
# and ``github.com/owner/repo`` are one repository). A self-hosted Gitea or GitLab may not be, so any
# other host keeps the case it was written in (two remotes there may differ by case alone).
CASE_INSENSITIVE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"})
# the schemes git itself speaks; another one (``gh://``) is a shorthand only an insteadOf resolves
GIT_SCHEMES = frozenset({"http", "https", "ssh", "git", "git+ssh", "ssh+git", "ftp", "ftps", "file"})
SSH_SCHEMES = frozenset({"ssh", "git+ssh", "ssh+git"})


def local_path(url: str) -> bool:
    """Whether ``url`` is a folder on this machine (``/srv/app.git``, ``../app.git``, ``file://...``)
    rather than a host's: such an origin names no project, and a relative one not even one folder
    (two repositories side by side with ``../app.git`` are two projects)."""
    u = url.strip()
    scheme, sep, _ = u.partition("://")
    if sep:
        return scheme.lower() == "file"
    return not (":" in u and "/" not in u.split(":", 1)[0] and not os.path.isabs(u))


def _split(u: str) -> tuple[str, str, str]:
    """(scheme or "", host as written (user and port stripped, an IPv6 address in brackets), path)."""
    scheme, sep, rest = u.partition("://")
    if sep:
        hostpart, _, path = rest.partition("/")
    else:  # scp form: host:owner/repo; an IPv6 host in brackets holds colons of its own
        scheme = ""
        closed = u.find("]:") + 1 if "@[" in u or u.startswith("[") else 0
        hostpart, path = u[:u.find(":", closed)], u[u.find(":", closed) + 1:]
    host = hostpart.rpartition("@")[2]
    # why: an IPv6 literal is its bracketed address (split at its first colon, every one was "[")
    host = host[:host.find("]") + 1] if host.startswith("[") and "]" in host else host.split(":", 1)[0]
    return scheme.lower(), host, path


def normalize_remote(url: str, hostname: str | None = None) -> str | None:
    """``host/owner/repo`` for the forms of one remote: ``git@host:owner/repo.git``,
    ``https://user@host/owner/repo``, ``ssh://git@host:22/owner/repo.git`` are equal (an IPv6 host
    as ``[address]``), and on the :data:`CASE_INSENSITIVE_HOSTS` so are ``Owner/Repo`` and
    ``owner/repo``; a local path stays a path. None for an empty URL. ``hostname``: the host the
    URL's own stands for (an ssh alias's ``HostName``)."""
    u = url.strip()
    if not u:
        return None
    if local_path(u):
        scheme, sep, rest = u.partition("://")
        return os.path.normpath(rest if sep else u) or None
    _, host, path = _split(u)
    if hostname:
        host = f"[{hostname}]" if ":" in hostname else hostname
    host = host.lower()
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[:-4]
    path = "/".join(p for p in path.split("/") if p and p not in (".", ".."))
    if host in CASE_INSENSITIVE_HOSTS:
        path = path.lower()
    return f"{host}/{path}" if host and path else None


def needs_lookup(url: str) -> bool:
    """Whether ``url`` may be a shorthand the person's configuration resolves: its host has no dot
    (``gh:owner/repo``, an ssh alias ``work:owner/repo``) or its scheme is none git speaks (``gh://``)."""
    # why only these: an ``insteadOf`` may rewrite any prefix, but a remote that already names a real
    # host (a dot, or an IPv6 address) is one key in all its https, ssh and scp forms; a rewrite of it
    # (a mirror, https fetched over ssh) is how this machine fetches, not another project, and keying
    # by it would split one repository between machines with and without it. So the common case reads
    # no file beyond the repository's config, which it reads anyway for the URL.
    u = url.strip()
    if not u or local_path(u):
        return False
    scheme, host, _ = _split(u)
    if scheme and scheme not in GIT_SCHEMES:
        return True
    return "." not in host and not host.startswith("[")


def is_ssh(url: str) -> bool:
    """Whether git fetches ``url`` with ssh (the scp form, ``ssh://``), so ssh's host aliases apply."""
    u = url.strip()
    return "://" not in u or u.partition("://")[0].lower() in SSH_SCHEMES


def host_of(url: str) -> str:
    return _split(url.strip())[1]


# --- git's config files ------------------------------------------------------------------------------

def _header(line: str) -> tuple[str, str | None, str] | None:
    """(section lowercased, subsection as written or None, the rest of the line) of a ``[...]`` line;
    None when git would not read it (it then refuses the file; here the lines after it are skipped)."""
    quote, end = line.find('"'), line.find("]")
    if end < 0:
        return None
    subsection: str | None = None
    if 0 <= quote < end:
        name, rest = line[1:quote].rstrip(" \t"), line[quote + 1:]
        sub, close = _quoted(rest)
        if sub is None or not rest[close + 1:].startswith("]"):
            return None
        subsection, tail = sub, rest[close + 2:]
    else:
        name, tail = line[1:end], line[end + 1:]
        if "." in name:  # the old form ``[section.subsection]``: git lowercases the subsection
            name, _, old = name.partition(".")
            subsection = old.lower()
    if not name or not name.replace("-", "a").replace(".", "a").isalnum() or not name.isascii():
        return None
    return name.lower(), subsection, tail.strip()


def _quoted(rest: str) -> tuple[str | None, int]:
    """(a header's subsection, the index of its closing quote in ``rest``, which follows its opening
    one); (None, -1) when it is not closed. git takes ``\\"`` and ``\\\\`` (any ``\\x`` as x)."""
    close = rest.find('"')
    if close >= 0 and "\\" not in rest[:close]:
        return rest[:close], close
    out, j = [], 0
    while j < len(rest) and rest[j] != '"':
        j += 1 if rest[j] == "\\" and j + 1 < len(rest) else 0
        out.append(rest[j])
        j += 1
    return ("".join(out), j) if j < len(rest) else (None, -1)


def _value(raw: str, quoted: bool) -> tuple[str, bool, bool]:
    """(the value's text on this line, whether it goes on to the next line, whether a quote is open
    at its end), as git reads a value: quotes dropped, ``\\n \\t \\b \\\\ \\"`` unescaped, a comment
    (``#``, ``;``) outside quotes ends it, whitespace outside quotes trimmed at both ends."""
    if not quoted and not any(c in raw for c in '"\\#;\t'):  # why: the usual value, at no cost
        return raw.strip(" "), False, False
    out: list[str] = []
    pending = 0
    i = 0
    while i < len(raw):
        c = raw[i]
        i += 1
        if c in " \t" and not quoted:
            pending += 1 if out else 0
            continue
        if c in "#;" and not quoted:
            break
        out.extend(" " * pending)
        pending = 0
        if c == '"':
            quoted = not quoted
        elif c == "\\":
            if i >= len(raw):
                return "".join(out), True, quoted
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(raw[i], raw[i]))
            i += 1
        else:
            out.append(c)
    return "".join(out), False, quoted


def config_values(text: str, section: str, subsection: str | None, key: str) -> list[str]:
    """Every value of ``section.subsection.key`` in a git config file's ``text``, in order (section and
    key case-insensitive, the subsection as written). Lines git would refuse are skipped."""
    return [v for _, sub, k, v in config_entries(text, section) if sub == subsection and k == key]


def config_entries(text: str, section: str) -> list[tuple[str, str | None, str, str]]:
    """(section, subsection, key, value) of each entry of section ``section`` (lowercase) in a git config
    file's ``text``: keys lowercased; a key without ``=`` (git's boolean true) is left out; includes are
    not followed. why one section: the hooks read the origin through this, and the other sections'
    values need not be read."""
    out: list[tuple[str, str | None, str, str]] = []
    where: tuple[str, str | None] | None = None  # the section and subsection read, when it is ``section``
    lines = text.split("\n")
    i, n = 0, len(lines)
    while i < n:
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        if line[0] == "[":
            # why the name first: the other sections' headers need no parse (the hooks read the origin)
            header = _header(line) if line[1:len(section) + 1].lower() == section else None
            where, line = (header[:2], header[2]) if header else (None, "")
        if where is None or not line or line[0] in "#;":
            while line[-1:] == "\\" and i < n:  # why: a value continued here is no header
                line, i = lines[i].rstrip(), i + 1
            continue
        name, eq, raw = line.partition("=")
        name = name.strip().lower()
        if not eq or not name[:1].isalpha() or not name.replace("-", "a").isalnum() or not name.isascii():
            continue
        value, more, quoted = _value(raw, False)
        while more and i < n:
            piece, more, quoted = _value(lines[i], quoted)
            value, i = value + piece, i + 1
        out.append((where[0], where[1], name, value))
    return out


def rewritten(url: str, texts: list[str]) -> str:
    """``url`` after git's ``url.<base>.insteadOf`` over the config files' ``texts`` (in the order git
    reads them): the longest matching prefix is replaced by its base, once; the first of equal
    length wins, as in git. An empty prefix is taken for none (git would rewrite every URL by it)."""
    best, base = "", None
    for text in texts:
        for _, sub, key, value in config_entries(text, "url"):
            if sub is not None and key == "insteadof" and value \
                    and url.startswith(value) and len(value) > len(best):
                best, base = value, sub
    return url if base is None else base + url[len(best):]


# --- ssh's config file -------------------------------------------------------------------------------

def _ssh_line(line: str) -> tuple[str, list[str]]:
    """(keyword lowercased, its arguments, quotes dropped) of a line of ``ssh_config``."""
    line = line.strip()
    cut = next((i for i, c in enumerate(line) if c in " \t="), len(line))
    rest = line[cut:].strip()
    rest = rest[1:].strip() if rest.startswith("=") else rest
    return line[:cut].lower(), [a.strip('"') for a in rest.split() if a.strip('"')]


def ssh_hostname(alias: str, text: str) -> str | None:
    """The ``HostName`` an ssh config file's ``text`` gives host ``alias``, in its plain form only: a
    ``Host`` line naming ``alias`` exactly, whose block sets ``HostName`` to a plain name. None (the
    URL as it is) when anything before that block could apply to it too (an ``Include``, a ``Match``, a
    ``Host`` pattern with ``*``, ``?`` or ``!``, a ``HostName`` outside a plain block) or the name holds
    a ``%`` token: ssh's own rules decide then, and they are not copied here."""
    alias, mine, plain = alias.lower(), False, False
    for raw in text.split("\n"):
        keyword, args = _ssh_line(raw)
        if not keyword or keyword.startswith("#"):
            continue
        if keyword in ("include", "match"):
            return None
        if keyword == "host":
            if mine:
                return None  # the block ended without a HostName
            patterns = [a.lower() for a in args]
            plain = bool(patterns) and not any(c in p for p in patterns for c in "*?!")
            mine = plain and alias in patterns
        elif keyword == "hostname":
            if mine:
                name = args[0] if len(args) == 1 else ""
                return name if name and "%" not in name and "/" not in name else None
            if not plain:
                return None  # for every host, or for a pattern that may be this one
    return None
