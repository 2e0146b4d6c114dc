"""Mutants that cannot change behaviour, each with the reason (mutmut names them
``module.x_function__mutmut_N``, methods ``module.xǁClassǁmethod__mutmut_N``). Survivors not
listed here count against the kill rate. Mutant numbers are stable while the source of that
function does not change; after editing a function, re-check its entries."""

from __future__ import annotations

_ENGINE = "annotator.evaluation.engine."
_SIG = "annotator.evaluation.significance."
_IAA = "annotator.evaluation.iaa."
_UNITS = "annotator.adjudication.units."
_FAST = (
    "only turns off the fast path for one identical tag per version; the general path builds the same unit"
)
_FIRST = (
    "the first item always lands in the else branch (empty cluster), which resets cluster and cluster_end"
)
_DEC = "annotator.adjudication.decisions."
_SESSION = _DEC + "xǁAdjudicationSessionǁ"
_CACHE = "only defeats the once-per-second cache: every call formats the same current second"
_ZIP = "names and the per-version key sets have the same length by construction, so strict never raises"
_DEFAULT = (
    "a missing field gives a value that is no unit id and no decision kind either way: the entry is skipped"
)
_DATES = "annotator.deid.dates."
_NEG = "date - relativedelta(weekday=X) equals date + relativedelta(weekday=X): negation keeps the weekday rule (checked 1990-2099)"
_LOWERED = "the token is lower-cased first, so stripping upper-case X as well changes nothing"
_LEAK = "annotator.deid.leakcheck."
_ZIPF_CASE = "wordfreq lower-cases a word before looking it up: zipf('HOPE') == zipf('hope')"
_FOLDED = "case-insensitive tokens are only ever compared lower-cased (anchor, sequence, names set)"
_RARE = (
    "for one alphabetic token, dictionary_word (zipf >= 3.0) already makes the match case-sensitive"
    " exactly when the token is not rare; for other tokens rare is False either way"
)
_ANCHOR = "the anchor only picks which token is looked up; the whole sequence is compared at each place"
_OWN = "the patient filter is a speed-up: _leak_kind rejects other patients' places for own-patient-only candidates"
_NESTED = "a tag further back (or an empty one) only matters with nested tags, which outputs never have"
_FIRST_AT = "split('@')[0] is the user name whatever the maximum number of splits"
_CLIN = "annotator.deid.clinical_language."
_FOUND_AFTER = (
    "a newline found after the match is at or after its end, which is > 0, so >= 0, > 0 and >= 1 agree"
)
_RFIND_FROM = (
    "searching for the line start from 0, None or 1 only differs by a newline at 0, before which no word is"
)
_VAR = "annotator.deid.leak_variants."
_BOTH_SIDES = (
    "the same function makes the looked-for and the found value, so a consistent change compares the same"
)
_SUBSTRINGS = (
    "only substrings of 5+ letters of an all-letter word are compared: shorter or non-alphabetic"
    " wanted tokens, and empty ranges, never match"
)
_TAGGER = "annotator.crf.tagger.xǁCrfTaggerǁ"
_NO_PHI = (
    "train refuses documents without a PHI label, so a model always has one and max() never needs its default"
)
_STRICT = "align_documents and load_versions pass as many names as documents, so strict never raises"
_LEVEL = "Item.label treats every level other than 'category' as type level"
_DTYPE = "float64 is numpy's default, and integer input gives the same float results"
_F1_GUARD = "where the denominator is 0 or 1, tp is 0, so every branch gives F1 = 0"

