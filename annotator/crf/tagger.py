"""The CRF pre-annotation tagger: train from gold, save and load, predict with recall bias.

A :class:`CrfTagger` learns BIO labels over a schema's types with linear-chain CRFs
(crfsuite through python-crfsuite, the engine under sklearn-crfsuite, imported only when
needed; going to it directly avoids loading scikit-learn and lets training report progress
and stop when cancelled).
Predictions carry a confidence, the mean marginal probability of the span's token labels.

Recall bias (seed 002): a token labelled O whose probability of O is below a threshold T is
relabelled with its most probable PHI label; a higher T trades precision for recall.

A model file is a zip archive holding the crfsuite model and ``metadata.json`` (feature
version, labels, schema, a hash of the training data, date and sizes, and whether its
features may name private tokens). A model made under another
:data:`~annotator.crf.features.FEATURE_VERSION` is refused with a clear message.

Notes are tagged and learnt in bounded chunks (:mod:`annotator.crf.chunks`), so memory does
not grow with one note's length.
"""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple
from zlib import error as ZlibError

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write
from annotator.core.collector import collector_paused
from annotator.core.composed import ComposedText, composed_document
from annotator.core.document import Document
from annotator.core.lookalikes import ascii_document, ascii_lookalikes
from annotator.core.schema import Schema, load_schema
from annotator.crf.chunks import CHUNK_CHARS, AnnotationIndex, Chunk, iter_chunks
from annotator.crf.crfsuite_file import CorruptModel, check_crfsuite_model
from annotator.crf.evidence import PhiEvidence
from annotator.crf.features import FEATURE_VERSION, LineModes, document_attributes
from annotator.crf.guidelines import I2B2_2014, follow_guideline
from annotator.crf.labels import OUTSIDE, Prediction, annotations_to_labels, labels_to_spans
from annotator.crf.model_vocabulary import model_attributes
from annotator.crf.phi_memory import PhiMemory
from annotator.crf.postprocess import postprocess_document, postprocess_patient, predictions_to_annotations
from annotator.crf.tokenizer import Token
from annotator.errors import AnnotatorError, InputError, ModelError, UsageError
from annotator.io.site_lists import SiteLists
from annotator.io.xmlsafe import read_bytes

MODEL_FORMAT = "phi-annotator-crf"
MEMORY_MEMBER = "phi-memory.json"
ALGORITHMS = ("l2sgd", "lbfgs")
# What ``annotator train`` and the bundled model use. On real nursing notes (3-fold
# cross-validation by patient on the PhysioNet corpus's patients 1-110) L-BFGS with 60
# iterations found 0.753 of the PHI at 0.966 PPV where 15 epochs of SGD found 0.700 at 0.925;
# it trains about twice as long. The class's own default stays SGD, the quick one.
TRAINING_ALGORITHM = "lbfgs"
TRAINING_ITERATIONS = 60
# Full marginals are computed for tokens whose P(O) is under this, so recall bias works up
# to this threshold without computing every label's marginal for every token.
MARGINAL_CEILING = 0.999
# Real models are a few MB; the cap keeps a wrong or hostile path from filling memory.
MAX_MODEL_BYTES = 512 * 1024 * 1024
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]


class TrainingCancelled(AnnotatorError):
    """The user stopped training before it finished."""


