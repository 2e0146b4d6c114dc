"""The counting engine of the clean mode: one engine for IAA, adjudication and model evaluation.

Input is a list of :class:`DocumentPair` (reference and predicted annotations of one note);
output an :class:`EvaluationResult` with counts per document and per label, micro and macro
scores, a type confusion matrix, Cohen's kappa on tokens and a disagreement list.

Match modes
-----------
strict
    same label and the same start and end; one-to-one (a duplicate is a false positive).
relaxed
    same label and start, ends at most ``relaxed_distance`` (2) apart; one-to-one, with the
    largest possible number of pairs.
overlap
    same label and at least one shared character; one-to-one maximum matching.
token
    every alphanumeric token of the text (Unicode letters and digits) is a unit; a token
    carries the labels of the annotations covering it; counts are per (token, label).
tagblind
    token mode with every label replaced by ``PHI`` (was the token caught at all).

``level="type"`` labels items ``CATEGORY/TYPE``; ``level="category"`` only ``CATEGORY``.
TYPE is compared case-insensitively (upper-cased on reading).
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from annotator.core.annotation import Annotation
from annotator.errors import UsageError
from annotator.evaluation.counts import NAN, Counts, f_beta_from_counts, none_if_nan, sum_counts
from annotator.evaluation.interval_matching import (
    candidate_pair_count,
    greedy_interval_matching,
    representable,
)

MATCH_MODES = ("strict", "relaxed", "overlap", "token", "tagblind")
LEVELS = ("type", "category")
TAGBLIND_LABEL = "PHI"
NONE_LABEL = "(none)"
OUTSIDE = "O"
# Letters and digits of any script; underscores and punctuation separate tokens.
TOKEN_RE = re.compile(r"[^\W_]+")
# Past these, overlap matching leaves Kuhn's search for the interval sweep (same size).
MATCHING_PAIR_LIMIT = 200_000
MATCHING_STEP_LIMIT = 2_000_000


@dataclass(frozen=True)
class Item:
    """An annotation reduced to what scoring needs: label, category, type and offsets."""

    category: str
    type: str
    start: int
    end: int
    text: str = ""

    def label(self, level: str) -> str:
        return self.category if level == "category" else f"{self.category}/{self.type}"


def item_from_annotation(annotation: Annotation) -> Item:
    return Item(annotation.tag, annotation.type.upper(), annotation.start, annotation.end, annotation.text)


@dataclass
class DocumentPair:
    """Reference and predicted versions of one note.

    ``reference_present`` / ``predicted_present`` are False for a document that exists on
    one side only; its items then all count as misses (false negatives or positives).
    """

    doc_id: str
    text: str
    reference: list[Item]
    predicted: list[Item]
    reference_present: bool = True
    predicted_present: bool = True

    @classmethod
    def from_annotations(
        cls,
        doc_id: str,
        text: str,
        reference: Iterable[Annotation],
        predicted: Iterable[Annotation],
        reference_present: bool = True,
        predicted_present: bool = True,
    ) -> DocumentPair:
        return cls(
            doc_id,
            text,
            [item_from_annotation(a) for a in reference],
            [item_from_annotation(a) for a in predicted],
            reference_present,
            predicted_present,
        )


@dataclass(frozen=True)
class Options:
    """How to compare: match mode, label level, F-beta and the relaxed tolerance."""

    match: str = "strict"
    level: str = "type"
    beta: float = 1.0
    relaxed_distance: int = 2

    def __post_init__(self) -> None:
        if self.match not in MATCH_MODES:
            raise UsageError(f"unknown match mode {self.match!r} (choose from {', '.join(MATCH_MODES)})")
        if self.level not in LEVELS:
            raise UsageError(f"unknown level {self.level!r} (choose type or category)")
        if not self.beta > 0:
            raise UsageError(f"beta must be positive, not {self.beta}")


@dataclass(frozen=True)
class Disagreement:
    """One reference or predicted item that did not find its exact counterpart.

    kind: ``missed`` (reference only), ``spurious`` (predicted only), ``type`` (same span,
    other label) or ``boundary`` (overlapping spans, different offsets).
    """

    doc_id: str
    kind: str
    reference: Item | None
    predicted: Item | None

    def to_dict(self, include_text: bool = False) -> dict[str, object]:
        def side(item: Item | None) -> dict[str, object] | None:
            if item is None:
                return None
            data: dict[str, object] = {
                "category": item.category,
                "type": item.type,
                "start": item.start,
                "end": item.end,
            }
            if include_text:
                data["text"] = item.text
            return data

        return {
            "document": self.doc_id,
            "kind": self.kind,
            "reference": side(self.reference),
            "predicted": side(self.predicted),
        }


@dataclass
class DocumentResult:
    """Counts of one document, in total and per label."""

    doc_id: str
    labels: dict[str, Counts]
    reference_present: bool = True
    predicted_present: bool = True

    @property
    def counts(self) -> Counts:
        return sum_counts(self.labels.values())


@dataclass
class ConfusionMatrix:
    """Reference label (rows) against predicted label (columns) of overlapping items.

    ``(none)`` stands for "no overlapping item on the other side".
    """

    labels: list[str]
    cells: dict[tuple[str, str], int]

    def count(self, reference: str, predicted: str) -> int:
        return self.cells.get((reference, predicted), 0)

    def rows(self) -> list[str]:
        return [*self.labels, NONE_LABEL]

    def to_dict(self) -> dict[str, object]:
        return {
            "labels": self.rows(),
            "matrix": [[self.count(r, c) for c in self.rows()] for r in self.rows()],
        }


@dataclass
class Kappa:
    """Cohen's kappa over every token of the text (true negatives included)."""

    tokens: int
    observed: float
    expected: float

    @property
    def kappa(self) -> float:
        if self.tokens == 0 or self.expected >= 1.0:
            return NAN
        return (self.observed - self.expected) / (1.0 - self.expected)

    def to_dict(self) -> dict[str, object]:
        return {
            "tokens": self.tokens,
            "observed_agreement": none_if_nan(self.observed),
            "expected_agreement": none_if_nan(self.expected),
            "kappa": none_if_nan(self.kappa),
        }


