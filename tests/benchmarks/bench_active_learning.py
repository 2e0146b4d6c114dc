"""How many annotated tokens uncertainty order saves: a simulation on real notes.

Run: ``PHYSIONET_DEID=/path/to/deid-1.1 python -m tests.benchmarks.bench_active_learning
[--k 5] [--rounds 7] [--held-out 20] [--seeds 3] [--iterations 30] [--png FILE] [--json FILE]``
(``--from-json FILE`` prints the tables and draws the plot of a saved run again). Without the
corpus it says so and stops.

Only the training patients 1-110 of the PhysioNet deid corpus are used (111-163 stay the
untouched test of the real-notes benchmark). A fixed draw of ``--held-out`` of them is the
held-out set the models are scored on; the others are the pool an annotator works through.
Round 0 is the bundled default model. Each round, ``--k`` patients are "annotated" (their gold
is the oracle), a tagger is trained from scratch on every patient annotated so far (as the
window's retrain as you go does: L-BFGS, ``--iterations``), and scored on the held-out
patients with the corpus's own measure (tag-blind token F1, deid's ``stat.pm``; PROFESSION
left out). The next patients are chosen three ways:

* **uncertainty**: the patients whose waiting notes the current model (the default model in
  round 1) is least sure of, by the queue's measure (least confidence per token, summed over
  a patient's notes and divided by their tokens; :func:`annotator.workflows.queue.rank_notes`
  with whole patients kept together);
* **random**: a random order of the pool, one per seed;
* **file order**: patients by number.

Cost is counted in tokens the annotator had to read (the tagger's tokens of every note of
the patients annotated). The first table gives, per order, the annotated tokens at which the
held-out token F1 first reached each threshold (retrained rounds only: round 0 costs
nothing), and the mean F1 over the retrained rounds (the area under the learning curve,
per round); the second, the best F1 reached within a budget of tokens (whole rounds only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from annotator.core.document import Document
from annotator.crf.default_model import load_default_model
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import tokenize
from annotator.crf.uncertainty import note_uncertainty
from annotator.evaluation.deid_scores import DeidCounts, score_note
from annotator.io.physionet import read_physionet
from annotator.workflows.queue import rank_notes

PHYSIONET_ENV = "PHYSIONET_DEID"
LAST_TRAINING_PATIENT = 110
THRESHOLDS = (0.75, 0.80, 0.85, 0.90, 0.95)
BUDGETS = (20_000, 40_000, 60_000, 80_000, 100_000, 150_000, 200_000)
LEFT_OUT = frozenset({"PROFESSION"})
SPLIT_SEED = 2027
Curve = list[tuple[int, float]]  # (annotated tokens, held-out token F1) per round


def held_out_f1(tagger: CrfTagger, held_out: Sequence[Document]) -> float:
    predicted = tagger.predict_spans(held_out)
    total = DeidCounts()
    for document in held_out:
        spans = [(p.start, p.end) for p in predicted.get(document.doc_id, []) if p.type not in LEFT_OUT]
        total += score_note(document.text, [(a.start, a.end) for a in document.annotations], spans)
    return total.token_f1


def by_uncertainty(tagger: CrfTagger, waiting: Sequence[Document], k: int) -> list[str]:
    ranked = rank_notes((note_uncertainty(tagger, d) for d in waiting), by_patient=True)
    chosen: list[str] = []
    for entry in ranked:
        if entry.patient_id not in chosen:
            chosen.append(entry.patient_id)
        if len(chosen) == k:
            break
    return chosen


def simulate(
    name: str,
    choose: Callable[[CrfTagger, list[Document], int], list[str]],
    pool: dict[str, list[Document]],
    held_out: Sequence[Document],
    args: argparse.Namespace,
    start: tuple[float, CrfTagger],
) -> Curve:
    f1, tagger = start
    curve: Curve = [(0, f1)]
    annotated: list[Document] = []
    tokens = 0
    waiting = dict(pool)
    for round_number in range(1, args.rounds + 1):
        if not waiting:
            break
        began = time.perf_counter()
        notes = [d for patient in sorted(waiting) for d in waiting[patient]]
        for patient in choose(tagger, notes, args.k):
            for document in waiting.pop(patient):
                annotated.append(document)
                tokens += len(tokenize(document.text))
        tagger = CrfTagger(algorithm="lbfgs", max_iterations=args.iterations)
        tagger.train(annotated)
        f1 = held_out_f1(tagger, held_out)
        curve.append((tokens, f1))
        print(
            f"  {name:12s} round {round_number}: {len(pool) - len(waiting):3d} patients, "
            f"{tokens:7,d} tokens, token F1 {f1:.3f} ({time.perf_counter() - began:.0f} s)",
            flush=True,
        )
    return curve


def tokens_to_reach(curve: Curve, threshold: float) -> int | None:
    return next((tokens for tokens, f1 in curve[1:] if f1 >= threshold), None)


def summary_row(name: str, curves: list[Curve]) -> str:
    cells = []
    for threshold in THRESHOLDS:
        reached = [tokens_to_reach(c, threshold) for c in curves]
        if all(r is None for r in reached):
            cells.append("not reached")
        elif len(curves) == 1:
            cells.append(f"{reached[0]:,}")
        else:
            shown = ", ".join("–" if r is None else f"{r:,}" for r in reached)
            cells.append(shown)
    area = [statistics.mean(f1 for _t, f1 in c[1:]) for c in curves]
    final = [c[-1] for c in curves]
    area_text = f"{statistics.mean(area):.3f}" + (
        f" ({min(area):.3f}-{max(area):.3f})" if len(area) > 1 else ""
    )
    final_text = "; ".join(f"{f1:.3f} at {t:,}" for t, f1 in final)
    return f"| {name} | " + " | ".join(cells) + f" | {area_text} | {final_text} |"


def f1_within(curve: Curve, budget: int) -> float:
    """The held-out F1 an annotator has after spending at most ``budget`` tokens (rounds are whole)."""
    return max((f1 for tokens, f1 in curve[1:] if tokens <= budget), default=float("nan"))


def budget_row(name: str, curves: list[Curve]) -> str:
    cells = []
    for budget in BUDGETS:
        values = [f1_within(c, budget) for c in curves]
        known = [v for v in values if v == v]
        if not known:
            cells.append("–")
        elif len(curves) == 1:
            cells.append(f"{known[0]:.3f}")
        else:
            cells.append(
                f"{statistics.mean(known):.3f} ({', '.join('–' if v != v else f'{v:.3f}' for v in values)})"
            )
    return f"| {name} | " + " | ".join(cells) + " |"


def tables(curves: dict[str, list[Curve]], seeds: int) -> str:
    names = {name: name if name != "random" else f"random ({seeds} seeds)" for name in curves}
    lines = [
        "| order | "
        + " | ".join(f"tokens to F1 {t:.2f}" for t in THRESHOLDS)
        + " | mean F1 over rounds 1-n | F1 at the end |",
        "| --- " * (len(THRESHOLDS) + 3) + "|",
        *(summary_row(names[name], runs) for name, runs in curves.items()),
        "",
        "| order | " + " | ".join(f"best F1 within {b // 1000}K tokens" for b in BUDGETS) + " |",
        "| --- " * (len(BUDGETS) + 1) + "|",
        *(budget_row(names[name], runs) for name, runs in curves.items()),
    ]
    return "\n".join(lines)


def plot(curves: dict[str, list[Curve]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 5), dpi=110)
    styles = {"uncertainty": ("#d55e00", "-"), "random": ("#0072b2", "--"), "file order": ("#009e73", ":")}
    for name, runs in curves.items():
        colour, line = styles[name]
        for index, curve in enumerate(runs):
            # Round 0 is drawn apart: the default model is not trained on the annotated notes.
            xs = [t / 1000 for t, _f in curve[1:]]
            ys = [f for _t, f in curve[1:]]
            label = name if index == 0 else None
            axes.plot(xs, ys, line, color=colour, marker="o", markersize=3, label=label, alpha=0.9)
    start = next(iter(curves.values()))[0][0][1]
    axes.plot([0], [start], "*", color="#444444", markersize=10, label="round 0: bundled default model")
    for threshold in (0.90, 0.95):
        axes.axhline(threshold, color="#999999", linewidth=0.8)
    axes.set_xlabel("annotated tokens (thousands)")
    axes.set_ylabel("held-out tag-blind token F1")
    axes.set_title(title, fontsize=9)
    axes.legend(loc="lower right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_active_learning", description=__doc__.split("\n\n")[0])
    parser.add_argument("--physionet", type=Path, default=os.environ.get(PHYSIONET_ENV))
    parser.add_argument("--k", type=int, default=5, help="patients annotated per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--held-out", type=int, default=20, help="patients of 1-110 held out for scoring")
    parser.add_argument("--seeds", type=int, default=3, help="random orders")
    parser.add_argument("--iterations", type=int, default=30, help="L-BFGS iterations per retrain")
    parser.add_argument("--png", type=Path, help="write the learning curves here")
    parser.add_argument("--json", type=Path, help="write the curves here ([tokens, F1] per round)")
    parser.add_argument(
        "--from-json", type=Path, help="tables and plot of curves a run wrote (no simulation)"
    )
    args = parser.parse_args(argv)
    if args.from_json is not None:
        saved = json.loads(args.from_json.read_text(encoding="utf-8"))
        loaded = {name: [[(int(t), float(f)) for t, f in c] for c in runs] for name, runs in saved.items()}
        print(tables(loaded, len(loaded.get("random", []))))
        if args.png is not None:
            plot(
                loaded,
                args.png,
                f"PhysioNet deid, patients 1-110: {args.held_out} held out, the rest the pool; k = {args.k} patients per round",
            )
        return 0
    if args.physionet is None or not (Path(args.physionet) / "id.text").is_file():
        print(f"skipped: set {PHYSIONET_ENV} (or --physionet) to the PhysioNet deid 1.1 folder (id.text)")
        return 0
    began = time.perf_counter()
    documents = [
        d for d in read_physionet(Path(args.physionet)) if int(d.patient_id) <= LAST_TRAINING_PATIENT
    ]
    patients: dict[str, list[Document]] = {}
    for document in sorted(documents, key=lambda d: (d.patient_id, d.record)):
        patients.setdefault(document.patient_id, []).append(document)
    held_ids = set(random.Random(SPLIT_SEED).sample(sorted(patients), args.held_out))
    held_out = [d for p in sorted(held_ids) for d in patients[p]]
    pool = {p: notes for p, notes in patients.items() if p not in held_ids}
    print(
        f"PhysioNet deid, patients 1-{LAST_TRAINING_PATIENT}: pool {len(pool)} patients "
        f"({sum(len(n) for n in pool.values())} notes), held out {len(held_ids)} patients ({len(held_out)} notes, "
        f"{sum(len(d) for d in held_out)} PHI); k = {args.k}, {args.rounds} rounds, L-BFGS {args.iterations} iterations",
        flush=True,
    )
    default = load_default_model()
    start = (held_out_f1(default, held_out), default)
    print(f"  round 0, the bundled default model: token F1 {start[0]:.3f}", flush=True)
    curves: dict[str, list[Curve]] = {}
    curves["uncertainty"] = [simulate("uncertainty", by_uncertainty, pool, held_out, args, start)]
    curves["random"] = []
    for seed in range(args.seeds):
        order = sorted(pool)
        random.Random(seed).shuffle(order)

        def choose_random(
            _t: CrfTagger, notes: list[Document], k: int, order: list[str] = order
        ) -> list[str]:
            left = {d.patient_id for d in notes}
            return [p for p in order if p in left][:k]

        curves["random"].append(simulate(f"random {seed}", choose_random, pool, held_out, args, start))

    def choose_file(_t: CrfTagger, notes: list[Document], k: int) -> list[str]:
        return sorted({d.patient_id for d in notes}, key=int)[:k]

    curves["file order"] = [simulate("file order", choose_file, pool, held_out, args, start)]
    print("\n" + tables(curves, args.seeds))
    if args.json is not None:
        args.json.write_text(json.dumps(curves) + "\n", encoding="utf-8")
    print(f"\nround 0 (bundled default model, no tokens annotated): token F1 {start[0]:.3f}")
    print(f"wall time {time.perf_counter() - began:.0f} s")
    if args.png is not None:
        plot(
            curves,
            args.png,
            f"PhysioNet deid, patients 1-110: {len(pool)} in the pool, {len(held_ids)} held out; "
            f"k = {args.k} patients per round",
        )
        print(f"plot: {args.png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
