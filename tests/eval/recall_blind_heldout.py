"""The held-out prompts of the blind precision set (``blind_prompts.HELDOUT``): run once, with the
bar already chosen on the development prompts; nothing was changed after looking at the result."""

from tests.eval.blind_prompts import HELDOUT

PROMPTS = HELDOUT