@dataclass
class EvaluationResult:
    """Everything one comparison produces. See docs/evaluation.md for the JSON form."""

    options: Options
    documents: list[DocumentResult]
    confusion: ConfusionMatrix
    kappa_labelled: Kappa
    kappa_tagblind: Kappa
    disagreements: list[Disagreement] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    category_of: dict[str, str] = field(default_factory=dict)
    # The token label pairs behind the two kappas, kept so results of parts of a corpus can be
    # merged exactly (evaluation.merge).
    kappa_pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    tagblind_pairs: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def micro(self) -> Counts:
        return sum_counts(d.counts for d in self.documents)

    @property
    def per_label(self) -> dict[str, Counts]:
        totals: dict[str, Counts] = {}
        for document in self.documents:
            for label, counts in document.labels.items():
                totals[label] = totals.get(label, Counts()) + counts
        return dict(sorted(totals.items()))

    @property
    def per_category(self) -> dict[str, Counts]:
        """Counts summed by category (at type level a type confusion inside a category counts)."""
        if self.options.match == "tagblind":
            return {}
        totals: dict[str, Counts] = {}
        for label, counts in self.per_label.items():
            category = label.split("/", 1)[0]
            totals[category] = totals.get(category, Counts()) + counts
        return dict(sorted(totals.items()))

    @property
    def per_type(self) -> dict[str, Counts]:
        """Counts per ``CATEGORY/TYPE``; empty at category level and in tag-blind mode."""
        if self.options.level != "type" or self.options.match == "tagblind":
            return {}
        return self.per_label

    def macro(self, beta: float | None = None) -> dict[str, float]:
        """Per-document scores averaged over the documents where each is defined.

        A document with no predicted item has no precision, one with no reference item no
        recall, and one with neither no F1: they are left out of that average (not scored 0).
        """
        beta = self.options.beta if beta is None else beta
        precisions, recalls, f1s, fbs = [], [], [], []
        for document in self.documents:
            c = document.counts
            if c.predicted:
                precisions.append(c.precision)
            if c.reference:
                recalls.append(c.recall)
            if not c.is_empty:
                f1s.append(c.f1)
                fbs.append(c.f_beta(beta))
        result = {
            "precision": _mean(precisions),
            "recall": _mean(recalls),
            "f1": _mean(f1s),
            "documents_scored": float(len(f1s)),
        }
        if beta != 1.0:
            result["f_beta"] = _mean(fbs)
        return result

    def macro_dict(self) -> dict[str, object]:
        """:meth:`macro` as JSON gives it: NaN as null, the document count as an integer."""
        values = self.macro()
        macro: dict[str, object] = {k: none_if_nan(v) for k, v in values.items()}
        macro["documents_scored"] = int(values["documents_scored"])
        return macro

    def micro_f1_interval(self) -> tuple[float, float] | None:
        """The 95% bootstrap interval of the micro F1, resampling documents (or None)."""
        from annotator.evaluation.bootstrap import micro_f1_interval

        # In document order: the same documents give the same interval however they were read
        # (batch evaluate merges partitions).
        return micro_f1_interval([d.counts for d in sorted(self.documents, key=lambda d: d.doc_id)])

    def to_dict(self, include_text: bool = False, include_disagreements: bool = True) -> dict[str, object]:
        beta = self.options.beta
        micro = self.micro.to_dict(beta)
        macro = self.macro_dict()
        data: dict[str, object] = {
            "schema": "phi-annotator/evaluation/1",
            "options": {
                "match": self.options.match,
                "level": self.options.level,
                "beta": beta,
                "relaxed_distance": self.options.relaxed_distance,
            },
            "includes_text": include_text,
            "documents": len(self.documents),
            "micro": micro,
            # The corpus F1's 95% interval, documents resampled (evaluation.bootstrap).
            "micro_f1_interval": list(interval)
            if (interval := self.micro_f1_interval()) is not None
            else None,
            "macro": macro,
            "per_category": {k: v.to_dict(beta) for k, v in self.per_category.items()},
            "per_type": {k: v.to_dict(beta) for k, v in self.per_type.items()},
            "per_document": [
                {
                    "document": d.doc_id,
                    "reference_present": d.reference_present,
                    "predicted_present": d.predicted_present,
                    **d.counts.to_dict(beta),
                }
                for d in self.documents
            ],
            "confusion": self.confusion.to_dict(),
            "kappa": {"labelled": self.kappa_labelled.to_dict(), "tagblind": self.kappa_tagblind.to_dict()},
            "skipped": list(self.skipped),
        }
        if include_disagreements:
            data["disagreements"] = [d.to_dict(include_text) for d in self.disagreements]
        return data


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else NAN