@dataclass
class ModelMetadata:
    """What a model file says about itself."""

    feature_version: int
    labels: list[str]
    schema: str
    categories: dict[str, str]
    training_hash: str
    created: str
    documents: int
    tokens: int
    annotations: int
    skipped_annotations: int = 0
    params: dict[str, Any] = field(default_factory=dict)
    # True: features may name any token of the training text (the model must not leave the site).
    private_features: bool = False
    format: str = MODEL_FORMAT

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], path: Path | str | None = None) -> ModelMetadata:
        required = [f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]
        missing = [name for name in required if name not in data]
        if missing:
            raise ModelError(f"corrupt tagger model file: its metadata has no {', '.join(missing)}", path)
        metadata = cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})
        for name, value in asdict(metadata).items():
            if not _METADATA_CHECKS[name](value):
                raise ModelError(f"corrupt tagger model file: its metadata's {name!r} is not valid", path)
        return metadata


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text_map(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


# What each metadata field must hold: a model file is input like any other (a feature
# version "4" must not pass for 4, a schema must be a name).
_METADATA_CHECKS: dict[str, Callable[[object], bool]] = {
    "feature_version": _is_int,
    "labels": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "schema": lambda v: isinstance(v, str),
    "categories": _is_text_map,
    "training_hash": lambda v: isinstance(v, str),
    "created": lambda v: isinstance(v, str),
    "documents": _is_int,
    "tokens": _is_int,
    "annotations": _is_int,
    "skipped_annotations": _is_int,
    "params": lambda v: isinstance(v, dict),
    "private_features": lambda v: isinstance(v, bool),
    "format": lambda v: isinstance(v, str),
}


class TokenScore(NamedTuple):
    """The tagger's view of one token: Viterbi label, its marginal, P(O), best PHI label.

    A named tuple: one is made per token tagged, and a tuple is built several times faster
    than a frozen dataclass.
    """

    label: str
    probability: float
    p_outside: float
    best_phi: str = ""
    p_best_phi: float = 0.0


@dataclass
class ScoredDocument:
    """A document's tokens with their scores, ready to decode at any recall bias."""

    document: Document
    tokens: list[Token]
    scores: list[TokenScore]


def training_hash(documents: Iterable[Document]) -> str:
    """A SHA-256 over the documents' ids, texts and annotation keys (order-independent)."""
    digest = hashlib.sha256()
    for document in sorted(documents, key=lambda d: d.doc_id):
        digest.update(document.doc_id.encode("utf-8") + b"\0" + document.text.encode("utf-8") + b"\0")
        for key in sorted((a.type, a.start, a.end) for a in document.annotations):
            digest.update(repr(key).encode("utf-8"))
    return digest.hexdigest()


class CrfTagger:
    """A CRF tagger for one schema.

    Parameters
    ----------
    schema:
        The tag set (a :class:`Schema` or a bundled schema's name).
    algorithm:
        ``l2sgd`` (stochastic gradient descent, the default: a few passes over the data
        converge, which keeps training on a few hundred thousand tokens within minutes) or
        ``lbfgs`` (slower, sparser with L1).
    c1, c2:
        L1 (L-BFGS only) and L2 regularisation.
    max_iterations:
        Training iterations or epochs (the progress callback counts them).
    postprocess:
        Apply the rules of :mod:`annotator.crf.postprocess` to predictions.
    private_features:
        Let features name every token of the training text (rare words, record numbers);
        by default only public vocabulary is named, so the model can be shared.
    chunk_chars:
        Notes are tagged and learnt in chunks of about this many characters.
    upper_case_every:
        Training also learns an upper-cased copy of every n-th note (0: none), so the
        tagger does not learn that PHI is written in title case: all-caps headers, forms and
        telegraphic notes write names, places and months in capitals.
    """

    def __init__(
        self,
        schema: Schema | str = "i2b2-2014",
        algorithm: str = "l2sgd",
        c1: float = 0.05,
        c2: float = 0.01,
        max_iterations: int = 15,
        postprocess: bool = True,
        private_features: bool = False,
        chunk_chars: int = CHUNK_CHARS,
        upper_case_every: int = 3,
        lower_case_every: int = 0,
        remember_phi: bool | None = None,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise UsageError(
                f"unknown training algorithm {algorithm!r} (choose from {', '.join(ALGORITHMS)})"
            )
        self.schema = load_schema(schema) if isinstance(schema, str) else schema
        self.algorithm = algorithm
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.postprocess = postprocess
        self.private_features = private_features
        self.chunk_chars = chunk_chars
        self.upper_case_every = upper_case_every
        self.lower_case_every = lower_case_every
        # The memory names PHI of the training notes: by default only where features may too.
        self.remember_phi = private_features if remember_phi is None else remember_phi
        self.memory = PhiMemory()
        self.metadata: ModelMetadata | None = None
        self._model_bytes: bytes | None = None
        self._tagger: Any = None
        self._vocabulary: frozenset[str] | None = None
        # What the project's gold tags (annotator.crf.guidelines): a setting of the run, not the model.
        self.guideline = I2B2_2014
        # The site's own names and places (annotator.crf.site_lists): a setting of the run, never saved.
        self.site_lists: SiteLists | None = None

    def __getstate__(self) -> dict[str, Any]:
        # The crfsuite tagger is a C object: a copy (a worker process's) opens the model anew.
        state = dict(self.__dict__)
        state["_tagger"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._model_bytes is not None:
            self._set_model(self._model_bytes)

    # -- training ----------------------------------------------------------------------
    @property
    def is_trained(self) -> bool:
        return self._model_bytes is not None

    def _known(self, annotation: Annotation) -> bool:
        return self.schema.has_type(annotation.type)

    def train(
        self,
        documents: Sequence[Document],
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ModelMetadata:
        """Learn from gold documents.

        Parameters
        ----------
        documents:
            Gold documents; annotations of types unknown to the schema are skipped (counted
            in the metadata).
        progress:
            Called with (done, total) over feature extraction (one step per document) and
            training (one step per iteration).
        cancelled:
            Polled between steps; when it returns True, :class:`TrainingCancelled` is raised.

        Returns
        -------
        ModelMetadata
        """
        import pycrfsuite

        if not documents:
            raise UsageError("no documents to train on")
        total = len(documents) + self.max_iterations
        counts = {"kept": 0, "skipped": 0, "tokens": 0, "phi_tokens": 0}

        def sequences() -> Iterable[tuple[list[list[str]], list[str]]]:
            # One note at a time, one chunk at a time: memory stays flat whatever the lengths.
            for index, document in enumerate(documents):
                if cancelled is not None and cancelled():
                    raise TrainingCancelled("training cancelled")
                known = [a for a in document.annotations if self._known(a)]
                counts["kept"] += len(known)
                counts["skipped"] += len(document.annotations) - len(known)
                annotations = AnnotationIndex(known)
                texts = [ascii_lookalikes(document.text)]
                if self.upper_case_every and index % self.upper_case_every == 0:
                    upper = texts[0].upper()
                    if len(upper) == len(texts[0]):  # same offsets ("ß" -> "SS" would shift them)
                        texts.append(upper)
                if self.lower_case_every and index % self.lower_case_every == 1 % self.lower_case_every:
                    # Nurses write whole notes in lower case: "dr yi", "son don reid".
                    lower = texts[0].lower()
                    if len(lower) == len(texts[0]):
                        texts.append(lower)
                for text in texts:
                    lines = LineModes(text)
                    for chunk in self.chunks(text):
                        tokens = chunk.tokens
                        labels = annotations_to_labels(
                            tokens, annotations.overlapping(tokens[0].start, tokens[-1].end)
                        )[chunk.core_start : chunk.core_end]
                        counts["tokens"] += len(labels)
                        counts["phi_tokens"] += sum(label != OUTSIDE for label in labels)
                        yield self.chunk_attributes(text, chunk, lines), labels
                if progress is not None:
                    progress(index + 1, total)

        offset = len(documents)
        iterations = self.max_iterations

        class _Trainer(pycrfsuite.Trainer):  # type: ignore[misc]  # untyped Cython base
            def message(self, message: str) -> None:
                # Parse crfsuite's log without printing it: one event per iteration.
                event = self.logparser.feed(message)
                if event == "iteration":
                    done = int(self.logparser.iterations[-1]["num"])
                    if progress is not None:
                        progress(offset + min(done, iterations), total)
                    if cancelled is not None and cancelled():
                        raise TrainingCancelled("training cancelled")

        params: dict[str, Any] = {
            "c2": self.c2,
            "max_iterations": self.max_iterations,
            "feature.possible_transitions": True,
        }
        if self.algorithm == "lbfgs":
            params["c1"] = self.c1
        else:
            # Learning-rate calibration on a sample of notes (crfsuite's default of 1,000
            # notes x 10 candidate rates costs more than the training itself).
            params["calibration.samples"] = min(200, len(documents))
            params["calibration.candidates"] = 5
        trainer = _Trainer(algorithm=self.algorithm, params=params, verbose=True)
        for xseq, yseq in sequences():
            trainer.append(xseq, yseq)
        if not counts["phi_tokens"]:
            raise UsageError(
                f"the {len(documents)} training documents hold no annotation of schema {self.schema.name}"
            )
        with tempfile.TemporaryDirectory(prefix="phi-crf-") as folder:
            model_path = Path(folder) / "model.crfsuite"
            trainer.train(str(model_path), holdout=-1)
            model_bytes = model_path.read_bytes()
        if progress is not None:
            progress(total, total)
        self._set_model(model_bytes)
        self.memory = PhiMemory.learn(documents, self.schema) if self.remember_phi else PhiMemory()
        label_set = sorted(self._tagger.labels())
        self.metadata = ModelMetadata(
            feature_version=FEATURE_VERSION,
            labels=label_set,
            schema=self.schema.name,
            categories={t.name: t.category for t in self.schema.types},
            training_hash=training_hash(documents),
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            documents=len(documents),
            tokens=counts["tokens"],
            annotations=counts["kept"],
            skipped_annotations=counts["skipped"],
            params={
                "algorithm": self.algorithm,
                "c1": self.c1,
                "c2": self.c2,
                "max_iterations": self.max_iterations,
                "upper_case_every": self.upper_case_every,
                "lower_case_every": self.lower_case_every,
                "remember_phi": self.remember_phi,
            },
            private_features=self.private_features,
        )
        return self.metadata

    def _set_model(self, model_bytes: bytes, path: Path | None = None) -> None:
        import pycrfsuite

        tagger = pycrfsuite.Tagger()
        try:
            tagger.open_inmemory(model_bytes)
        except (ValueError, OSError) as error:
            raise ModelError(f"the CRF model inside is unreadable ({error})", path) from None
        self._model_bytes = model_bytes
        self._tagger = tagger
        self._vocabulary = model_attributes(model_bytes)

    # -- files -------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The model file's bytes (zip: ``metadata.json`` + ``model.crfsuite``, and
        ``phi-memory.json`` when the model remembers phrases)."""
        if self._model_bytes is None or self.metadata is None:
            raise UsageError("the tagger has not been trained")
        members = [
            ("metadata.json", json.dumps(self.metadata.to_dict(), indent=2).encode("utf-8")),
            ("model.crfsuite", self._model_bytes),
        ]
        if self.memory:
            members.append((MEMORY_MEMBER, json.dumps(self.memory.to_json(), indent=1).encode("utf-8")))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            # A fixed member date: the same model always gives the same file (reproducible builds).
            for name, data in members:
                archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), data, compress_type=zipfile.ZIP_DEFLATED)
        return buffer.getvalue()

    def save(self, path: str | Path) -> None:
        """Write the model file atomically."""
        atomic_write(path, self.to_bytes())

    @classmethod
    def load(cls, path: str | Path) -> CrfTagger:
        """Read a model file.

        Raises
        ------
        ModelError
            The file is missing, is not a model file, is corrupt, or was made with another
            feature version.
        """
        path = Path(path)
        try:
            data = read_bytes(path, limit=MAX_MODEL_BYTES)
        except InputError as error:
            raise ModelError(f"cannot read model file: {error.message}", path) from None
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                _check_unpacked_sizes(archive, path)
                raw_metadata = archive.read("metadata.json")
                model_bytes = archive.read("model.crfsuite")
                raw_memory = archive.read(MEMORY_MEMBER) if MEMORY_MEMBER in archive.namelist() else None
        except (zipfile.BadZipFile, KeyError, EOFError, zipfile.LargeZipFile) as error:
            raise ModelError(
                f"not a tagger model file, or a corrupt one ({type(error).__name__})", path
            ) from None
        except (ZlibError, ValueError) as error:
            raise ModelError(f"corrupt tagger model file ({type(error).__name__})", path) from None
        except (RuntimeError, NotImplementedError):
            # zipfile's words for an encrypted member and an unknown compression method.
            raise ModelError(
                "not a model file PHI Annotator wrote (encrypted or unknown compression)", path
            ) from None
        try:
            metadata_dict = json.loads(raw_metadata)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise ModelError("corrupt tagger model file: metadata is not valid JSON", path) from None
        if not isinstance(metadata_dict, dict) or metadata_dict.get("format") != MODEL_FORMAT:
            raise ModelError("not a tagger model file (unknown format)", path)
        metadata = ModelMetadata.from_dict(metadata_dict, path)
        if metadata.feature_version != FEATURE_VERSION:
            raise ModelError(
                f"model was trained with feature version {metadata.feature_version}, but this version of "
                f"PHI Annotator computes feature version {FEATURE_VERSION}; retrain it from the gold standard",
                path,
            )
        try:
            schema = load_schema(metadata.schema)
        except AnnotatorError:
            raise ModelError(f"model uses schema {metadata.schema!r}, which is not available", path) from None
        params = metadata.params
        try:
            tagger = cls(
                schema,
                algorithm=str(params.get("algorithm", "l2sgd")),
                c1=float(params.get("c1", 0.05)),
                c2=float(params.get("c2", 0.01)),
                max_iterations=int(params.get("max_iterations", 15)),
                private_features=bool(metadata.private_features),
                remember_phi=bool(params.get("remember_phi", False)),
            )
        except (TypeError, ValueError, AttributeError):
            raise ModelError(
                "corrupt tagger model file: bad training parameters in its metadata", path
            ) from None
        _check_crfsuite_bytes(model_bytes, path)
        tagger._set_model(model_bytes, path)
        tagger.metadata = metadata
        if raw_memory is not None:
            tagger.memory = _read_memory(raw_memory, tagger.schema, path)
        return tagger

    # -- prediction --------------------------------------------------------------------
    def _require_model(self) -> Any:
        if self._tagger is None:
            raise UsageError("the tagger has not been trained or loaded")
        return self._tagger

    def chunks(self, text: str) -> Iterable[Chunk]:
        """The note's chunks (:func:`~annotator.crf.chunks.iter_chunks` at this tagger's size)."""
        return iter_chunks(text, self.chunk_chars)

    def chunk_attributes(self, text: str, chunk: Chunk, lines: LineModes | None = None) -> list[list[str]]:
        """Features (crfsuite attributes) of a chunk's own tokens, computed with its context
        (``lines``: the note's line modes, shared by its chunks)."""
        with collector_paused():
            attributes = document_attributes(
                text, chunk.tokens, public=not self.private_features, lines=lines
            )
        return attributes[chunk.core_start : chunk.core_end]

    def score(self, document: Document, ceiling: float | None = MARGINAL_CEILING) -> ScoredDocument:
        """Tokenise, tag, and keep the marginals recall bias needs (the whole note's tokens).

        Parameters
        ----------
        ceiling:
            O tokens whose P(O) is under this get every label's marginal, so they can be
            decoded with any recall bias up to it; ``None`` skips that work (no recall bias).
        """
        tokens: list[Token] = []
        scores: list[TokenScore] = []
        text = ascii_lookalikes(document.text)
        lines = LineModes(text)
        for chunk in self.chunks(text):
            tokens += chunk.core
            scores += self.score_chunk(text, chunk, ceiling, lines)
        return ScoredDocument(document, tokens, scores)

    def score_chunk(
        self,
        text: str,
        chunk: Chunk,
        ceiling: float | None = MARGINAL_CEILING,
        lines: LineModes | None = None,
    ) -> list[TokenScore]:
        """Token scores of a chunk's own tokens (the CRF sees its context too; ``lines``: the
        note's line modes, shared by its chunks)."""
        tagger = self._require_model()
        with collector_paused():
            tagger.set(
                document_attributes(
                    text,
                    chunk.tokens,
                    public=not self.private_features,
                    vocabulary=self._vocabulary,
                    lines=lines,
                )
            )
        viterbi = list(tagger.tag())
        labels = list(tagger.labels())
        phi_labels = [label for label in labels if label != OUTSIDE]
        has_outside = OUTSIDE in labels
        scores: list[TokenScore] = []
        marginal = tagger.marginal
        core = range(chunk.core_start, chunk.core_end)
        if ceiling is None or not has_outside:
            # No recall bias: the PHI tokens' own marginals (their confidence) and every
            # token's P(O) (the evidence rules are weighed against) are all that matter.
            for position in core:
                label = viterbi[position]
                p_outside = marginal(OUTSIDE, position) if has_outside else 0.0
                if label == OUTSIDE:
                    scores.append(TokenScore(label, p_outside, p_outside))
                else:
                    scores.append(TokenScore(label, marginal(label, position), p_outside))
            return scores
        for position in core:
            label = viterbi[position]
            p_outside = marginal(OUTSIDE, position) if has_outside else 0.0
            if label != OUTSIDE:
                # Recall bias only relabels O tokens: a PHI token needs its own marginal only.
                scores.append(TokenScore(label, marginal(label, position), p_outside))
            elif p_outside >= ceiling:
                scores.append(TokenScore(label, p_outside, p_outside))
            else:
                p_best, best = max(((marginal(phi, position), phi) for phi in phi_labels), default=(0.0, ""))
                scores.append(TokenScore(label, p_outside, p_outside, best, p_best))
        return scores

    @staticmethod
    def decode(scored: ScoredDocument, recall_bias: float | None = None) -> list[Prediction]:
        """Spans from token scores; with recall bias, O tokens with P(O) < T become PHI."""
        return CrfTagger.decode_tokens(scored.tokens, scored.scores, recall_bias)

    @staticmethod
    def decode_tokens(
        tokens: Sequence[Token], scores: Sequence[TokenScore], recall_bias: float | None = None
    ) -> list[Prediction]:
        """:meth:`decode` for any run of tokens and their scores."""
        labels = []
        probabilities = []
        for score in scores:
            if (
                recall_bias is not None
                and score.label == OUTSIDE
                and score.best_phi
                and score.p_outside < recall_bias
            ):
                labels.append(score.best_phi)
                probabilities.append(score.p_best_phi)
            else:
                labels.append(score.label)
                probabilities.append(score.probability)
        return labels_to_spans(tokens, labels, probabilities)

    def _post(
        self,
        text: str,
        predictions: list[Prediction],
        tokens: Iterable[Token],
        evidence: PhiEvidence,
        patient_id: str | None = None,
    ) -> list[Prediction]:
        if not self.postprocess:
            return predictions
        allowed = {t.name for t in self.schema.types}
        return postprocess_document(
            text, tokens, predictions, allowed, evidence, self.memory, self.site_lists, patient_id
        )

    def tag_document(
        self,
        document: Document,
        recall_bias: float | None = None,
        after_chunk: Callable[[int], None] | None = None,
    ) -> list[Prediction]:
        """One note's spans before patient-level propagation, chunk by chunk.

        ``after_chunk(offset)`` is told how far into the text each chunk reached (a long
        note's progress, and the place to cancel between chunks).
        """
        return self._tag_with_evidence(document, recall_bias, after_chunk)[0]

    def _tag_with_evidence(
        self,
        document: Document,
        recall_bias: float | None = None,
        after_chunk: Callable[[int], None] | None = None,
    ) -> tuple[list[Prediction], PhiEvidence]:
        predictions: list[Prediction] = []
        evidence = PhiEvidence()
        # The name rule reads capitalised words and the two tokens before each (a title):
        # only those are kept, so a long note's tokens never sit in memory at once.
        name_tokens: list[Token] = []
        last = -1
        lines = LineModes(document.text)
        for chunk in self.chunks(document.text):
            scores = self.score_chunk(document.text, chunk, recall_bias, lines)
            predictions += self.decode_tokens(chunk.core, scores, recall_bias)
            evidence.extend(chunk.core, (score.p_outside for score in scores))
            if after_chunk is not None and chunk.core:
                after_chunk(chunk.core[-1].end)
            tokens = chunk.tokens
            for position in range(chunk.core_start, chunk.core_end):
                word = tokens[position].text
                if word[0].isupper() and word.isalpha():
                    for token in tokens[max(0, position - 2) : position + 1]:
                        if token.start > last:
                            name_tokens.append(token)
                            last = token.start
        return self._post(document.text, predictions, name_tokens, evidence, document.patient_id), evidence

    def predict_spans(
        self,
        documents: Sequence[Document],
        recall_bias: float | None = None,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        workers: int = 1,
    ) -> dict[str, list[Prediction]]:
        """Predicted spans per document id, with patient-level propagation across records.

        Progress counts characters, so that one long note moves the bar too; a cancel is
        noticed between chunks. ``workers`` > 1 tags whole patients on that many processes
        (:mod:`annotator.crf.parallel`): the same spans, sooner.
        """
        _check_bias(recall_bias)
        # Read with ASCII look-alikes (same offsets) and composed: an accent written as a
        # combining mark ("Nun\u0303ez") would split a name; spans go back to the note as written.
        composed = [composed_document(ascii_document(d)) for d in documents]
        documents = [document for document, _ in composed]
        if workers > 1 and len({d.patient_id for d in documents}) > 1:
            from annotator.crf.parallel import predict_spans_in_parallel

            self._require_model()  # here, before any process starts
            spans = predict_spans_in_parallel(self, documents, recall_bias, workers, progress, cancelled)
            return _spans_as_written(spans, composed)
        by_id: dict[str, list[Prediction]] = {}
        evidence: dict[str, PhiEvidence] = {}
        total = sum(len(d.text) for d in documents) or 1
        done = 0

        def after_chunk(offset: int) -> None:
            if cancelled is not None and cancelled():
                raise TrainingCancelled("pre-annotation cancelled")
            if progress is not None:
                progress(min(done + offset, total), total)

        for document in documents:
            if cancelled is not None and cancelled():
                raise TrainingCancelled("pre-annotation cancelled")
            by_id[document.doc_id], evidence[document.doc_id] = self._tag_with_evidence(
                document, recall_bias, after_chunk
            )
            done += len(document.text)
            if progress is not None:
                progress(min(done, total), total)
        if self.postprocess:
            by_id = self.propagate_patients(documents, by_id, evidence)
        return _spans_as_written(self.follow_guideline(documents, by_id), composed)

    def follow_guideline(
        self, documents: Sequence[Document], by_id: dict[str, list[Prediction]]
    ) -> dict[str, list[Prediction]]:
        """Only what the project's guideline tags (all of it under i2b2 2014)."""
        if self.guideline == I2B2_2014:
            return by_id
        return {d.doc_id: follow_guideline(d.text, by_id[d.doc_id], self.guideline) for d in documents}

    @staticmethod
    def propagate_patients(
        documents: Sequence[Document],
        by_id: dict[str, list[Prediction]],
        evidence: dict[str, PhiEvidence] | None = None,
    ) -> dict[str, list[Prediction]]:
        """Apply :func:`postprocess_patient` to each patient's records (weighed by ``evidence``)."""
        patients: dict[str, list[Document]] = {}
        for document in documents:
            patients.setdefault(document.patient_id, []).append(document)
        result = dict(by_id)
        for records in patients.values():
            if len(records) > 1:
                propagated = postprocess_patient(
                    {d.doc_id: d.text for d in records}, {d.doc_id: by_id[d.doc_id] for d in records}
                )
                if evidence is not None:
                    propagated = {key: evidence[key].gate(spans) for key, spans in propagated.items()}
                result.update(propagated)
        return result

    def predict(self, document: Document, recall_bias: float | None = None) -> list[Annotation]:
        """Pending model annotations for one document (not added to it).

        Parameters
        ----------
        recall_bias:
            Threshold T in (0, 1): tokens labelled O with P(O) < T take their best PHI label.
        """
        return self.predict_corpus([document], recall_bias)[document.doc_id]

    def predict_corpus(
        self,
        documents: Sequence[Document],
        recall_bias: float | None = None,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        workers: int = 1,
    ) -> dict[str, list[Annotation]]:
        """Pending model annotations for several documents, by document id."""
        spans = self.predict_spans(documents, recall_bias, progress, cancelled, workers)
        return {d.doc_id: predictions_to_annotations(d, spans[d.doc_id], self.schema) for d in documents}


def _spans_as_written(
    spans: dict[str, list[Prediction]], composed: Sequence[tuple[Document, ComposedText]]
) -> dict[str, list[Prediction]]:
    """Spans found in composed notes, at their places in the notes as written."""
    for document, text in composed:
        if text.starts is not None:
            spans[document.doc_id] = [
                replace(p, start=text.to_written(p.start), end=text.to_written_end(p.end))
                for p in spans[document.doc_id]
            ]
    return spans


def _read_memory(raw: bytes, schema: Schema, path: Path) -> PhiMemory:
    try:
        return PhiMemory.from_json(json.loads(raw), schema)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError, ValueError) as error:
        raise ModelError(f"corrupt tagger model file: its PHI memory is unreadable ({error})", path) from None


def _check_bias(recall_bias: float | None) -> None:
    if recall_bias is not None and not 0.0 < recall_bias <= MARGINAL_CEILING:
        raise UsageError(f"recall bias must be in (0, {MARGINAL_CEILING}], got {recall_bias}")


# What each member may unpack to: a small zip can unpack to gigabytes (a "zip bomb").
_MEMBER_LIMITS = {"metadata.json": 16 * 1024 * 1024, MEMORY_MEMBER: 256 * 1024 * 1024}


def _check_unpacked_sizes(archive: zipfile.ZipFile, path: Path) -> None:
    """Refuse a member that says it unpacks to more than it may (zipfile stops reading a
    member at its stated size, so the statement is what bounds the memory used)."""
    for info in archive.infolist():
        limit = _MEMBER_LIMITS.get(info.filename, MAX_MODEL_BYTES)
        if info.file_size > limit:
            raise ModelError(
                f"not a model file PHI Annotator wrote: {info.filename} unpacks to "
                f"{info.file_size:,} bytes (at most {limit:,})",
                path,
            )


def _check_crfsuite_bytes(model_bytes: bytes, path: Path) -> None:
    """Refuse a truncated, damaged or foreign crfsuite model before the C library reads it
    (the library trusts the file's offsets and crashes the process on a bad one)."""
    try:
        check_crfsuite_model(model_bytes)
    except CorruptModel as error:
        raise ModelError(f"corrupt tagger model file: {error}", path) from None
