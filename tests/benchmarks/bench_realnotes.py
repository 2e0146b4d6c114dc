"""Real clinical notes side by side: the PhysioNet deid gold standard's test patients.

Run: ``PHYSIONET_DEID=/path/to/deid-1.1 python -m tests.benchmarks.bench_realnotes [--site-model M]
[--private-model M] [--synthetic-model M] [--private-synthetic-model M] [--learning] [--no-train]``. The corpus (Neamatullah et al. 2008; 2,434 MIMIC-II nursing notes of
163 patients, every PHI replaced by a surrogate) is read from ``$PHYSIONET_DEID`` or ``--physionet``
and never copied; without it the benchmark says so and stops.

Split, fixed: patients 1-110 may be trained on and looked at, patients 111-163 are the test,
run only to report. Every system below tags the test notes, and one scorer
(:mod:`annotator.evaluation.deid_scores`, deid's own overlap measure) compares them with the
gold: span recall, span PPV, tag-blind token P/R/F1. PROFESSION predictions are left out (the
corpus does not tag professions).

* the bundled default model (``annotator preannotate default``), without and with recall bias,
  with our i2b2 2014 guideline and with ``--guideline safe-harbor`` (the corpus's own: ages over
  89 only, no weekdays, professions, states or countries);
* ``annotator train`` on patients 1-110 (the site's own model; ``--site-model`` reuses one), and
  the same with ``--keep-private-features``, which also remembers the places and clinicians the
  gold tagged (``--private-model`` reuses one);
* ``annotator train --with-synthetic --guideline safe-harbor`` on patients 1-110: the site's
  gold learnt beside the bundled model's synthetic notes (``--synthetic-model`` reuses one), and
  the same with ``--keep-private-features``: the bundled model's recipe on the site's own gold,
  a model the site keeps to itself (``--private-synthetic-model`` reuses one);
* the default model and the site model again, given the site lists deid.pl's figures were
  measured with (``lists/`` of the package: the clinicians', hospitals', local places' and
  patients' names that its README says each site replaces with its own;
  ``annotator preannotate --site-lists``);
* deid.pl, the corpus's own 2008 rule system, from its shipped output (``GSoutput/id.phi``);
* philter-lite and Presidio, each in its own environment when installed (see bench_crf);
* a textbook CRF (word, lower case, shape, affixes, +-2 window; sklearn-crfsuite), same training.

``--learning`` adds ``annotator train`` at 5, 10, 20, 40 and 110 training patients, without and
with ``--with-synthetic``: what a site gets after annotating that many.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.crf.default_model import load_default_model
from annotator.crf.guidelines import I2B2_2014, SAFE_HARBOR
from annotator.crf.labels import Prediction, annotations_to_labels, labels_to_spans
from annotator.crf.tagger import TRAINING_ALGORITHM, TRAINING_ITERATIONS, CrfTagger
from annotator.crf.tokenizer import Token, tokenize
from annotator.evaluation.deid_scores import DeidCounts, score_note
from annotator.io.physionet import document_id, parse_blind, read_physionet
from annotator.io.site_lists import SiteLists, read_site_lists
from annotator.workflows.default_model import synthetic_training_notes
from annotator.workflows.train import fit_tagger

PHYSIONET_ENV = "PHYSIONET_DEID"
LAST_TRAINING_PATIENT = 110
# The recall bias the default model and a site model are reported at (chosen by 3-fold
# cross-validation on patients 1-110; docs/preannotation.md).
BIAS = 0.9
LEARNING_PATIENTS = (5, 10, 20, 40, 110)
LEFT_OUT = frozenset({"PROFESSION"})
Spans = dict[str, list[tuple[int, int]]]


def site_tagger(private: bool = False) -> CrfTagger:
    """A tagger as ``annotator train`` makes one (``private``: ``--keep-private-features``)."""
    return CrfTagger(
        algorithm=TRAINING_ALGORITHM, max_iterations=TRAINING_ITERATIONS, private_features=private
    )


def synthetic_site_tagger(
    gold: Sequence[Document], synthetic: Sequence[Document], private: bool = False
) -> CrfTagger:
    """``annotator train --with-synthetic --guideline safe-harbor`` on ``gold``, as the corpus is
    tagged (``private``: with ``--keep-private-features``, the bundled model's recipe on a site's
    own gold, a model for the site alone)."""
    tagger = site_tagger(private)
    tagger.guideline = SAFE_HARBOR
    fit_tagger(tagger, gold, synthetic, SAFE_HARBOR)
    return tagger


def split(documents: Sequence[Document]) -> tuple[list[Document], list[Document]]:
    train = [d for d in documents if int(d.patient_id) <= LAST_TRAINING_PATIENT]
    test = [d for d in documents if int(d.patient_id) > LAST_TRAINING_PATIENT]
    return train, test


def score(test: Sequence[Document], predicted: Spans) -> DeidCounts:
    total = DeidCounts()
    for document in test:
        gold = [(a.start, a.end) for a in document.annotations]
        total += score_note(document.text, gold, predicted.get(document.doc_id, []))
    return total


def spans_of(predictions: dict[str, list[Prediction]]) -> Spans:
    return {
        doc_id: [(p.start, p.end) for p in items if p.type not in LEFT_OUT]
        for doc_id, items in predictions.items()
    }


def corpus_site_lists(folder: Path) -> SiteLists | None:
    """deid.pl's site-specific lists, shipped with the corpus (``lists/``), when present."""
    if not (folder / "lists" / "doctor_last_names.txt").is_file():
        return None
    return read_site_lists(folder / "lists", load_schema("i2b2-2014"))