# -- matching ---------------------------------------------------------------------------------
def _strict(reference: list[Item], predicted: list[Item], level: str) -> dict[str, Counts]:
    ref = Counter((i.label(level), i.start, i.end) for i in reference)
    pred = Counter((i.label(level), i.start, i.end) for i in predicted)
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for key, n in ref.items():
        m = pred.get(key, 0)
        tp = min(n, m)
        out[key[0]][0] += tp
        out[key[0]][2] += n - tp
    for key, m in pred.items():
        tp = min(ref.get(key, 0), m)
        out[key[0]][1] += m - tp
    return {label: Counts(*v) for label, v in out.items()}


def _relaxed(reference: list[Item], predicted: list[Item], level: str, distance: int) -> dict[str, Counts]:
    ref: dict[tuple[str, int], list[int]] = defaultdict(list)
    pred: dict[tuple[str, int], list[int]] = defaultdict(list)
    for i in reference:
        ref[(i.label(level), i.start)].append(i.end)
    for i in predicted:
        pred[(i.label(level), i.start)].append(i.end)
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for key in ref.keys() | pred.keys():
        r, p = sorted(ref.get(key, [])), sorted(pred.get(key, []))
        # Greedy two-pointer matching of sorted points within a tolerance is maximum.
        x = y = tp = 0
        while x < len(r) and y < len(p):
            if abs(r[x] - p[y]) <= distance:
                tp += 1
                x += 1
                y += 1
            elif r[x] < p[y]:
                x += 1
            else:
                y += 1
        counts = out[key[0]]
        counts[0] += tp
        counts[1] += len(p) - tp
        counts[2] += len(r) - tp
    return {label: Counts(*v) for label, v in out.items()}


