"""``lh sync``: one round of memory replication through git (docs/how/sync.md)."""

import click


@click.command()
@click.option("--status", "show_status", is_flag=True, help="Ahead, behind, last sync and last error; no network.")
@click.option("--accept-rewrite", is_flag=True,
              help="The remote's history was rewritten by its owner: take it, keeping what this machine changed.")
def sync(show_status: bool, accept_rewrite: bool) -> None:
    """Commit local memory, fetch, merge and push to [sync] remote."""
    import os

    from lazy_harness import config, sync as replication

    if show_status:
        _show_status()
        return
    cfg = config.load(os.environ)
    result = replication.run(cfg, os.environ, progress=lambda line: click.echo(line, err=True),
                             accept_rewrite=accept_rewrite)
    parts = ["committed local changes" if result["committed"] else "nothing new to commit",
             f"{result['merged']} file(s) merged from the remote",
             "pushed" if result["pushed"] else "nothing pushed"]
    for what in result["repaired"]:
        click.echo(f"repaired: {what}")
    if result["rewritten"]:
        click.echo("rewrote: commits not yet pushed held a secret; one commit of the current files went out instead")
    for line in result["conflicts"]:
        click.echo(f"conflict: {line}")
    if result["not_synced"]:  # why: files in the data folder that are not memory stay here (docs/how/sync.md)
        click.echo(result["not_synced"])
    click.echo("synced: " + ", ".join(parts))
    if result["merged"]:  # why: memory changed here: the recall index follows at once (ADR 0042)
        from lazy_harness import paths
        from lazy_harness.cli.memory_changes import index_after

        ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None)
        for mdir in paths.all_memory_dirs(None, cfg["memory"]["path"] or None):
            index_after(mdir, ldir)


def _show_status() -> None:
    """``lh sync --status``: it reads no network and writes nothing, so a wrong value elsewhere in
    config.toml keeps its default and is named (as for the commands that read memory), and the status
    says that no round runs until the file is valid: a round reads ``[redact]`` and ``[trust]``, and a
    default in their place could send or take in what the person's values would not."""
    import os

    from lazy_harness import config, sync as replication
    from lazy_harness.cli.options import warn_config

    problems: list[str] = []

    def warn(problem: str) -> None:
        problems.append(problem)
        warn_config(problem)

    cfg = config.load(os.environ, warn=warn)
    st = replication.status(cfg, os.environ)
    click.echo(f"remote:     {st['remote'] or '(none: set [sync] remote in config.toml)'}")
    click.echo(f"data:       {st['data']}")
    ahead = "?" if st["ahead"] is None else st["ahead"]
    behind = "?" if st["behind"] is None else st["behind"]
    if st["remote"]:
        click.echo(f"ahead:      {ahead} commit(s) not pushed; behind: {behind} (as of the last fetch)")
    else:  # why: "?" read as something broken where sync is simply off
        click.echo("ahead:      - (no remote: nothing is pushed or pulled; memory stays on this machine)")
    click.echo(f"last sync:  {st['last_sync'] or 'never'}")
    click.echo(f"last error: {st['last_error'] or 'none'}")
    if st["last_error"] and st["last_hint"]:
        click.echo(f"what to do: {st['last_hint']}")
    if problems and st["remote"]:
        click.echo("waits: no round runs (lh sync, after a write, at session start) until config.toml is valid "
                   "(lh config validate)")
    for line in st["conflicts"]:
        click.echo(f"conflict:   {line}")
    if st["not_synced"]:
        click.echo(st["not_synced"])
