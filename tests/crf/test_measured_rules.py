"""Patterns measured on real notes that stand without the model, or with a low gate
(annotator.crf.measured_rules)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.crf.evidence import PhiEvidence
from annotator.crf.labels import Prediction
from annotator.crf.measured_rules import (
    MEASURED_ORIGIN,
    STANDING_PATTERNS,
    MeasuredMatch,
    _merge_over,
    _place_over,
    _whole_over,
    _widen,
    _widen_places,
    add_measured_spans,
    add_name_partners,
    measured_rule_predictions,
    standing_matches,
    weighed_candidates,
)
from annotator.crf.postprocess import postprocess_document
from annotator.crf.tokenizer import tokenize


def found(text: str) -> list[tuple[str, str]]:
    return [(p.type, text[p.start : p.end]) for p in measured_rule_predictions(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PMH: MI '92, CABG X3 '95, DDD pacer", [("DATE", "92"), ("DATE", "95")]),
        ("s/p cabg/mvr '95\n", [("DATE", "95")]),
        ("grew up in the '60s and 70's", []),  # decades
        # seed 003's shapes of the i2b2 2014 corpus: the month before an apostrophe year, dotted
        # dates, decades by four digits, an extension after its label
        ("MI 2/'95; fell Oct. '74; Stent '63", [("DATE", "2/'95"), ("DATE", "Oct. '74"), ("DATE", "63")]),
        (
            "Appendectomy 10.25.78 and cholecystectomy 3.23.1964.",
            [("DATE", "10.25.78"), ("DATE", "3.23.1964")],
        ),
        ("pH 7.35.45, v1.2.10, 2.1.3, 13.12.88, 1.2.345, 1.2.10.4", []),  # no month and day, or a longer run
        ("in the 1960's and the 2060s; BP in the 60's", [("DATE", "1960's"), ("DATE", "2060s")]),
        ("the 1965s, 19605s", []),
        (
            "call ext. 5-6394 or Extension 219; AC 400 x 12; ext 5-63945",
            [("PHONE", "5-6394"), ("PHONE", "219")],
        ),
        ("pt said 'ok' and 'no'", []),  # quotations
        ("3-24-17 B: \n \nNeuro: alert", [("DATE", "3-24-17")]),
        ("  10/15/2019 csru progress note", [("DATE", "10/15/2019")]),
        ("Neuro: 3-24-17 alert", []),  # a date inside a line is the model's to weigh
        ("13-45-17 units given", []),  # no month/day reading
        ("extubated 8/28; 8/12 cores positive; (9/1 mixture); nodes 0/14", [("DATE", "8/28")]),  # counts
        # a fraction, or a count after "cx" or "for", is a day when its note names that month
        (
            "extubated 3/21. diaphoresis 3/5 at rehab, last cx 3/23; plan for 3/4",
            [("DATE", "3/21"), ("DATE", "3/5"), ("DATE", "3/23"), ("DATE", "3/4")],
        ),
        ("extubated 4/21; 3/5 of cxs, last cx 3/23, plan for 3/4", [("DATE", "4/21")]),
        ("MI 2/20, grade 2/6 murmur, in 2/3 bottles", [("DATE", "2/20")]),  # no count or grade
        ("MRI 1/12. Strength 5/5; tumour in 1/5 lymph nodes", [("DATE", "1/12")]),
        ("seen 2/12: AKI 2/2 dehydration, 2/2 bottles", [("DATE", "2/12")]),  # "secondary to"
        # a hospital's name after a preposition stands; health, a house or a verb is no place
        (
            "TAKEN TO UNION HOSPITAL, THEN AT UNION MEMORIAL; wants to leave hospital",
            [("HOSPITAL", "UNION"), ("HOSPITAL", "UNION")],
        ),
        # a day of the month alone closes its clause; before a noun it is an ordinal
        (
            "drawn on the 11th. it's the 3rd\" bleed into the 4th ventricle, with the 1st.",
            [("DATE", "11th"), ("DATE", "3rd")],
        ),
        # out of ten is a day when its note names that month, unless pain is named beside it
        (
            "ceftaz 8/2 - 8/10. fell on 8/10; HAD 8/10 CP; pain as 8/10 with movement; c/o #8/10",
            [("DATE", "8/2"), ("DATE", "8/10"), ("DATE", "8/10")],
        ),
        ("\n9/10 PROCAN DCED, PAIN 5/10, extubated 8/28", [("DATE", "8/28")]),  # no day of September
        (
            "ACCESS #18 LA-10/3, 9/8 UO-9/10; 1-2/3 of doses; a 4/12-year-old",
            [("DATE", "10/3"), ("DATE", "9/8"), ("DATE", "9/10")],
        ),
        ("dtr Frances- 212- 476- 8356.", [("PATIENT", "Frances"), ("PHONE", "212- 476- 8356")]),
        ("reached at (301) 944 5032 today", [("PHONE", "(301) 944 5032")]),
        ("BP 120/80, shift 1900-0700, 20-30'S, HR 88-110", []),
        ("lytes 135 104 22 / 4.1 28 1.2", []),
        ("birthday is tomorrow, may 16, 2015.", [("DATE", "may 16, 2015")]),
        ("IN THIS CASE MARCH OF 1993.)", [("DATE", "MARCH OF 1993")]),
        ("pt may 2b transferred", []),  # "may" as a verb before no day
        ("S/P CABG 1957, 1971 \nENDOCARDITIS", [("DATE", "1957"), ("DATE", "1971")]),
        ("RENAL CELL CA 1977,S/P NEPHRECTOMY", [("DATE", "1977")]),
        ("chest ache since 2006 but", [("DATE", "2006")]),
        ("report at 1900, out 1975 cc, in 2000 ml", []),  # clock times and volumes
        ("FOR RUSTY SPUTUM. \n HERMAN W. EMPERATRICE, RRT\n", [("DOCTOR", "HERMAN W. EMPERATRICE")]),
        ("IF POSSIBLE WEAN DOPA\n", []),  # a credential needs a word of its own
        ("bloods in AM\nSigned Mac RN\n", []),  # a signing word is no first name
        ("Msg left for Dr.\nPt states portal login", []),  # title and name share a line
        (
            "spoke w/dr vasquez, dr small today. DR. PRICE TO BEDSIDE",
            [("DOCTOR", "vasquez"), ("DOCTOR", "small"), ("DOCTOR", "PRICE")],
        ),
        ("dr aware and dr notified; md here", []),  # verbs after the title
        # a function word, the next sentence, a degree: no name after "doctor"
        ("see the doctor if she has pain; his primary doctor. All questions; Sample Doctor M.D.", []),
        # what a doctor did, spelt out; after "Dr." a surname in -ing stays one
        (
            "their usual doctor prescribed amoxicillin; doctor recommending rest; doctor Reed; Dr. Fielding",
            [("DOCTOR", "Reed"), ("DOCTOR", "Fielding")],
        ),
        ("fusion by Dr. W from L3", [("DOCTOR", "W")]),  # a placeholder's letter is the name
        # a login beside or under a signature and degree, not a measurement there
        ("Dictated by:  FILBERT BRIGHT, M.D.    FB59 \n", [("USERNAME", "FB59")]),
        (
            "Jo Bloggs, RN\nSPO2\nAna Ruiz, MD\nAR7\n",
            [("DOCTOR", "Jo Bloggs"), ("DOCTOR", "Ana Ruiz"), ("USERNAME", "AR7")],
        ),
        # a login right after a sign-off's "by"; a name, a measurement or a note there is none
        (
            "Typed by: RM5\ne-signed by gyg62 @ 18:00\nReviewed by ABG2\nread by Dr. Lee\nentered by ct2/3",
            [("USERNAME", "RM5"), ("USERNAME", "gyg62"), ("DOCTOR", "Lee")],
        ),
        # a possessive is no part of the name (both real corpora); an inner apostrophe is
        ("will contact Dr. Thorne's service; DR O'NEIL'S NOTE", [("DOCTOR", "Thorne"), ("DOCTOR", "O'NEIL")]),
        (
            "INR 6.0. E. WELSH AWARE. M. PEPPLER PLACING STITCH",
            [("DOCTOR", "E. WELSH"), ("DOCTOR", "M. PEPPLER")],
        ),
        ("New A.line placed", []),
        ("PMH: CABG 81, Redo CABG 84, MVR. CVA 74'.", [("DATE", "81"), ("DATE", "84"), ("DATE", "74")]),
        ("s/p CABG x3, MI 3 days ago, CVA 30 min", []),
        ("CELLULAR-410 202-6694 & HOME 202 2671093", [("PHONE", "410 202-6694"), ("PHONE", "202 2671093")]),
        ("I/O 1900-0700 net 1200", []),
        ("SOCIAL: MOTHER, AUNTS IN TO VISIT", []),  # a relation after a relation
        ("Drs' Ballou and Dutter pronounced.", [("DOCTOR", "Ballou"), ("DOCTOR", "Dutter")]),
        ("MRS BRUCER FAIR. mr.renzi returned", [("PATIENT", "BRUCER"), ("PATIENT", "renzi")]),
        ("MS: NEURO INTACT. MS CHANGES NOTED. Mrs. Brown", []),  # mental status; a public word
        ("CHOLECYSTECTOMY 77'. \n STOPPED SMOKING 62'.", [("DATE", "77"), ("DATE", "62")]),
        ("HOB 30'. AMBULATED 25' X2, walked 15'", []),  # distances
        ("s/p pelvic fx4/97, AVR 8/88, echo 11/92,", [("DATE", "4/97"), ("DATE", "8/88"), ("DATE", "11/92")]),
        ("bp 120-140'2/70's, PEEP 5/10, 4/5 strength, 14/60", []),  # pressures, settings, grades
        (
            "extubated at 2pm 8/28. REINTUBATION 9/30 DUE TO HEMOPTYSIS; intubated 6/30-7/2 for CHF",
            [("DATE", "8/28"), ("DATE", "9/30"), ("DATE", "6/30-7/2")],
        ),
        ("rales 1/3 up, 1/2 way up, pain 6/10, 2/4 bottles, 5/5 strength, 3/4 st betadine", []),
        (
            "invite sent -> www.kestrelpointhealth.qc.ca; reset link to pat.may@northmail.ca.",
            [("URL", "www.kestrelpointhealth.qc.ca"), ("EMAIL", "pat.may@northmail.ca")],
        ),
        ("Grade 2/6 systolic murmur; 3/6 SEM heard; GCS 3/15; I:E 1/3; 2/7 hx of cough", []),
        ("PSV increased to 10/5 overnight. SIMV/PS, 500X10, 40%, & 5/8. ON 10/5 BIPAP 65%", []),
        ("Hct 26.5 (7pm 10/15); gas 7.35/66/55; 1.5/3 done; K 4.1/2", [("DATE", "10/15")]),
        ("wife (201/324/1423) confirms", [("PHONE", "201/324/1423")]),
        (
            "WENT TO HOLY CROSS WITH FEVER; bed at sacred heart; to St. Mary's tomorrow",
            [("HOSPITAL", "HOLY CROSS"), ("HOSPITAL", "sacred heart"), ("HOSPITAL", "St. Mary's")],
        ),
        ("NEW ST DEPRESSIONS; 1/4 ST BETADINE; SR-ST NO VEA", []),  # ST segments, strength
        (
            "FROM UNIVERSITY OF MD MEDICAL CENTER, then U OF MD; admitted to U Maryland ER",
            [("HOSPITAL", "UNIVERSITY OF MD"), ("HOSPITAL", "U OF MD"), ("HOSPITAL", "U Maryland")],
        ),
        ("s/p 10 u of blood, F/U IN NEXT 1-2 DAYS, w/u of acidosis", []),
        (
            "Social: Andrwe O'connell MD spoke with daughter. Ilene Macdonald RN",
            [("DOCTOR", "Andrwe O'connell"), ("DOCTOR", "Ilene Macdonald")],
        ),
        ("pt rec'd PA cath; updated by RN and MD; spoke with team MD", []),
        (
            "TRACH ON MONDAY; rehab on tuesday; CBT group Thursdays; since the summer; Boxing Day",
            [
                ("DATE", "MONDAY"),
                ("DATE", "tuesday"),
                ("DATE", "Thursdays"),
                ("DATE", "summer"),
                ("DATE", "Boxing Day"),
            ],
        ),
        ("Quit smoking in the winter of 2078", [("DATE", "winter of 2078")]),
        ("a fall at home; spring-loaded; a summer roll; winter coat", []),
        (
            "this 40 y.o. patient, a crane operator, originally from; Ex-publican, now retired",
            [("PROFESSION", "crane operator"), ("PROFESSION", "publican")],
        ),
        (
            "Occupation: warehouse supervisor | next; lives with dtr, who is a locksmith.",
            [
                ("PROFESSION", "warehouse supervisor"),
                ("PROFESSION", "locksmith"),
            ],
        ),
        ("is a heavy smoker, who is a fall risk; works as needed", []),
        ("a dtr, who lives in rome. SISTER IS LIVING IN ROME", [("CITY", "rome"), ("CITY", "ROME")]),
        ("lives in a nursing home; lives with wife", []),
        (
            "Aunt died at 71 of stroke. Wife alive at 78. Hodges is a 71F with DM.\n73M with BPH",
            [("AGE", "71"), ("AGE", "78"), ("AGE", "71"), ("AGE", "73")],
        ),
        ("14F foley placed; 20F catheter; arrived at 1900", []),
        (
            "1 dtr laverne does speak; SOCIAL:DAUGHTER-KRISSY---301; pt's son ,dave, was in",
            [("PATIENT", "laverne"), ("PATIENT", "KRISSY"), ("PATIENT", "dave")],
        ),
        (
            "with sister Angela Frank in; Son HODGKIN, Nitesh rang; son bill consented",
            [("PATIENT", "Angela Frank"), ("PATIENT", "HODGKIN, Nitesh"), ("PATIENT", "bill")],
        ),
        # a verb with its object is no name; a given name keeps its place
        ("helped a friend unload a motorcycle; son Frank a teacher", [("PATIENT", "Frank")]),
    ],
)
def test_what_the_patterns_find(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_a_measured_span_stands_where_the_model_suspects_nothing() -> None:
    text = "PMH: MI '92. call son 212- 476- 8356."
    tokens = tokenize(text)
    doubtless = PhiEvidence()
    doubtless.extend(tokens, [0.9999] * len(tokens))
    spans = postprocess_document(text, tokens, [], evidence=doubtless)
    assert [(text[p.start : p.end], p.origin) for p in spans] == [
        ("92", MEASURED_ORIGIN),
        ("212- 476- 8356", MEASURED_ORIGIN),
    ]
    # ... and survives the patient-level weighing too.
    assert doubtless.gate(spans) == spans


def test_a_measured_span_never_overrides_what_is_already_found() -> None:
    text = "call 212- 476- 8356"
    start = text.index("212")
    model = Prediction("PHONE", start, start + 3, 0.7)
    assert add_measured_spans(text, [model]) == [model]
    assert add_measured_spans(text, [], allowed={"DATE"}) == []


def weighed(text: str, belief: float) -> list[tuple[str, str]]:
    tokens = tokenize(text)
    evidence = PhiEvidence()
    evidence.extend(tokens, [1.0 - belief] * len(tokens))
    return [
        (p.type, text[p.start : p.end]) for p in measured_rule_predictions(text, strength=evidence.strongest)
    ]


def test_weighed_patterns_need_the_model_to_suspect_something() -> None:
    # "butch": a nickname on no list of given names, common enough in English to need the model.
    text = "social: son butch called. nsg (d. renna) verified. kernan hosp called."
    assert weighed(text, 0.0) == []
    assert weighed(text, 0.02) == [("PATIENT", "butch"), ("DOCTOR", "d. renna"), ("HOSPITAL", "kernan")]
    # The standing patterns need no belief at all; a hospital's name after "to" stands.
    assert weighed("dr walker notified; taken to kernan hosp", 0.0) == [
        ("DOCTOR", "walker"),
        ("HOSPITAL", "kernan"),
    ]
    assert weighed("TO UNION MEMORIAL; wants to leave hospital; in poor health", 0.0) == [
        ("HOSPITAL", "UNION")
    ]


def test_an_initial_before_a_common_word_is_no_name() -> None:
    assert weighed("R. GROIN SITE C&D. W. RESIDUALS >20CC, per c. rehab", 0.5) == []


def test_no_town_after_an_article() -> None:
    # Palmer, Superior and Spring are towns; after "the" these are anatomy and a season.
    text = "to the palmer aponeurosis, at the Superior Gluteal Nerve, in the spring of 2066; lives in rome"
    assert weighed(text, 0.5) == [("DATE", "spring of 2066"), ("CITY", "rome")]


def test_a_genus_initial_and_its_species_is_a_microbe() -> None:
    text = "will need H. pylori testing; urine grew E. coli; c. diff neg; per d. renna"
    assert weighed(text, 0.5) == [("DOCTOR", "d. renna")]


def test_a_facility_name_holds_no_word_among_the_commonest_of_english() -> None:
    text = (
        "GOT LOST GOING TO BATHROOM, FOUND WANDERING HOSPITAL. Anxious to start rehab. taken to kernan hosp."
    )
    assert [(m.pattern, text[m.start : m.end]) for m in weighed_candidates(text)] == [
        ("name before a facility", "kernan")
    ]


def test_a_word_after_a_relation_that_takes_an_object_is_a_verb() -> None:
    text = "helped a friend unload a motorcycle; dtr tameka here"
    assert [(m.pattern, text[m.start : m.end]) for m in weighed_candidates(text)] == [
        ("relation and word", "tameka")
    ]


def test_a_facility_name_is_the_words_after_the_last_that_cannot_be_one() -> None:
    text = "WENT TO THE ZAGARIA CAMPUS, BALTIMORE REHAB OR KIMBROUGH REHAB; from EW; outside hospital"
    assert weighed(text, 0.5) == [
        ("HOSPITAL", "ZAGARIA"),
        ("HOSPITAL", "BALTIMORE"),
        ("HOSPITAL", "KIMBROUGH"),
    ]


def test_words_after_a_relation_that_are_no_names_are_skipped() -> None:
    assert weighed("husband here, son and daughter in to visit, wife aware", 0.5) == []


def test_overlapping_patterns_keep_the_standing_one() -> None:
    # "Z. PEPPLER" is an initial and surname (weighed) and one acting (standing): found once.
    spans = measured_rule_predictions("Z. PEPPLER IN TO STRIP TUBES")
    assert [(p.type, p.start, p.end) for p in spans] == [("DOCTOR", 0, 10)]


def test_a_standing_name_widens_the_models_shorter_name_span() -> None:
    text = "QUIET NIGHT. \n ROBERT V. DEGIORGIO, RRT\n"
    start = text.index("ROBERT")
    model = Prediction("DOCTOR", start, start + len("ROBERT V."), 0.8, "crf")
    widened = add_measured_spans(text, [model])
    assert [(text[p.start : p.end], p.type, p.origin, p.confidence) for p in widened] == [
        ("ROBERT V. DEGIORGIO", "DOCTOR", MEASURED_ORIGIN, 0.8)
    ]


def test_a_standing_address_widens_the_models_piece_of_it() -> None:
    text = "Portal invite sent -> https://glenmorgan.co.nz/patients\nmail jo.ryan@xtra.co.nz today"
    url = text.index("https")
    mail = text.index(".ryan")
    model = [
        Prediction("URL", url, url + len("https://glenmorgan"), 0.6, "format-rule"),
        Prediction("EMAIL", mail, mail + len(".ryan@xtra.co.nz"), 0.6, "crf"),
    ]
    widened = add_measured_spans(text, model)
    assert [(p.type, text[p.start : p.end], p.origin) for p in widened] == [
        ("URL", "https://glenmorgan.co.nz/patients", MEASURED_ORIGIN),
        ("EMAIL", "jo.ryan@xtra.co.nz", MEASURED_ORIGIN),
    ]
    # The tagger's gate does not trim a widened span again (it stands as the pattern's).
    evidence = PhiEvidence()
    evidence.extend(tokenize(text), [0.99] * len(tokenize(text)))
    assert evidence.gate(widened) == widened


def test_a_name_is_not_widened_over_a_span_of_another_kind() -> None:
    text = "QUIET NIGHT. \n ROBERT V. DEGIORGIO, RRT\n"
    start = text.index("DEGIORGIO")
    other = Prediction("HOSPITAL", start, start + len("DEGIORGIO"), 0.8, "crf")
    assert add_measured_spans(text, [other]) == [other]


def test_a_standing_occupation_widens_the_models_piece_of_it() -> None:
    text = "lives with dtr Debbie, who is a snowplough driver.\n"
    start = text.index("snowplough")
    model = Prediction("PROFESSION", start, start + len("snowplough"), 0.7, "crf")
    assert [(p.type, text[p.start : p.end]) for p in add_measured_spans(text, [model])] == [
        ("PATIENT", "Debbie"),
        ("PROFESSION", "snowplough driver"),
    ]


def test_a_standing_date_widens_the_models_piece_of_it() -> None:
    text = "Mood lower since Canada Day last year; birthday is may 16, 2015.\n"
    day, may, second = text.index("Canada"), text.index("may"), text.index("16")
    model = [
        Prediction("DATE", day, day + len("Canada"), 0.7, "crf"),
        Prediction("DATE", may, may + 3, 0.7, "crf"),
        Prediction("DATE", second, second + len("16, 2015"), 0.7, "crf"),
    ]
    assert [(p.type, text[p.start : p.end]) for p in add_measured_spans(text, model)] == [
        ("DATE", "Canada Day"),
        ("DATE", "may 16, 2015"),
    ]


def test_a_month_before_an_apostrophe_year_joins_the_models_pieces() -> None:
    text = "MI 2/'95, fell Oct. '74."
    two, oct_ = text.index("2/"), text.index("Oct")
    model = [
        Prediction("DATE", two, two + 1, 0.4, "crf"),
        Prediction("DATE", two + 2, two + 5, 0.6, "crf"),
        Prediction("DATE", oct_, oct_ + 3, 0.5, "crf"),
    ]
    assert [(p.type, text[p.start : p.end]) for p in add_measured_spans(text, model)] == [
        ("DATE", "2/'95"),
        ("DATE", "Oct. '74"),
    ]


def test_a_relations_word_stands_only_when_it_is_a_first_name_or_rare() -> None:
    text = "son-in-law here; SON AND DAUGHTER; mother consented; wife smokes; their father CMO; son butch"
    assert [m for m in standing_matches(text) if m.pattern == "relation and first name"] == []
    # The commonest words and clinical ones are no names, weighed or not; a first name is.
    text = "WIFE STILL IN DENIAL. WIFE NAD NEICE IN. SON PRESNT TILL 2. son Frank called"
    assert [(m.pattern, text[m.start : m.end]) for m in weighed_candidates(text)] == [
        ("relation and word", "Frank")
    ]
    assert [
        text[m.start : m.end] for m in standing_matches(text) if m.pattern == "relation and first name"
    ] == ["Frank"]


def test_a_relations_first_name_may_be_one_the_census_lists() -> None:
    # "pat", "rob" and "charlie" are on the 1990 US Census list of given names, not on Faker's.
    text = (
        "lives alone, daughter pat lives close by, son rob lives in town. significant other charlie,updated"
    )
    assert [
        text[m.start : m.end] for m in standing_matches(text) if m.pattern == "relation and first name"
    ] == [
        "pat",
        "rob",
        "charlie",
    ]


def test_a_short_word_in_capitals_after_a_relation_is_a_name_only_when_a_given_name() -> None:
    text = "SOCIAL: MOTHER, AUNTS, GIRLFRIEND EVE IN MOST OF DAY. SON ROB 285-482-5518. FATHER CMO; SON PT"
    assert [
        text[m.start : m.end] for m in standing_matches(text) if m.pattern == "relation and first name"
    ] == [
        "EVE",
        "ROB",
    ]


def named_callers(text: str) -> list[str]:
    return [
        text[m.start : m.end] for m in standing_matches(text) if m.pattern == "name before a call or visit"
    ]


def test_a_first_name_or_rare_word_before_a_call_or_visit_is_a_name() -> None:
    text = (
        "social: bill called once about 4:30am. At this time, Radu wishes to make pt DNR. "
        "daughters sarah and margie in to visit today. bob visited during the evening"
    )
    assert named_callers(text) == ["bill", "Radu", "margie", "bob"]


def test_relations_roles_and_common_words_before_a_call_are_no_names() -> None:
    text = (
        "Wife has called, and step duaghter called. SOCIAL-son & dauther visited. "
        "Neice called. another grandaughter called. MD'S CALLED TO BEDSIDE. "
        "son-inlaw  in to visit. Then Radiologist phoned pt's son. family called. "
        "pt wishes to go home. he wants water. dispo- called out to tele. team visited"
    )
    assert named_callers(text) == []


def test_a_standing_hospital_takes_over_the_models_pieces_of_it() -> None:
    text = "recieved from university of maryland hospital. TO GO TO ST. MARY ON; admitted to U Maryland ER"
    memory, mary, state = text.index("maryland"), text.index("MARY"), text.index("Maryland ER")
    model = [
        Prediction("LOCATION-OTHER", memory, memory + len("maryland hospital"), 0.9, "memory"),
        Prediction("DOCTOR", mary, mary + 4, 0.8, "crf"),
        Prediction("STATE", state, state + len("Maryland"), 0.7, "crf"),
    ]
    assert [(p.type, text[p.start : p.end]) for p in add_measured_spans(text, model)] == [
        ("HOSPITAL", "university of maryland hospital"),
        ("HOSPITAL", "ST. MARY"),
        ("HOSPITAL", "U Maryland"),
    ]
    # The model's own span of the whole hospital, or a span of another kind over it, is left alone.
    text = "to St. Mary's today"
    whole = Prediction("HOSPITAL", 3, 13, 0.9, "crf")
    other = Prediction("DATE", 3, 13, 0.9, "crf")
    assert add_measured_spans(text, [whole]) == [whole]
    assert add_measured_spans(text, [other]) == [other]


def test_a_name_after_a_relation_is_the_relatives_whatever_the_model_typed() -> None:
    text = "Social: dtr laverne in to visit. dr walker aware"
    laverne, walker = text.index("laverne"), text.index("walker")
    model = [
        Prediction("DOCTOR", laverne, laverne + 7, 0.8, "crf"),
        Prediction("DOCTOR", walker, walker + 6, 0.8, "crf"),
    ]
    assert [(p.type, text[p.start : p.end]) for p in add_measured_spans(text, model)] == [
        ("PATIENT", "laverne"),
        ("DOCTOR", "walker"),
    ]


def test_every_standing_pattern_a_match_can_carry_is_listed_for_the_benchmark() -> None:
    text = "\n".join(
        [
            "3-24-17 B:",
            "PMH: MI '92, appendectomy 10.25.78, in the 1960's, fx 4/97, extubated 8/28.",
            "son 212- 476- 8356 ext. 219; may 16, 2015; S/P MI 1992.",
            "ROBERT V. DEGIORGIO, RRT",
            "Dictated by:  FILBERT BRIGHT, M.D.    FB59 ",
            "spoke w/dr small and MRS BRUCER; dtr laverne here, margie visited. E. WELSH AWARE.",
            "Andrwe O'connell MD spoke; mail a.b@mail.ca; to HOLY CROSS from U OF MD.",
            "lives in rome; father died at 71; TRACH ON MONDAY; works as a crane operator. DAUGHTER FROM MIAMI.",
            "Typed by: RM5",
            "TAKEN TO UNION HOSPITAL; cultures drawn on the 11th.",
        ]
    )
    assert {m.pattern for m in standing_matches(text)} == set(STANDING_PATTERNS)


def partners(text: str, *names: tuple[str, str]) -> list[tuple[str, str]]:
    found = [
        Prediction(kind, text.index(name), text.index(name) + len(name), 0.9, "crf") for kind, name in names
    ]
    return [
        (p.type, text[p.start : p.end]) for p in add_name_partners(text, found) if p.origin == MEASURED_ORIGIN
    ]


def test_a_name_joined_to_a_found_name_is_a_name_of_its_kind() -> None:
    text = "Both Suzette and Hank are his appointed proxies"
    assert partners(text, ("PATIENT", "Suzette")) == [("PATIENT", "Hank")]
    text = "official health care proxys. suzette and ank"
    assert partners(text, ("PATIENT", "suzette")) == [("PATIENT", "ank")]
    text = "nsg (d. renna and j. o'brien) verified amt"
    assert partners(text, ("DOCTOR", "j. o'brien")) == [("DOCTOR", "renna")]


def test_a_relation_or_a_common_word_beside_a_name_is_no_partner() -> None:
    text = "Suzette and husband in to visit; sarah and neice called; Mary and family; Hank & the team"
    names = (("PATIENT", "Suzette"), ("PATIENT", "sarah"), ("PATIENT", "Mary"), ("PATIENT", "Hank"))
    assert partners(text, *names) == []
    # Only next to a name: two words joined by "and" are not names by themselves.
    assert partners("daughters sarah and margie") == []
    # A capitalised name's partner is capitalised too; in lower case both are ("suzette and ank").
    text = "spoke with the pathologist, Dr. XYZ and immunopathology was done; Dr. Quist and Hank"
    assert partners(text, ("DOCTOR", "XYZ"), ("DOCTOR", "Quist")) == [("DOCTOR", "Hank")]


def towns_come_from(text: str) -> list[str]:
    return [text[m.start : m.end] for m in standing_matches(text) if m.pattern == "town after from or at"]


def test_a_real_town_after_from_or_at_is_a_place() -> None:
    text = "ADDENDUM- DAUGHER FROM ROME JUST CALLED. IS ATTEMPTING TO FLY FROM ROME IN NEXT COUPLE OF DAYS."
    assert towns_come_from(text) == ["ROME", "ROME"]
    assert towns_come_from("Social: Son from Pikesville called last eve") == ["Pikesville"]
    assert towns_come_from("pt was happy at Baltimore Rehab") == ["Baltimore"]
    # Towns close together are each found: the words after "from" are looked at, not taken.
    assert towns_come_from("daughter from ROME. Son from Pikesville called") == ["ROME", "Pikesville"]


def test_a_town_that_is_a_word_or_uncapitalised_in_mixed_case_is_no_place() -> None:
    text = (
        "No leakage from foley noted. blood cultures from central line.\n"
        "Seemed to benefit from opportunity to talk. Will remain.\n"
        "ASPIRATES BILEOUS TO ORANGE; stool from normal saline"
    )
    assert towns_come_from(text) == []
    # A note all in lower case writes its towns in lower case.
    assert towns_come_from("son called from pikesville last eve") == ["pikesville"]


def test_an_initial_may_stand_for_the_first_name_before_a_credential() -> None:
    text = "all is well. q. lander rrt\nGIVEN PER N. RUTH NP.. s. nurse RN; Rebecca Richardson, MD"
    assert [(m.pattern, text[m.start : m.end]) for m in standing_matches(text) if m.kind == "DOCTOR"] == [
        ("name and credential", "q. lander"),
        ("name and credential", "N. RUTH"),
        ("name and credential", "Rebecca Richardson"),
    ]


_KINDS = st.sampled_from(["DOCTOR", "PATIENT", "DATE", "URL"])


@st.composite
def _spans_and_wholes(
    draw: st.DrawFn,
) -> tuple[list[Prediction], list[tuple[int, int, frozenset[str]]]]:
    spans = []
    for _ in range(draw(st.integers(0, 12))):
        start = draw(st.integers(0, 60))
        spans.append(
            Prediction(
                draw(_KINDS), start, start + draw(st.integers(1, 8)), draw(st.sampled_from([0.5, 0.9])), "crf"
            )
        )
    wholes = []
    for _ in range(draw(st.integers(0, 6))):
        start = draw(st.integers(0, 60))
        kinds = frozenset(draw(st.lists(_KINDS, min_size=1, max_size=3)))
        wholes.append((start, start + draw(st.integers(1, 15)), kinds))
    return spans, wholes


@settings(max_examples=400, deadline=None)
@given(_spans_and_wholes())
def test_widening_by_bisection_is_widening_by_scanning(
    case: tuple[list[Prediction], list[tuple[int, int, frozenset[str]]]],
) -> None:
    spans, wholes = case
    ordered = sorted(set(spans), key=lambda p: (p.start, p.end))
    assert _widen(ordered, wholes) == _merge_over(ordered, wholes, _whole_over, scan=True)
    # Out of order or repeated, the spans take the scanning path itself.
    assert _widen(spans, wholes) == _merge_over(spans, wholes, _whole_over, scan=True)


_PIECE_KINDS = st.sampled_from(["HOSPITAL", "CITY", "DOCTOR", "DATE"])


@st.composite
def _spans_and_places(draw: st.DrawFn) -> tuple[list[Prediction], list[MeasuredMatch]]:
    spans = []
    for _ in range(draw(st.integers(0, 12))):
        start = draw(st.integers(0, 60))
        end = start + draw(st.integers(1, 10))
        spans.append(Prediction(draw(_PIECE_KINDS), start, end, draw(st.sampled_from([0.4, 0.8])), "crf"))
    places = []
    for _ in range(draw(st.integers(0, 6))):
        start = draw(st.integers(0, 60))
        places.append(MeasuredMatch("hospital", "HOSPITAL", start, start + draw(st.integers(1, 20))))
    return spans, places


@settings(max_examples=400, deadline=None)
@given(_spans_and_places())
def test_places_widened_by_bisection_are_places_widened_by_scanning(
    case: tuple[list[Prediction], list[MeasuredMatch]],
) -> None:
    spans, places = case
    ordered = sorted(set(spans), key=lambda p: (p.start, p.end))
    matches = [(m.start, m.end, m) for m in places]
    assert _widen_places(ordered, places) == _merge_over(ordered, matches, _place_over, scan=True)
    assert _widen_places(spans, places) == _merge_over(spans, matches, _place_over, scan=True)
