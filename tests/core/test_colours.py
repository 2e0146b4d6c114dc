"""The tag colours: CIEDE2000, per-type colours apart within a category, colour-blind safety."""

from __future__ import annotations

import itertools
import math

import pytest

from annotator.core.colours import (
    CVD_MATRICES,
    colour_distance,
    delta_e,
    hex_to_lab,
    highlight,
    lab_to_hex,
    shades,
    simulate_cvd,
)
from annotator.core.schema import load_schema, schema_from_dict

BUNDLED = ("i2b2-2014", "i2b2-2006", "cchmc-12")
THEMES = ("light", "dark")
# CIEDE2000: ~2.3 is a just-noticeable difference; 5 is told apart at a glance.
WITHIN_CATEGORY = 5.0
BETWEEN_CATEGORIES_CVD = 5.0


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [
        # Sharma, Wu & Dalal (2005), table 1: pairs 1, 7, 17 and 25.
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_delta_e_matches_sharma_reference_pairs(
    lab1: tuple[float, float, float], lab2: tuple[float, float, float], expected: float
) -> None:
    assert delta_e(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert delta_e(lab2, lab1) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("schema_name", BUNDLED)
@pytest.mark.parametrize("theme", THEMES)
def test_types_of_one_category_differ_on_the_page(schema_name: str, theme: str) -> None:
    schema = load_schema(schema_name)
    for category in schema.categories:
        for first, second in itertools.combinations(category.types, 2):
            distance = colour_distance(highlight(first.color, theme), highlight(second.color, theme))
            assert distance >= WITHIN_CATEGORY, (category.name, first.name, second.name, theme, distance)


@pytest.mark.parametrize("theme", THEMES)
def test_pending_suggestions_keep_their_types_apart_and_stay_paler(theme: str) -> None:
    # Issue 26: pending PATIENT and DATE looked alike (two creams at a 25 % blend).
    schema = load_schema("i2b2-2014")
    types = schema.types
    for first, second in itertools.combinations(types, 2):
        distance = colour_distance(highlight(first.color, theme, True), highlight(second.color, theme, True))
        floor = 4.5 if first.category == second.category else 6.0
        assert distance >= floor, (first.name, second.name, theme, distance)
    for type_def in types:
        pending, reviewed = highlight(type_def.color, theme, True), highlight(type_def.color, theme)
        assert colour_distance(pending, reviewed) >= 2.0, (type_def.name, theme)
    patient, date = (highlight(schema.color_of(t), theme, True) for t in ("PATIENT", "DATE"))
    assert colour_distance(patient, date) >= 8.0


def test_i2b2_2014_gives_every_type_its_own_colour() -> None:
    types = load_schema("i2b2-2014").types
    assert len({t.color.lower() for t in types}) == len(types)


@pytest.mark.parametrize("schema_name", BUNDLED)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("deficiency", sorted(CVD_MATRICES))
def test_categories_stay_apart_with_colour_vision_deficiency(
    schema_name: str, theme: str, deficiency: str
) -> None:
    categories = load_schema(schema_name).categories
    seen = {c.name: simulate_cvd(highlight(c.color, theme), deficiency) for c in categories}
    for (first, a), (second, b) in itertools.combinations(seen.items(), 2):
        distance = colour_distance(a, b)
        assert distance >= BETWEEN_CATEGORIES_CVD, (first, second, theme, deficiency, distance)


def test_cvd_simulation_merges_red_and_green_but_keeps_blue() -> None:
    # The simulation must be a real one: red and green collapse for a deuteranope, not for others.
    red, green = "#d62728", "#2ca02c"
    assert colour_distance(red, green) > 40
    assert colour_distance(simulate_cvd(red, "deuteranopia"), simulate_cvd(green, "deuteranopia")) < 25
    assert simulate_cvd("#000000", "protanopia") == "#000000"
    assert simulate_cvd("#ffffff", "deuteranopia") == "#ffffff"


@pytest.mark.parametrize("base", ["#56B4E9", "#E69F00", "#F0E442", "#BBBBBB", "#000000"])
@pytest.mark.parametrize("count", [2, 5, 10])
def test_shades_of_a_category_colour_differ_in_both_themes(base: str, count: int) -> None:
    colours = shades(base, count)
    assert colours[0] == base and len(colours) == count
    for theme in THEMES:
        for first, second in itertools.combinations(colours, 2):
            assert colour_distance(highlight(first, theme), highlight(second, theme)) >= WITHIN_CATEGORY


def test_a_schema_without_type_colours_gets_shades() -> None:
    schema = schema_from_dict(
        {
            "name": "x",
            "category": [
                {"name": "PLACE", "color": "#56B4E9", "type": [{"name": n} for n in ("A", "B", "C")]}
            ],
        }
    )
    assert [t.color for t in schema.types] == shades("#56B4E9", 3)


def _farthest_point_shades(base: str, count: int) -> list[str]:
    """The definition, computed the slow way over the same grid of candidates (five hues
    within 35 degrees of the base's, six lightness levels): each next shade is the candidate
    whose nearest shade already taken is farthest, the first such candidate on ties."""
    _, a, b = hex_to_lab(base)
    chroma, hue = max(math.hypot(a, b), 30.0), math.atan2(b, a)
    candidates = [
        lab_to_hex(
            (level, chroma * math.cos(hue + math.radians(step)), chroma * math.sin(hue + math.radians(step)))
        )
        for step in (-35, -17.5, 0, 17.5, 35)
        for level in (30, 41, 52, 63, 74, 85)
    ]
    result = [base]
    while len(result) < count:
        taken = [hex_to_lab(highlight(c, "light")) for c in result]
        result.append(
            max(candidates, key=lambda c: min(delta_e(hex_to_lab(highlight(c, "light")), t) for t in taken))
        )
    return result


@pytest.mark.parametrize("base", ["#E69F00", "#56B4E9", "#000000"])
@pytest.mark.parametrize("count", [12, 31, 45])
def test_shades_take_the_farthest_candidate_each_time(base: str, count: int) -> None:
    """Past 30 every candidate is taken; the search stops there and repeats its last pick."""
    assert shades(base, count) == _farthest_point_shades(base, count)


def test_shades_are_a_fresh_list_each_time() -> None:
    """They are cached (a task file with 20,000 tags cycles through a few palette colours),
    so a caller changing its list must not change the next caller's."""
    first = shades("#56B4E9", 4)
    first.append("#000000")
    assert shades("#56B4E9", 4) == first[:4] and len(shades("#56B4E9", 4)) == 4


def test_thousands_of_shades_are_cheap() -> None:
    """A task file listing thousands of type values (a DTD's ATTLIST) made the search quadratic:
    3,000 values took minutes. Each shade now costs one pass over the 30 candidates."""
    many = shades("#E69F00", 3000)
    assert len(many) == 3000 and many[0] == "#E69F00" and len(set(many)) <= 31