def _overlap_candidates(
    reference: Sequence[Item], predicted: Sequence[Item]
) -> tuple[list[list[int]], list[int]]:
    """Per reference item, the overlapping predictions in the order Kuhn's search tries them.

    The order is the one the matching has always used: by start (then index), then stably by
    the number of shared characters, most first. Reference items with the same span share one
    list (and one list key), which the search uses to skip work. Built in
    O(n log n + size of the lists): no scan over every prediction per reference item.
    """
    order = sorted(range(len(predicted)), key=lambda k: predicted[k].start)
    starts = [predicted[k].start for k in order]
    ends = [predicted[k].end for k in order]
    # prefix_max[k]: the largest end among the first k predictions in start order, to skip
    # the tree walk when no earlier-starting prediction reaches this item (the common case).
    prefix_max = [-1]
    for end in ends:
        prefix_max.append(max(prefix_max[-1], end))
    size = 1
    while size < max(len(order), 1):
        size *= 2
    tree = [-1] * (2 * size)  # max end over each node's range of start-order positions
    tree[size : size + len(ends)] = ends
    for node in range(size - 1, 0, -1):
        tree[node] = max(tree[2 * node], tree[2 * node + 1])
    by_start: dict[int, list[int]] = defaultdict(list)
    for k, item in enumerate(predicted):
        by_start[item.start].append(k)

    def reaching(limit: int, point: int) -> list[int]:
        """Start-order positions < limit whose prediction ends after point, in order."""
        out: list[int] = []
        if limit <= 0 or prefix_max[limit] <= point:
            return out
        stack = [(1, 0, size)]
        while stack:
            node, lo, hi = stack.pop()
            if lo >= limit or tree[node] <= point:
                continue
            if node >= size:
                out.append(lo)
                continue
            mid = (lo + hi) // 2
            stack.append((2 * node + 1, mid, hi))
            stack.append((2 * node, lo, mid))
        return out

    lists: dict[tuple[int, int], int] = {}
    adjacency: list[list[int]] = []
    keys: list[int] = []
    for item in reference:
        span = (item.start, item.end)
        key = lists.get(span)
        if key is None:
            key = lists[span] = len(adjacency)
            if item.start == item.end:  # an empty item overlaps only an item at the same place
                candidates = list(by_start.get(item.start, []))
            else:
                # Earlier starts need the tree; starts inside the item overlap unless empty.
                first = bisect.bisect_left(starts, item.start)
                stop = bisect.bisect_left(starts, item.end)
                candidates = [order[k] for k in reaching(first, item.start)]
                candidates.extend(order[k] for k in range(first, stop) if ends[k] > item.start)
            # Prefer the prediction sharing the most characters, so pairs look natural.
            candidates.sort(
                key=lambda k: -(min(item.end, predicted[k].end) - max(item.start, predicted[k].start))
            )
            adjacency.append(candidates)
        keys.append(key)
    return adjacency, keys


def max_overlap_matching(reference: Sequence[Item], predicted: Sequence[Item]) -> list[tuple[int, int]]:
    """A maximum one-to-one matching of overlapping items (index pairs), Kuhn's algorithm.

    The result is exactly the one of the textbook recursive search (reference items in order,
    each trying its candidates in :func:`_overlap_candidates` order), computed without
    recursion (thousands of stacked tags overflowed Python's stack) and with two shortcuts
    that cannot change the outcome:

    * within one search, entries of a candidate list before the furthest point any item with
      that list has scanned to are all visited already, so twins (identical spans) resume there
      instead of rescanning: copies of one tag cost O(n) per search, not O(n^2);
    * predictions visited by a failed search stay unreachable by any later augmenting path
      (the visited set is closed and its matching never changes), so they are skipped.

    A pile of tags that overlap one another (thousands nested, hostile or broken input) has
    too many candidate pairs, or augmenting paths too long, for that search: past
    ``MATCHING_PAIR_LIMIT`` candidate pairs or ``MATCHING_STEP_LIMIT`` search steps the
    matching comes from :func:`greedy_interval_matching`, as large (so every count is the
    same) but perhaps pairing other tags. Empty reference items keep the search.
    """
    intervals = representable(reference)
    if (
        intervals
        and len(reference) * len(predicted) > MATCHING_PAIR_LIMIT  # else it cannot be over: skip counting
        and candidate_pair_count(reference, predicted) > MATCHING_PAIR_LIMIT
    ):
        return greedy_interval_matching(reference, predicted)
    adjacency, keys = _overlap_candidates(reference, predicted)
    mate = [-1] * len(predicted)  # prediction -> reference item
    dead = bytearray(len(predicted))
    seen_in = [-1] * len(predicted)  # the search (root) that last visited a prediction
    furthest = [0] * len(adjacency)  # per list: scanned-to position in the search furthest_in
    furthest_in = [-1] * len(adjacency)
    steps = 0
    for root in range(len(reference)):
        if intervals and steps > MATCHING_STEP_LIMIT:
            return greedy_interval_matching(reference, predicted)
        frames = [root]  # reference items on the current alternating path
        positions = [0]  # next candidate position of each frame
        taken: list[int] = []  # prediction each frame (but the last) passed through
        visited: list[int] = []
        found = False
        while frames:
            r = frames[-1]
            key = keys[r]
            candidates = adjacency[key]
            i = positions[-1]
            if furthest_in[key] == root and furthest[key] > i:
                i = furthest[key]
            pushed = False
            while i < len(candidates):
                p = candidates[i]
                i += 1
                steps += 1
                if seen_in[p] == root or dead[p]:
                    continue
                seen_in[p] = root
                visited.append(p)
                positions[-1] = i
                furthest[key], furthest_in[key] = i, root
                if mate[p] < 0:
                    taken.append(p)
                    found = True
                else:
                    taken.append(p)
                    frames.append(mate[p])
                    positions.append(0)
                    pushed = True
                break
            if found:
                for r_on_path, p_on_path in zip(frames, taken, strict=True):
                    mate[p_on_path] = r_on_path
                break
            if not pushed:
                positions[-1] = i
                if furthest_in[key] != root or furthest[key] < i:
                    furthest[key], furthest_in[key] = i, root
                frames.pop()
                positions.pop()
                if taken:
                    taken.pop()
        if not found:
            for p in visited:
                dead[p] = 1
    return sorted((r, p) for p, r in enumerate(mate) if r >= 0)


