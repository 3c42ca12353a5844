"""What the plugin's hook command costs over lh-hook alone (docs/adr/0022).

Claude Code runs a command hook through a shell. The plugin's command (plugin/hooks/hooks.json) adds
`command -v lh-hook` to that shell, which then waits for lh-hook (no `exec`: a non-zero status means
lh-hook could not start, and the command still exits 0); this times, for a Stop with the loop off
(the hook's own work is nothing, so the command's overhead shows):

    sh -c '<plugin command>'    what the plugin runs
    sh -c 'lh-hook Stop'        the portable settings form, through the same shell
    sh -c '<plugin command>'    with lh-hook missing: the one-line answer, no interpreter
    python -c pass              the baseline

Run: python benchmarks/bench_plugin_command.py [--runs N]
"""

import json
import os
import shutil
import sys

import harness

from lazy_harness import plugin, settings


def main() -> None:
    opts = harness.parse_args(__doc__)
    script = shutil.which(settings.SCRIPT, path=os.path.dirname(sys.executable))
    if script is None:
        sys.exit(f"{settings.SCRIPT} not found beside {sys.executable}: pip install -e . first")
    with harness.temp_home(opts.keep) as (root, env):
        env = {**env, "PATH": os.path.dirname(script) + os.pathsep + "/usr/bin:/bin"}
        missing = {**env, "PATH": "/usr/bin:/bin"}
        payload = json.dumps({"session_id": "0b7e3c55-2f4a-4d8e-9a61-5c3b2e1f0d94", "transcript_path": "/none",
                              "cwd": root, "hook_event_name": "Stop"}).encode()
        cases = [*harness.bare_cases(env),
                 harness.Case("sh -c plugin command", ["/bin/sh", "-c", plugin.hook_command("Stop")], payload, env),
                 harness.Case("sh -c lh-hook Stop", ["/bin/sh", "-c", f"{settings.SCRIPT} Stop"], payload, env),
                 harness.Case("sh -c plugin, no lh-hook", ["/bin/sh", "-c", plugin.hook_command("Stop")], payload,
                              missing)]
        harness.report(harness.measure(cases, opts.runs), title="plugin hook command (Stop, loop off)")


if __name__ == "__main__":
    main()
