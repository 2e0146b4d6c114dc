"""Mutants that cannot change behaviour, each with the reason (mutmut names them
``module.x_function__mutmut_N``, methods ``module.xǁClassǁmethod__mutmut_N``). Survivors not
listed here count against the kill rate. Mutant numbers are stable while the source of that
function does not change; after editing a function, re-check its entries."""

from __future__ import annotations

_ENGINE = "annotator.evaluation.engine."

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
}