def _overlap(reference: list[Item], predicted: list[Item], level: str) -> dict[str, Counts]:
    ref: dict[str, list[Item]] = defaultdict(list)
    pred: dict[str, list[Item]] = defaultdict(list)
    for i in reference:
        ref[i.label(level)].append(i)
    for i in predicted:
        pred[i.label(level)].append(i)
    out = {}
    for label in ref.keys() | pred.keys():
        r, p = ref.get(label, []), pred.get(label, [])
        tp = len(max_overlap_matching(r, p)) if r and p else 0
        out[label] = Counts(tp, len(p) - tp, len(r) - tp)
    return out


def text_tokens(text: str) -> list[tuple[int, int]]:
    """(start, end) of every run of letters or digits (any script) in the text."""
    return [m.span() for m in TOKEN_RE.finditer(text)]


def _token_range(starts: list[int], ends: list[int], item: Item) -> tuple[int, int]:
    """Indexes [lo, hi) of the tokens sharing at least one character with the item.

    Tokens are disjoint and in order, so they form one run: from the first ending after the
    item's start to the last starting before its end (none for an empty item between tokens).
    """
    return bisect.bisect_right(ends, item.start), bisect.bisect_left(starts, item.end)


def _token_labels(
    tokens: list[tuple[int, int]], starts: list[int], items: list[Item], label: Callable[[Item], str]
) -> dict[int, set[str]]:
    """Token index -> labels of the items sharing at least one character with it."""
    if _piled(items, starts):
        return _token_labels_merged(tokens, starts, items, label)
    out: dict[int, set[str]] = defaultdict(set)
    for item in items:
        k = max(bisect.bisect_right(starts, item.start) - 1, 0)
        while k < len(tokens) and tokens[k][0] < item.end:
            if tokens[k][1] > item.start:
                out[k].add(label(item))
            k += 1
    return out


def _piled(items: list[Item], starts: list[int]) -> bool:
    """Whether the items cover the text many times over (piles of nested tags), so walking each
    item's tokens would cost far more than the text has: then the merged walks are used."""
    covered = 0
    for item in items:
        covered += item.end - item.start
    return covered > 8 * (starts[-1] + 1 if starts else 0) + 4096


def _token_labels_merged(
    tokens: list[tuple[int, int]], starts: list[int], items: list[Item], label: Callable[[Item], str]
) -> dict[int, set[str]]:
    """:func:`_token_labels` with each label's token runs merged before they are walked, so a
    pile of nested tags costs the tokens they cover once, not once per tag."""
    ends = [end for _, end in tokens]
    runs: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for item in items:
        lo, hi = _token_range(starts, ends, item)
        if lo < hi:
            runs[label(item)].append((lo, hi))
    out: dict[int, set[str]] = defaultdict(set)
    for name, spans in runs.items():
        spans.sort()
        reached = 0
        for lo, hi in spans:
            for k in range(max(lo, reached), hi):
                out[k].add(name)
            reached = max(reached, hi)
    return out