def deid_pl_output(folder: Path) -> Spans | None:
    path = folder / "GSoutput" / "id.phi"
    if not path.is_file():
        return None
    found: Spans = {}
    for patient, note, start, end in parse_blind(path.read_text(encoding="utf-8"), path):
        found.setdefault(document_id(patient, note), []).append((start, end))
    return found


# -- the textbook CRF -------------------------------------------------------------------
def _shape(word: str) -> str:
    return "".join("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c for c in word)


def _textbook_features(tokens: Sequence[Token]) -> list[dict[str, object]]:
    def own(word: str) -> dict[str, object]:
        return {
            "w": word.lower(),
            "shape": _shape(word)[:8],
            "p3": word[:3].lower(),
            "s3": word[-3:].lower(),
            "upper": word.isupper(),
            "title": word.istitle(),
            "digit": word.isdigit(),
        }

    words = [own(t.text) for t in tokens]
    sequence = []
    for index in range(len(tokens)):
        features: dict[str, object] = {"bias": 1.0, **words[index]}
        for offset in (-2, -1, 1, 2):
            if 0 <= index + offset < len(tokens):
                features.update(
                    {f"{offset}:{k}": v for k, v in words[index + offset].items() if k in ("w", "shape")}
                )
        sequence.append(features)
    return sequence


def textbook_crf(train: Sequence[Document], test: Sequence[Document]) -> dict[str, list[Prediction]]:
    """A 2000s-style CRF: word, lower case, shape, 3-letter affixes, a +-2 window; lbfgs."""
    import sklearn_crfsuite

    xs, ys = [], []
    for document in train:
        tokens = tokenize(document.text)
        if tokens:
            xs.append(_textbook_features(tokens))
            ys.append(annotations_to_labels(tokens, document.annotations))
    crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100)
    crf.fit(xs, ys)
    predicted = {}
    for document in test:
        tokens = tokenize(document.text)
        labels = [str(label) for label in crf.predict_single(_textbook_features(tokens))] if tokens else []
        predicted[document.doc_id] = labels_to_spans(tokens, labels, [1.0] * len(tokens))
    return predicted


# -- the table ---------------------------------------------------------------------------
def row(name: str, counts: DeidCounts, seconds: float | None = None) -> str:
    timing = f"{seconds:7.1f}" if seconds is not None else "      -"
    return (
        f"| {name:58s} | {counts.span_recall:.3f} | {counts.span_ppv:.3f} | {counts.token_precision:.3f} | "
        f"{counts.token_recall:.3f} | {counts.token_f1:.3f} | {counts.predicted_spans:5d} | {timing} |"
    )


HEADER = (
    "| system (test patients 111-163: 550 notes, 352 PHI) | span R | span PPV | token P | token R | token F1 "
    "| spans | seconds |\n| --- | --- | --- | --- | --- | --- | --- | --- |"
)


def tagger_rows(name: str, tagger: CrfTagger, test: Sequence[Document]) -> list[str]:
    rows = []
    for bias in (None, BIAS):
        started = time.perf_counter()
        spans = spans_of(tagger.predict_spans(test, bias))
        seconds = time.perf_counter() - started
        label = name if bias is None else f"{name}, recall bias {bias}"
        rows.append(row(label, score(test, spans), seconds))
    return rows


