"""The second part of the blind precision set (``blind_prompts.HELDOUT``): held out for ADR 0034 (run
once, with its bar already chosen), then a development part like the first for ADR 0041, which was
chosen on each part and checked on the other. The name stays: ``recall_eval`` reports it as
"held-out"."""

from tests.eval.blind_prompts import HELDOUT

PROMPTS = HELDOUT
