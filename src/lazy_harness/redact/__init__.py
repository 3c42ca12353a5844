"""Replace credential-shaped text by ``[REDACTED:<kind>]`` before it leaves the machine or hits disk.

The worker runs this twice: on the prompt (a session transcript is full of pasted config, env dumps
and tool output) and on the model's answer before anything is written (the model may echo a secret
back). It is a net for common shapes, not a guarantee; extra regular expressions come from config
``compound_loop.redact_patterns`` and are replaced by ``[REDACTED:custom]``.

The package's modules: ``kinds`` (the built-in rules, in the order they apply), ``assignments``
(``name=value`` patterns), ``values`` and ``names`` (what such a value is), ``matches`` (what a rule
does with its match), ``prose`` (passwords stated in sentences, base64 user:password alone),
``regex_parts`` (pieces the patterns share), ``encoded`` (a Kubernetes Secret's data, base64
fed to ``base64 -d``), ``wallets`` (EVM private keys, mnemonics), ``wifi`` (Wi-Fi passwords),
``configs`` (a secret set by a tool's config command), ``run`` (``redact`` and ``redact_obj``, which
run them all).
"""

from lazy_harness.redact.run import redact, redact_obj

__all__ = ["redact", "redact_obj"]
