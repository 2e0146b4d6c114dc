"""Annotate all: exact, case, whole word, fuzzy, conflicts, one undo step, consistency."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.history import History
from annotator.core.propagation import (
    Match,
    apply_propagation,
    build_propagation_commands,
    find_occurrences,
    find_unannotated_occurrences,
    lower_same_length,
    prepare_indexes,
    scope_documents,
    text_index,
)


def tag(
    document: Document, needle: str, type_: str = "PATIENT", tag_: str = "NAME", nth: int = 0
) -> Annotation:
    """Add an annotation over the nth occurrence of ``needle`` (directly, test setup only)."""
    start = -1
    for _ in range(nth + 1):
        start = document.text.index(needle, start + 1)
    return document.add(document.make_annotation(tag_, type_, start, start + len(needle)))


def spans(matches: list[Match]) -> list[tuple[str, int, int]]:
    return sorted(m.key for m in matches)


def test_exact_matches_case_insensitive_by_default() -> None:
    prefix = "Seen by Marissa Jones. "
    text = prefix + "MARISSA JONES called; marissa jones agreed."
    document = Document("100-01", text)
    source = tag(document, "Marissa Jones")
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    second = len(prefix)
    third = text.index("marissa jones")
    assert spans(preview.matches) == [("100-01", second, second + 13), ("100-01", third, third + 13)]
    assert all(m.selected for m in preview.matches)
    assert preview.matches[0].text == "MARISSA JONES"


def test_case_sensitive_keeps_only_same_case() -> None:
    text = "Kai Yamamoto. KAI YAMAMOTO. Kai Yamamoto."
    document = Document("100-01", text)
    source = tag(document, "Kai Yamamoto")
    preview = find_occurrences(source, [document], origin_doc_id="100-01", case_sensitive=True)
    last = text.rindex("Kai Yamamoto")
    assert spans(preview.matches) == [("100-01", last, last + len("Kai Yamamoto"))]


@pytest.mark.parametrize(
    ("text", "whole_word", "expected"),
    [
        ("Ann saw Annabel and Ann.", True, ["Ann."]),
        ("Ann saw Annabel and Ann.", False, ["Annabel", "Ann."]),
        ("Ann saw JoAnn.", True, []),
        ("Ann saw (Ann) and Ann's", True, ["(Ann)", "Ann's"]),
    ],
)
def test_whole_word(text: str, whole_word: bool, expected: list[str]) -> None:
    document = Document("100-01", text)
    source = tag(document, "Ann")
    preview = find_occurrences(source, [document], origin_doc_id="100-01", whole_word=whole_word)
    starts = [m.start for m in sorted(preview.matches, key=lambda m: m.start)]
    want = []
    position = 0
    for word in expected:
        position = text.index(word, position)
        want.append(position + word.index("Ann"))
        position += 1
    assert starts == want


def test_source_with_punctuation_edges_matches_whole_phrase() -> None:
    text = "Call (617) 555-0101 or (617) 555-0101x2 or a(617) 555-0101."
    document = Document("100-01", text)
    source = tag(document, "(617) 555-0101", "PHONE", "CONTACT")
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    # "...0101x2" ends inside a digit run; "a(617)..." starts at punctuation, which is fine.
    third = text.rindex("(617) 555-0101")
    assert spans(preview.matches) == [("100-01", third, third + len("(617) 555-0101"))]


def test_whitespace_inside_name_matches_line_break() -> None:
    prefix = "Dr. Kai Yamamoto saw her. Later Dr. "
    text = prefix + "Kai\n  Yamamoto returned."
    document = Document("100-01", text)
    source = tag(document, "Kai Yamamoto", "DOCTOR")
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    assert spans(preview.matches) == [("100-01", len(prefix), len(prefix) + len("Kai\n  Yamamoto"))]
    # The dialog's context is one line even when the note breaks lines.
    assert "\n" not in preview.matches[0].right and "\n" not in preview.matches[0].left


def test_fuzzy_offered_separately_and_not_selected() -> None:
    prefix = "Marissa is here. Later "
    text = prefix + "Marrisa left. Marissa too. Mariposa no."
    document = Document("100-01", text)
    source = tag(document, "Marissa")
    without = find_occurrences(source, [document], origin_doc_id="100-01")
    assert without.fuzzy == []
    preview = find_occurrences(source, [document], origin_doc_id="100-01", fuzzy=True)
    assert [m.text for m in preview.fuzzy] == ["Marrisa"]
    assert preview.fuzzy[0].start == len(prefix)
    assert preview.fuzzy[0].selected is False and preview.fuzzy[0].is_fuzzy
    assert 85 <= preview.fuzzy[0].score < 100
    # Exact matches are not offered again as fuzzy ones.
    assert [m.text for m in preview.matches] == ["Marissa"]
    assert preview.selected == preview.matches


def test_fuzzy_window_overlapping_exact_match_not_offered() -> None:
    document = Document("100-01", "Marissa met Marissas.")
    source = tag(document, "Marissa")
    loose = find_occurrences(source, [document], origin_doc_id="100-01", whole_word=False, fuzzy=True)
    assert [m.start for m in loose.matches] == [document.text.index("Marissas")]
    assert loose.fuzzy == []
    strict = find_occurrences(source, [document], origin_doc_id="100-01", fuzzy=True)
    assert strict.matches == []
    assert [m.text for m in strict.fuzzy] == ["Marissas"]


def test_fuzzy_threshold_and_short_sources() -> None:
    document = Document("100-01", "Marissa and Marrisa. Jon and John.")
    marissa = tag(document, "Marissa")
    strict = find_occurrences(marissa, [document], origin_doc_id="100-01", fuzzy=True, fuzzy_threshold=99)
    assert strict.fuzzy == []
    jon = tag(document, "Jon")
    short = find_occurrences(jon, [document], origin_doc_id="100-01", fuzzy=True, fuzzy_threshold=50)
    assert short.fuzzy == []


def test_conflicts_reported_and_never_overwritten() -> None:
    text = "Jones met Jones Street and Jones."
    document = Document("100-01", text)
    source = tag(document, "Jones")
    street = tag(document, "Jones Street", "STREET", "LOCATION")
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    conflict_start = text.index("Jones Street")
    assert spans(preview.conflicts) == [("100-01", conflict_start, conflict_start + 5)]
    assert preview.conflicts[0].overlapping_ids == (street.id,)
    assert preview.conflicts[0].selected is False
    history = History()
    # Even if the dialog passes the conflict as selected, it is not applied.
    apply_propagation(history, preview, {"100-01": document}, source, preview.matches + preview.conflicts)
    assert document.get(street.id) == street
    assert sorted((a.start, a.type) for a in document) == [
        (0, "PATIENT"),
        (conflict_start, "STREET"),
        (text.rindex("Jones"), "PATIENT"),
    ]


def test_already_annotated_is_skipped() -> None:
    document = Document("100-01", "Jones and Jones.")
    source = tag(document, "Jones")
    other = tag(document, "Jones", nth=1)
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    assert preview.matches == []
    assert [m.overlapping_ids for m in preview.already] == [(other.id,)]
    assert build_propagation_commands(preview, {"100-01": document}, source) == []


def test_a_pending_suggestion_of_the_same_tag_is_offered_and_accepted_not_called_done() -> None:
    document = Document("100-01", "Seen Friday. Back Friday. Out Friday.")
    source = tag(document, "Friday", "DATE", "DATE")
    start = document.text.index("Friday", source.end)
    suggestion = document.add(
        document.make_annotation(
            "DATE", "DATE", start, start + 6, source=Source.MODEL, confidence=0.8, pending=True
        )
    )
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    # Counted as "already annotated", it stayed pending and unreviewed.
    assert preview.already == [] and [m.overlapping_ids for m in preview.suggested] == [(suggestion.id,)]
    assert sorted(m.key for m in preview.selected) == sorted(
        m.key for m in preview.matches + preview.suggested
    )
    history = History()
    apply_propagation(history, preview, {"100-01": document}, source, annotator="alice")
    accepted = document.get(suggestion.id)
    assert (accepted.pending, accepted.source, accepted.confidence, accepted.annotator) == (
        False,
        Source.MODEL,
        0.8,
        "alice",
    )
    assert len(document) == 3  # the third Friday added, the suggestion accepted, no duplicate
    history.undo()
    assert document.get(suggestion.id).pending and len(document) == 2


def test_one_undo_step_across_documents_with_provenance_and_fresh_ids() -> None:
    first = Document("100-01", "Pt Marissa Jones, 54.")
    second = Document("100-02", "Marissa Jones returns. Marissa Jones again.")
    other_patient = Document("101-01", "Marissa Jones elsewhere.")
    corpus = [first, second, other_patient]
    tag(second, "Marissa Jones", nth=1)  # P0 in 100-02 already exists: new ids must differ
    source = tag(first, "Marissa Jones")
    scope = scope_documents("patient", first, corpus)
    assert [d.doc_id for d in scope] == ["100-01", "100-02"]
    preview = find_occurrences(source, scope, origin_doc_id="100-01")
    assert len(preview.matches) == 1 and len(preview.already) == 1
    history = History()
    history.push_all([], "nothing")  # no-op, no step
    command = apply_propagation(history, preview, {d.doc_id: d for d in corpus}, source)
    assert command is not None and command.description == "annotate all"
    assert len(second) == 2
    ids = [a.id for a in second]
    assert len(set(ids)) == 2
    new = [a for a in second if a.source is Source.PROPAGATED]
    assert [(a.start, a.tag, a.type, a.text) for a in new] == [(0, "NAME", "PATIENT", "Marissa Jones")]
    assert len(other_patient) == 0
    history.undo()
    assert len(second) == 1 and history.can_redo
    history.redo()
    assert len(second) == 2


def test_project_scope_single_undo_step() -> None:
    documents = [Document(f"{p}-0{r}", "Dr. Kai Yamamoto signed.") for p in (100, 101) for r in (1, 2)]
    source = tag(documents[0], "Kai Yamamoto", "DOCTOR")
    scope = scope_documents("project", documents[0], documents)
    preview = find_occurrences(source, scope, origin_doc_id=documents[0].doc_id)
    history = History()
    apply_propagation(history, preview, {d.doc_id: d for d in documents}, source, annotator="ann1")
    assert [len(d) for d in documents] == [1, 1, 1, 1]
    assert {a.annotator for d in documents[1:] for a in d} == {"ann1"}
    history.undo()
    assert [len(d) for d in documents] == [1, 0, 0, 0]
    assert not history.can_undo


def test_overlapping_selected_matches_keep_the_first() -> None:
    text = "Marissa Marrisa"
    document = Document("100-01", "x " + text)
    source = document.make_annotation("NAME", "PATIENT", 0, 1)
    near = Match("100-01", 2, 2 + 7, "Marissa")
    overlapping = Match("100-01", 5, 5 + 7, "issa Ma")
    commands = build_propagation_commands(
        find_occurrences(source, [document], origin_doc_id="100-01"),
        {"100-01": document},
        source,
        [overlapping, near],
    )
    assert len(commands) == 1
    History().push_all(commands, "annotate all")
    assert [(a.start, a.end) for a in document] == [(2, 9)]


def test_document_scope_and_current_always_included() -> None:
    current = Document("100-01", "a")
    others = [Document("100-02", "b"), Document("101-01", "c")]
    assert scope_documents("document", current, others) == [current]
    assert scope_documents("patient", current, others) == [current, others[0]]
    assert len(scope_documents("project", current, others)) == 3


def test_match_repr_hides_note_text() -> None:
    document = Document("100-01", "Marissa Jones and Marissa Jones")
    source = tag(document, "Marissa Jones")
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    assert "Marissa" not in repr(preview) and "Jones" not in repr(preview)


def test_text_index_refreshes_on_text_change() -> None:
    document = Document("100-01", "Alpha")
    assert text_index(document).lower == "alpha"
    document.text = "Beta"
    assert text_index(document).lower == "beta"


def test_lowercase_keeps_offsets() -> None:
    text = "İstanbul Marissa"
    assert len(lower_same_length(text)) == len(text)
    document = Document("100-01", text + " MARISSA")
    source = tag(document, "Marissa")
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    assert [m.text for m in preview.matches] == ["MARISSA"]


# -- consistency ---------------------------------------------------------------------------


def test_unannotated_occurrences_within_patient() -> None:
    first = Document("100-01", "Marissa Jones seen at Boston General.")
    second = Document("100-02", "MARISSA JONES returns; Jonesville; Marissa Jones Street.")
    other = Document("101-01", "Marissa Jones unrelated.")
    tag(first, "Marissa Jones")
    hospital = tag(first, "Boston General", "HOSPITAL", "LOCATION")
    tag(second, "Marissa Jones Street", "STREET", "LOCATION")
    found = find_unannotated_occurrences([first, second, other], scope="patient")
    assert [(i.doc_id, i.start, i.end, i.text) for i in found] == [
        ("100-02", 0, len("MARISSA JONES"), "MARISSA JONES"),
    ]
    assert found[0].types == (("NAME", "PATIENT"),)
    assert found[0].annotated_at == (("100-01", "P0"),)
    assert found[0].suggested == ("NAME", "PATIENT")
    assert hospital.id == "P1"


def test_unannotated_occurrences_corpus_scope_and_type_order() -> None:
    a = Document("100-01", "Jones. Jones. Jones.")
    b = Document("101-01", "Jones again")
    tag(a, "Jones", "PATIENT")
    tag(a, "Jones", "PATIENT", nth=1)
    tag(a, "Jones", "DOCTOR", nth=2)
    assert find_unannotated_occurrences([a, b], scope="patient") == []
    found = find_unannotated_occurrences([a, b], scope="corpus")
    assert [(i.doc_id, i.start) for i in found] == [("101-01", 0)]
    assert found[0].types == (("NAME", "PATIENT"), ("NAME", "DOCTOR"))
    assert found[0].scope == "corpus"


def test_unannotated_skips_short_and_punctuation_strings() -> None:
    document = Document("100-01", "A - ... x A - ... Bo Bo")
    tag(document, "A", "INITIALS")
    tag(document, "-", "OTHER", "LOCATION")
    tag(document, "...", "OTHER", "LOCATION")
    tag(document, "Bo")
    found = find_unannotated_occurrences([document])
    assert [(i.start, i.text) for i in found] == [(document.text.rindex("Bo"), "Bo")]


def test_unannotated_phrase_with_punctuation_edges() -> None:
    text = "Call (617) 555-0101 now; (617) 555-0101x; ((617) 555-0101)."
    document = Document("100-01", text)
    tag(document, "(617) 555-0101", "PHONE", "CONTACT")
    found = find_unannotated_occurrences([document])
    last = text.rindex("(617) 555-0101")
    assert [i.start for i in found] == [last]


def test_unannotated_case_sensitive_option() -> None:
    first = Document("100-01", "Lives in Gary, IN.")
    second = Document("100-02", "Back in IN and in Gary.")
    tag(first, "IN", "STATE", "LOCATION")
    loose = find_unannotated_occurrences([first, second])
    strict = find_unannotated_occurrences([first, second], case_sensitive=True)
    assert [(i.doc_id, i.text) for i in loose] == [
        ("100-01", "in"),
        ("100-02", "in"),
        ("100-02", "IN"),
        ("100-02", "in"),
    ]
    assert [(i.doc_id, i.start) for i in strict] == [("100-02", second.text.index("IN"))]


def test_fuzzy_multi_word_across_line_break() -> None:
    prefix = "Dr. Kai Yamamoto signed. Copy to Dr. "
    text = prefix + "Kai\nYamamotto (cardiology)."
    document = Document("100-01", text)
    source = tag(document, "Kai Yamamoto", "DOCTOR")
    preview = find_occurrences(source, [document], origin_doc_id="100-01", fuzzy=True)
    assert [(m.start, m.text) for m in preview.fuzzy] == [(len(prefix), "Kai\nYamamotto")]


def test_prepare_indexes_reports_progress_and_can_stop() -> None:
    documents = [Document(f"100-{i:02d}", f"note {i}") for i in range(250)]
    calls: list[tuple[int, int]] = []
    prepare_indexes(documents, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(100, 250), (200, 250), (250, 250)]
    stopped: list[tuple[int, int]] = []
    prepare_indexes(documents, progress=lambda d, t: stopped.append((d, t)), cancelled=lambda: True)
    assert stopped == []


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(["marisa", "marissa", "mariss", "jones", "jonse", "amrissa", "x", "ssa"]),
        min_size=4,
        max_size=40,
    ),
    separators=st.lists(st.sampled_from([" ", "\n", ", ", "  ", " ("]), min_size=40, max_size=40),
    threshold=st.sampled_from([70.0, 80.0, 85.0, 95.0]),
    two_words=st.booleans(),
)
def test_fuzzy_prefilter_loses_nothing(
    words: list[str], separators: list[str], threshold: float, two_words: bool
) -> None:
    text = "".join(w + s for w, s in zip(words, separators, strict=False))
    document = Document("100-01", text)
    needle = "Marissa Jones" if two_words else "Marissa"
    source = Annotation("S", "NAME", "PATIENT", 0, len(needle), needle)
    preview = find_occurrences(
        source, [document], origin_doc_id="other", fuzzy=True, fuzzy_threshold=threshold
    )
    query = needle.lower()
    size = len(query.split())
    index = text_index(document)
    exact = {(m.start, m.end) for m in preview.matches}
    brute = {
        index.window_span(i, size)
        for i, window in enumerate(index.windows(size))
        if fuzz.ratio(query, window) >= threshold and window != query
    }
    brute = {(b, e) for b, e in brute if not any(b < x_end and x_start < e for x_start, x_end in exact)}
    assert {(m.start, m.end) for m in preview.fuzzy} == brute


def test_unannotated_occurrences_beside_a_pile_of_nested_tags() -> None:
    # 1,000 nested tags over "Bo Bo ... Bo": every position inside the pile is covered, so only
    # the occurrence after it is reported (the search used to try every length at every word).
    pile = "Bo " * 2000
    document = Document("100-01", pile + "end Bo Bo.")
    for k in range(1000):
        document.add(document.make_annotation("NAME", "PATIENT", 3 * k, len(pile) - 3 * k - 1))
    found = find_unannotated_occurrences([document], scope="patient")
    tail = len(pile) + len("end ")
    assert [(i.start, i.end, i.text) for i in found] == [(tail, tail + len("Bo Bo"), "Bo Bo")]


def test_a_name_written_with_combining_marks_or_hidden_characters_is_found() -> None:
    # What a reader sees as "José Nuñez" may be written with combining accents, a soft hyphen
    # or a zero-width space (exports, word processors, web pages): each is that name.
    forms = ["Jose\u0301 Nun\u0303ez", "José Nu\u00adñez", "JOSÉ\u200b NUÑEZ", "Jose\u0301 Nu\u200dn\u0303ez"]
    text = "Seen: José Nuñez. " + " ".join(f"{form}." for form in forms) + " Jose Nunez."
    document = Document("100-01", text)
    source = tag(document, "José Nuñez")
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    assert [m.text for m in sorted(preview.matches, key=lambda m: m.start)] == forms
    # And from a tag written that way, the plain spelling.
    decomposed = tag(document, forms[0])
    found = find_occurrences(decomposed, [document], origin_doc_id="100-01")
    assert [m.text for m in found.already] == ["José Nuñez"]  # tagged above
    assert len(found.matches) == 3


def test_a_tag_holding_only_characters_nobody_sees_finds_nothing() -> None:
    # Left without its zero-width space, such a tag's text is empty: the pattern built from
    # it matched an empty span at every word edge, each offered as a PHI to tag.
    document = Document("100-01", "Ann\u200bLee saw Bob. Ann\u200bLee again.")
    source = document.add(document.make_annotation("NAME", "PATIENT", 3, 4))
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    found = [*preview.matches, *preview.suggested, *preview.already, *preview.conflicts, *preview.fuzzy]
    assert found == []


def test_annotate_all_from_a_long_tag_in_notes_with_hidden_characters_is_quick() -> None:
    # The pattern that let a hidden character stand between any two letters took ~8 s to
    # compile for a tag of 10,000 characters (40 s for 50,000), the window frozen meanwhile.
    paragraph = ("Nuñez Garcia seen at home. " * 400).strip()
    decomposed = paragraph.replace("Nuñez", "Nun\u0303ez", 3)
    text = paragraph + "\nAgain: " + decomposed + "\nHen\u00addrickson."
    document = Document("100-01", text)
    source = tag(document, paragraph)
    started = time.perf_counter()
    preview = find_occurrences(source, [document], origin_doc_id="100-01")
    assert time.perf_counter() - started < 3
    (match,) = preview.matches
    assert text[match.start : match.end] == decomposed