def _token_counts(
    tokens: list[tuple[int, int]], starts: list[int], pair: DocumentPair, label: Callable[[Item], str]
) -> dict[str, Counts]:
    ref = _token_labels(tokens, starts, pair.reference, label)
    pred = _token_labels(tokens, starts, pair.predicted, label)
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for k in ref.keys() | pred.keys():
        r, p = ref.get(k, set()), pred.get(k, set())
        for lab in r & p:
            out[lab][0] += 1
        for lab in p - r:
            out[lab][1] += 1
        for lab in r - p:
            out[lab][2] += 1
    return {lab: Counts(*v) for lab, v in out.items()}


def _single_token_labels(
    tokens: list[tuple[int, int]], starts: list[int], items: list[Item], level: str
) -> list[str]:
    """One label per token for kappa: the longest covering item's label (the first such), else ``O``."""
    if _piled(items, starts):
        return _single_token_labels_longest_first(tokens, starts, items, level)
    labels = [OUTSIDE] * len(tokens)
    lengths = [0] * len(tokens)
    for item in items:
        k = max(bisect.bisect_right(starts, item.start) - 1, 0)
        while k < len(tokens) and tokens[k][0] < item.end:
            if tokens[k][1] > item.start and item.end - item.start > lengths[k]:
                labels[k] = item.label(level)
                lengths[k] = item.end - item.start
            k += 1
    return labels


def _single_token_labels_longest_first(
    tokens: list[tuple[int, int]], starts: list[int], items: list[Item], level: str
) -> list[str]:
    """:func:`_single_token_labels` for piles of tags: every token labelled once.

    Items are taken longest first and each labels only the tokens no longer item has labelled;
    ``following`` skips labelled runs (a union-find of "next unlabelled token").
    """
    labels = [OUTSIDE] * len(tokens)
    ends = [end for _, end in tokens]
    following = list(range(len(tokens) + 1))

    def unlabelled_from(k: int) -> int:
        while following[k] != k:
            following[k] = following[following[k]]
            k = following[k]
        return k

    longest_first = sorted(range(len(items)), key=lambda i: (items[i].start - items[i].end, i))
    for index in longest_first:
        item = items[index]
        if item.end == item.start:
            continue  # an empty item is never the longest
        lo, hi = _token_range(starts, ends, item)
        k = unlabelled_from(lo)
        while k < hi:
            labels[k] = item.label(level)
            following[k] = k + 1
            k = unlabelled_from(k + 1)
    return labels


def cohen_kappa(pairs: Iterable[tuple[str, str]]) -> Kappa:
    """Cohen's kappa of two label sequences given as (a, b) pairs."""
    return kappa_from_counts(Counter(pairs))


def kappa_from_counts(pair_counts: Counter[tuple[str, str]]) -> Kappa:
    """Cohen's kappa from counts of (label a, label b) pairs."""
    n = sum(pair_counts.values())
    if n == 0:
        return Kappa(0, NAN, NAN)
    agree = sum(count for (a, b), count in pair_counts.items() if a == b)
    a_counts: Counter[str] = Counter()
    b_counts: Counter[str] = Counter()
    for (a, b), count in pair_counts.items():
        a_counts[a] += count
        b_counts[b] += count
    expected = math.fsum(a_counts[label] * b_counts[label] for label in a_counts) / (n * n)
    return Kappa(n, agree / n, expected)


def _disagreements(pair: DocumentPair) -> list[Disagreement]:
    """Items without an exact counterpart, aligned by overlap to explain what went wrong."""
    exact_ref = Counter((i.category, i.type, i.start, i.end) for i in pair.reference)
    exact_pred = Counter((i.category, i.type, i.start, i.end) for i in pair.predicted)
    common = exact_ref & exact_pred
    left_ref, left_pred = [], []
    budget = Counter(common)
    for i in pair.reference:
        key = (i.category, i.type, i.start, i.end)
        if budget[key] > 0:
            budget[key] -= 1
        else:
            left_ref.append(i)
    budget = Counter(common)
    for i in pair.predicted:
        key = (i.category, i.type, i.start, i.end)
        if budget[key] > 0:
            budget[key] -= 1
        else:
            left_pred.append(i)
    out = []
    matched = max_overlap_matching(left_ref, left_pred)
    used_ref = {r for r, _ in matched}
    used_pred = {p for _, p in matched}
    for r, p in matched:
        ref, pred = left_ref[r], left_pred[p]
        kind = "type" if (ref.start, ref.end) == (pred.start, pred.end) else "boundary"
        out.append(Disagreement(pair.doc_id, kind, ref, pred))
    out.extend(
        Disagreement(pair.doc_id, "missed", i, None) for k, i in enumerate(left_ref) if k not in used_ref
    )
    out.extend(
        Disagreement(pair.doc_id, "spurious", None, i) for k, i in enumerate(left_pred) if k not in used_pred
    )
    out.sort(key=lambda d: ((d.reference or d.predicted).start, (d.reference or d.predicted).end))  # type: ignore[union-attr]
    return out


