"""Record the source tokenizer's token ids for the static model's tokenizer test (ADR 0025).

    python -m tests.eval.record_wordpiece_ids TOKENIZER_JSON

Needs the ``tokenizers`` package and all-MiniLM-L6-v2's tokenizer.json (whose SHA-256 is the one
``tests/eval/build_static_model.py`` pins); neither is a dependency. Writes
tests/fixtures/wordpiece_ids.json: each text of ``tests/recall/embed/test_static_model.SAMPLES`` and of a
deterministic sample of real lines (this repository's docs, the evaluation's entries and cues) with
the ids the source tokenizer gives it, so the unit suite checks agreement without the package.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fixtures", "wordpiece_ids.json")
EVERY = 4  # one real line in this many


def main(argv: list[str]) -> int:
    import tokenizers

    from tests.recall.embed.test_static_model import SAMPLES, real_text

    tok = tokenizers.Tokenizer.from_file(argv[0])
    tok.no_truncation()
    tok.no_padding()
    texts = list(SAMPLES) + real_text()[::EVERY]
    pairs = [[t, tok.encode(t, add_special_tokens=False).ids] for t in texts]
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(pairs, fh, ensure_ascii=False, separators=(",", ":"))
        fh.write("\n")
    print(f"{len(pairs)} texts -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