EQUIVALENT: dict[str, str] = {
    _ENGINE
    + "x__overlap__mutmut_22": "max_overlap_matching of an empty side is empty: the guard only saves a call",
    _ENGINE + "x__overlap__mutmut_23": "same: with one side empty the matching is empty either way",
    _ENGINE
    + "x__relaxed__mutmut_44": "equal ends are within the tolerance, so the first branch takes them; < and <= never differ",
    _ENGINE
    + "x__token_labels__mutmut_9": "starting the token scan one token earlier only adds a token that ends before the item",
    _ENGINE
    + "x__single_token_labels__mutmut_16": "same: an earlier start of the scan adds a non-overlapping token",
    _ENGINE
    + "x_evaluate_pairs__mutmut_17": "tokens is reassigned whenever it is read (token modes or details)",
    _ENGINE + "x_evaluate_pairs__mutmut_18": "starts is reassigned whenever it is read",
    _ENGINE
    + "x_evaluate_pairs__mutmut_28": "bisecting token ends instead of starts lands on the same or an earlier token; the scan skips non-overlapping ones",
    _ENGINE
    + "x_evaluate_pairs__mutmut_122": "both label lists come from the same token list: equal lengths, strict never raises",
    _ENGINE + "x_evaluate_pairs__mutmut_125": "same: zip over equal-length lists",
    _ENGINE + "x_evaluate_pairs__mutmut_126": "same: zip over equal-length lists",
    _SIG + "x__by_document__mutmut_4": _DTYPE,
    _SIG + "x__by_document__mutmut_6": _DTYPE,
    _SIG + "x__by_document__mutmut_18": "split without a limit has the same first part",
    _SIG + "x__by_document__mutmut_21": "split limit 2 has the same first part",
    _SIG + "x__f1__mutmut_20": _F1_GUARD,
    _SIG + "x__f1__mutmut_21": _F1_GUARD,
    _SIG + "x__f1__mutmut_31": "the inner guard only avoids 0/0, whose result the outer where drops",
    _SIG + "x__f1__mutmut_32": _F1_GUARD,
    _SIG + "x__f1__mutmut_33": "the stand-in denominator only replaces 0, whose result the outer where drops",
    _SIG
    + "x__f1__mutmut_6": "no division by zero happens (the inner where), so the error state is never consulted",
    _SIG + "x__f1__mutmut_7": "same: no invalid operation happens",
    _SIG + "x__f1__mutmut_8": "same",
    _SIG + "x__f1__mutmut_9": "same",
    _SIG + "x_compare_systems__mutmut_51": "sums of float arrays; Counts() converts each with int()",
    _SIG + "x_compare_systems__mutmut_54": "same",
    _SIG + "x_randomisation_test__mutmut_12": _DTYPE,
    _SIG + "x_randomisation_test__mutmut_14": _DTYPE,
    _SIG + "x_randomisation_test__mutmut_17": _DTYPE,
    _SIG + "x_randomisation_test__mutmut_19": _DTYPE,
    _SIG + "x_randomisation_test__mutmut_33": _DTYPE,
    _SIG
    + "x_randomisation_test__mutmut_38": "integers(2) draws from [0, 2) like integers(0, 2), from the same stream",
    _SIG
    + "x_randomisation_test__mutmut_41": "another integer dtype draws another, equally uniform 0/1 stream: p stays a valid sample",
    _SIG
    + "x_randomisation_test__mutmut_76": "a statistic exactly 1e-12 below the observed one is not reachable with counts this small",
    _SIG + "xǁSignificanceTestǁto_dict__mutmut_16": "nan < threshold is False, the same as the nan branch",
    _SIG
    + "x_compare_systems__mutmut_19": "per_category of a tag-blind result is empty, so the guard only saves work",
    _SIG + "x_compare_systems__mutmut_20": "same",
    "annotator.evaluation.counts.x_f_beta_from_scores__mutmut_2": "nan in either score makes the formula nan anyway",
    _ENGINE + "x__confusion_update__mutmut_10": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_11": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_12": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_13": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_14": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_15": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_21": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_22": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_23": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_29": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_30": _LEVEL,
    _ENGINE + "x__confusion_update__mutmut_31": _LEVEL,
    _IAA
    + "xǁAgreementReportǁaverage_versus_gold__mutmut_31": "math.fsum of a list holding nan is nan: the guard gives the same value",
    _IAA
    + "xǁAgreementReportǁmatrix__mutmut_6": "every off-diagonal cell is overwritten: combinations() covers every pair of distinct names",
    _UNITS
    + "xǁUnitǁmajority__mutmut_8": "most_common(None)[0] is the same first element as most_common(1)[0]",
    _UNITS + "xǁUnitǁmajority__mutmut_9": "same: most_common(2)[0] == most_common(1)[0]",
    _UNITS + "x_align_documents__mutmut_118": "when end == cluster_end the assignment writes the same value",
    _UNITS
    + "x_align_documents__mutmut_132": "check_same_text has made every version's TEXT equal to the first one's",
    _UNITS + "x_align_documents__mutmut_28": _FIRST,
    _UNITS + "x_align_documents__mutmut_29": _FIRST,
    _UNITS + "x_align_documents__mutmut_30": _FIRST,
    _UNITS + "x_align_documents__mutmut_31": _FIRST,
    _UNITS + "x_align_documents__mutmut_32": _FAST,
    _UNITS + "x_align_documents__mutmut_39": _FAST,
    _UNITS + "x_align_documents__mutmut_42": _FAST,
    _UNITS
    + "x_align_documents__mutmut_43": "all keys equal the second's exactly when they all equal the first's",
    _UNITS + "x_align_documents__mutmut_44": _FAST,
    _UNITS + "x_align_documents__mutmut_46": _FAST,
    _UNITS + "x_align_documents__mutmut_47": _FAST,
    _UNITS + "x_check_same_text__mutmut_5": _STRICT,
    _UNITS + "x_check_same_text__mutmut_8": _STRICT,
    _UNITS + "x_check_same_text__mutmut_11": _STRICT,
    _DEC + "x__now__mutmut_3": _CACHE,
    _DEC + "x__now__mutmut_5": _CACHE,
    _DEC + "x__now__mutmut_6": _CACHE,
    _DEC + "x_read_log__mutmut_9": "codec names are case-insensitive: UTF-8 is utf-8",
    _DEC
    + "x_read_log__mutmut_7": "not detectable here: the locale encoding is UTF-8 on this machine and in CI (Python's UTF-8 mode)",
    _SESSION + "__init____mutmut_27": "Origin's default format is i2b2",
    _SESSION
    + "__init____mutmut_39": "finalised is reassigned from the log before anyone can connect to the signal",
    _SESSION
    + "__init____mutmut_40": "same: the value is overwritten before it is read or signalled to a listener",
    _SESSION + "_command__mutmut_21": _ZIP,
    _SESSION + "_command__mutmut_24": _ZIP,
    _SESSION + "_command__mutmut_25": _ZIP,
    _SESSION + "_entry__mutmut_22": _ZIP,
    _SESSION + "_entry__mutmut_25": _ZIP,
    _SESSION + "_entry__mutmut_26": _ZIP,
    _SESSION + "_replay__mutmut_1": "None is falsy like False: logging stays off during the replay",
    _SESSION + "_replay_entry__mutmut_4": _DEFAULT,
    _SESSION + "_replay_entry__mutmut_6": _DEFAULT,
    _SESSION + "_replay_entry__mutmut_9": _DEFAULT,
    _SESSION + "_replay_entry__mutmut_13": _DEFAULT,
    _SESSION + "_replay_entry__mutmut_15": _DEFAULT,
    _SESSION + "_replay_entry__mutmut_18": _DEFAULT,
    _SESSION
    + "_set_resolution__mutmut_4": "a unit is only unresolved by reverting its own resolution, so the key is always there",
    _SESSION
    + "_set_resolution__mutmut_6": "an undo always reverts the decision on top of the stack (auto decisions are never undone), so the stack is not empty",
    _DEC + "xǁ_SetResolutionǁapply__mutmut_3": "undo=None is falsy like undo=False",
    _DEC
    + "xǁ_SetResolutionǁ__init____mutmut_6": "a _SetResolution only ever runs inside a CompositeCommand, whose own description is shown",
    _DEC + "xǁ_SetResolutionǁ__init____mutmut_7": "same: the inner description is never shown",
    _DEC + "xǁ_SetResolutionǁ__init____mutmut_8": "same: the inner description is never shown",
    _SESSION + "save__mutmut_18": "json.dumps tests ensure_ascii for truth: None acts as False",
    _DATES + "x__day_like__mutmut_9": "the day group always starts with digits, so the match is never None",
    _DATES + "x__day_like__mutmut_10": "same: the else branch is never taken",
    _DATES + "x__month_number__mutmut_5": _LOWERED,
    _DATES + "x__weekday_number__mutmut_5": _LOWERED,
    _DATES
    + "x__name_like__mutmut_5": "no month or weekday name ends in X, so stripping X as well as dots changes nothing",
    _DATES + "x_parse_date__mutmut_55": "a year group starts with a digit or an apostrophe, never with X",
    _DATES + "x__ordinal_suffix__mutmut_6": "14 takes th either way (14 % 10 == 4)",
    _DATES + "x__render__mutmut_19": "_number_like does not read its original argument",
    _DATES + "x__season_of__mutmut_19": "seasons start in months 1, 4, 7 and 10: start % 13 == start % 12",
    _DATES
    + "x__valid__mutmut_11": "every pattern with a day has a month, so a day without a month never happens",
    _DATES
    + "x__valid__mutmut_26": "the weekday alternation only matches known names, so a weekday part always has a number",
    _DATES + "x__valid__mutmut_27": "same: the weekday check is never true",
    _DATES
    + "x_draw_shift__mutmut_30": "no (years, months, days) is clipped from the 1st or the 2nd of January, so the span is the same",
    _DATES + "x_holiday_date__mutmut_13": _NEG,
    _DATES + "x_holiday_date__mutmut_29": _NEG,
    _DATES + "x_holiday_date__mutmut_42": _NEG,
    _DATES
    + "x_holiday_date__mutmut_52": "MO(None) is the next Monday on or after the date, like MO(+1) (checked 1990-2099)",
    _TAGGER
    + "predict_spans__mutmut_13": "scoring at the default ceiling only does more work: decoding at a bias <= the ceiling (or none) gives the same spans",
    # The scoring loop moved into score_chunk (long notes are scored chunk by chunk).
    _TAGGER + "score_chunk__mutmut_80": _NO_PHI,
    _TAGGER + "score_chunk__mutmut_82": _NO_PHI,
    _TAGGER + "score_chunk__mutmut_87": _NO_PHI,
    _TAGGER + "score_chunk__mutmut_88": _NO_PHI,
    _LEAK + "x__common__mutmut_4": _ZIPF_CASE,
    _LEAK + "x_leak_candidates__mutmut_17": _ZIPF_CASE,
    _LEAK + "x_leak_candidates__mutmut_207": _ZIPF_CASE,
    _LEAK + "x_leak_candidates__mutmut_31": _FOLDED,
    _LEAK + "x_leak_candidates__mutmut_32": _FOLDED,
    _LEAK + "x_leak_candidates__mutmut_208": _RARE,
    _LEAK + "x_leak_candidates__mutmut_209": _RARE,
    _LEAK + "x_leak_candidates__mutmut_160": _FIRST_AT,
    _LEAK + "x_leak_candidates__mutmut_163": _FIRST_AT,
    _LEAK + "x_find_leaks__mutmut_20": _ANCHOR,
    _LEAK + "x_find_leaks__mutmut_22": _ANCHOR,
    _LEAK + "x_find_leaks__mutmut_41": _OWN,
    _LEAK + "x_find_leaks__mutmut_42": _OWN,
    _LEAK + "x_find_leaks__mutmut_51": _OWN,
    _LEAK + "xǁ_OutputIndexǁsurrogate_tag__mutmut_14": _NESTED,
    _LEAK + "xǁ_OutputIndexǁ__init____mutmut_21": _NESTED,
    _LEAK + "x__one_per_place__mutmut_17": "growing a place to the end it already has gives an equal record",
    _CLIN + "x__line_neighbours__mutmut_4": _RFIND_FROM,
    _CLIN + "x__line_neighbours__mutmut_11": _RFIND_FROM,
    _CLIN + "x__line_neighbours__mutmut_44": _FOUND_AFTER,
    _CLIN + "x__line_neighbours__mutmut_45": _FOUND_AFTER,
    _CLIN + "x_clinical_use__mutmut_126": _FOUND_AFTER,
    _CLIN + "x_clinical_use__mutmut_127": _FOUND_AFTER,
    _CLIN + "x_clinical_use__mutmut_88": _ZIPF_CASE,
    _CLIN
    + "x_clinical_use__mutmut_32": "with no word before the title, '' and 'XXXX' both end in no digit or comma",
    _VAR + "x__digits__mutmut_2": _BOTH_SIDES,
    _VAR + "x__neighbours__mutmut_22": _BOTH_SIDES,
    _VAR
    + "x_dates_written_another_way__mutmut_33": "no looked-for date has the value None, so looking None up finds nothing",
    _VAR + "x_names_inside_words__mutmut_37": _SUBSTRINGS,
    _VAR + "x_names_inside_words__mutmut_41": _SUBSTRINGS,
    _VAR + "x_names_inside_words__mutmut_43": _SUBSTRINGS,
    _VAR
    + "x_short_tokens_in_context__mutmut_76": "for names the cue is a title before the word; the cue table is not read",
    _VAR
    + "x_short_tokens_in_context__mutmut_77": "for names the cue is a title before the word; the cue table is not read",
}