def _confusion_update(cells: Counter[tuple[str, str]], pair: DocumentPair) -> None:
    matched = max_overlap_matching(pair.reference, pair.predicted)
    used_ref = {r for r, _ in matched}
    used_pred = {p for _, p in matched}
    for r, p in matched:
        cells[(pair.reference[r].label("type"), pair.predicted[p].label("type"))] += 1
    for k, item in enumerate(pair.reference):
        if k not in used_ref:
            cells[(item.label("type"), NONE_LABEL)] += 1
    for k, item in enumerate(pair.predicted):
        if k not in used_pred:
            cells[(NONE_LABEL, item.label("type"))] += 1


def evaluate_pairs(
    pairs: Sequence[DocumentPair],
    options: Options | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    details: bool = True,
) -> EvaluationResult:
    """Score every document pair.

    Parameters
    ----------
    options:
        Match mode, level and beta (strict, type level, F1 by default).
    details:
        Also compute the confusion matrix, kappa and disagreement list (skip them for
        speed when only counts are needed, e.g. in significance tests).
    """
    options = options or Options()
    level = options.level
    documents: list[DocumentResult] = []
    cells: Counter[tuple[str, str]] = Counter()
    disagreements: list[Disagreement] = []
    kappa_pairs: Counter[tuple[str, str]] = Counter()
    blind_pairs: Counter[tuple[str, str]] = Counter()
    category_of: dict[str, str] = {}
    for index, pair in enumerate(pairs):
        if cancelled is not None and cancelled():
            break
        for item in (*pair.reference, *pair.predicted):
            category_of[item.label(level)] = item.category
        tokens: list[tuple[int, int]] = []
        starts: list[int] = []
        if options.match in ("token", "tagblind") or details:
            tokens = text_tokens(pair.text)
            starts = [t[0] for t in tokens]
        if options.match == "strict":
            labels = _strict(pair.reference, pair.predicted, level)
        elif options.match == "relaxed":
            labels = _relaxed(pair.reference, pair.predicted, level, options.relaxed_distance)
        elif options.match == "overlap":
            labels = _overlap(pair.reference, pair.predicted, level)
        elif options.match == "token":
            labels = _token_counts(tokens, starts, pair, lambda i: i.label(level))
        else:
            labels = _token_counts(tokens, starts, pair, lambda i: TAGBLIND_LABEL)
        documents.append(DocumentResult(pair.doc_id, labels, pair.reference_present, pair.predicted_present))
        if details:
            _confusion_update(cells, pair)
            disagreements.extend(_disagreements(pair))
            ref_labels = _single_token_labels(tokens, starts, pair.reference, level)
            pred_labels = _single_token_labels(tokens, starts, pair.predicted, level)
            document_pairs = Counter(zip(ref_labels, pred_labels, strict=True))
            kappa_pairs.update(document_pairs)
            for (a, b), count in document_pairs.items():
                blind_pairs[
                    (TAGBLIND_LABEL if a != OUTSIDE else OUTSIDE, TAGBLIND_LABEL if b != OUTSIDE else OUTSIDE)
                ] += count
        if progress is not None:
            progress(index + 1, len(pairs))
    confusion_labels = sorted({label for pair in cells for label in pair if label != NONE_LABEL})
    return EvaluationResult(
        options=options,
        documents=documents,
        confusion=ConfusionMatrix(confusion_labels, dict(cells)),
        kappa_labelled=kappa_from_counts(kappa_pairs),
        kappa_tagblind=kappa_from_counts(blind_pairs),
        disagreements=disagreements,
        category_of=category_of,
        kappa_pairs=kappa_pairs,
        tagblind_pairs=blind_pairs,
    )


def f_beta(counts: Counts, beta: float) -> float:
    """F-beta of counts (re-exported for callers that hold only counts)."""
    return f_beta_from_counts(counts.tp, counts.fp, counts.fn, beta)