def print_with_lists(name: str, tagger: CrfTagger, test: Sequence[Document], lists: SiteLists | None) -> None:
    """The tagger's rows, then the same given the site lists (when the corpus has them)."""
    for line in tagger_rows(name, tagger, test):
        print(line, flush=True)
    if lists is not None:
        tagger.site_lists = lists
        for line in tagger_rows("the same, --site-lists (deid.pl's lists/)", tagger, test):
            print(line, flush=True)
        tagger.site_lists = None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_realnotes", description=__doc__.split("\n\n")[0])
    parser.add_argument("--physionet", type=Path, default=os.environ.get(PHYSIONET_ENV))
    parser.add_argument(
        "--site-model", type=Path, help="a model trained on patients 1-110 (else trained here)"
    )
    parser.add_argument(
        "--private-model", type=Path, help="a --keep-private-features model trained on patients 1-110"
    )
    parser.add_argument(
        "--synthetic-model", type=Path, help="an annotator train --with-synthetic model of patients 1-110"
    )
    parser.add_argument(
        "--private-synthetic-model",
        type=Path,
        help="an annotator train --with-synthetic --keep-private-features model of patients 1-110",
    )
    parser.add_argument("--no-train", action="store_true", help="skip the site models and the textbook CRF")
    parser.add_argument("--learning", action="store_true", help="the learning curve of annotator train")
    args = parser.parse_args(argv)
    if args.physionet is None or not (args.physionet / "id.text").is_file():
        print(
            f"skipped: set {PHYSIONET_ENV} (or --physionet) to the PhysioNet deid 1.1 folder (id.text, id-phi.phrase)"
        )
        return 0
    from tests.benchmarks.bench_crf import philter_predictions, presidio_predictions

    train, test = split(read_physionet(args.physionet))
    print(f"PhysioNet deid: {len(train)} training notes (patients 1-110), {len(test)} test notes (111-163), "
          f"{sum(len(d) for d in test)} test PHI\n")  # fmt: skip
    print(HEADER)
    default = load_default_model()
    for line in tagger_rows("default model (preannotate default)", default, test):
        print(line, flush=True)
    # The corpus's guideline is HIPAA Safe Harbor: what a site annotating to it would choose.
    default.guideline = SAFE_HARBOR
    for line in tagger_rows("default model, --guideline safe-harbor", default, test):
        print(line, flush=True)
    lists = corpus_site_lists(args.physionet)
    if lists is not None:
        default.site_lists = lists
        for line in tagger_rows("the same, --site-lists (deid.pl's lists/)", default, test):
            print(line, flush=True)
        default.guideline = I2B2_2014
        for line in tagger_rows("default model, --site-lists (deid.pl's lists/)", default, test):
            print(line, flush=True)
    if not args.no_train:
        if args.site_model is not None:
            site = CrfTagger.load(args.site_model)
        else:
            site = site_tagger()
            site.train(train)
        print_with_lists("annotator train on patients 1-110", site, test, lists)
        if args.private_model is not None:
            private = CrfTagger.load(args.private_model)
        else:
            private = site_tagger(private=True)
            private.train(train)
        for line in tagger_rows("the same, --keep-private-features", private, test):
            print(line, flush=True)
        if args.synthetic_model is not None:
            with_synthetic = CrfTagger.load(args.synthetic_model)
            with_synthetic.guideline = SAFE_HARBOR
        else:
            with_synthetic = synthetic_site_tagger(train, synthetic_training_notes())
        print_with_lists("annotator train --with-synthetic on 1-110", with_synthetic, test, lists)
        if args.private_synthetic_model is not None:
            private_synthetic = CrfTagger.load(args.private_synthetic_model)
            private_synthetic.guideline = SAFE_HARBOR
        else:
            private_synthetic = synthetic_site_tagger(train, synthetic_training_notes(), private=True)
        print_with_lists(
            "annotator train --with-synthetic --keep-private-features on 1-110",
            private_synthetic,
            test,
            lists,
        )
    shipped = deid_pl_output(args.physionet)
    if shipped is not None:
        print(row("deid.pl (2008 rules; its shipped output)", score(test, shipped)), flush=True)
    for name, run in (("philter-lite", philter_predictions), ("Presidio", presidio_predictions)):
        started = time.perf_counter()
        predictions = run(test)
        if predictions is not None:
            print(row(name, score(test, spans_of(predictions)), time.perf_counter() - started), flush=True)
    if not args.no_train:
        started = time.perf_counter()
        found = spans_of(textbook_crf(train, test))
        seconds = time.perf_counter() - started
        print(row("textbook CRF (sklearn-crfsuite, same training)", score(test, found), seconds), flush=True)
    if args.learning:
        print("\nLearning curve: annotator train on the first N training patients, tested on 111-163")
        print(HEADER)
        synthetic = synthetic_training_notes()
        for learns_synthetic in (False, True):
            for patients in LEARNING_PATIENTS:
                subset = [d for d in train if int(d.patient_id) <= patients]
                started = time.perf_counter()
                if learns_synthetic:
                    tagger = synthetic_site_tagger(subset, synthetic)
                else:
                    tagger = site_tagger()
                    tagger.train(subset)
                trained = time.perf_counter() - started
                for bias in (None, BIAS):
                    spans = spans_of(tagger.predict_spans(test, bias))
                    label = (
                        f"{patients} patients ({len(subset)} notes)"
                        + (", --with-synthetic" if learns_synthetic else "")
                        + ("" if bias is None else f", bias {bias}")
                    )
                    print(row(label, score(test, spans), trained), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
