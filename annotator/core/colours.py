"""Colour science for the tag palette: CIELAB, CIEDE2000, colour-vision-deficiency simulation.

Used to give every PHI type its own colour (shades of its category's hue that stay apart
from each other and from the other categories), to blend a colour into a page the way the
note view paints highlights, and to check that the result survives protanopia,
deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1.0).

Colours are ``#rrggbb`` strings; Lab is CIELAB under D65.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Final

Lab = tuple[float, float, float]
RGB = tuple[float, float, float]

# Machado et al. (2009), severity 1.0; applied to linear RGB.
CVD_MATRICES: Final[dict[str, tuple[RGB, RGB, RGB]]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

# The page colours of the light and dark themes and how strongly a highlight is mixed in
# (kept here, Qt-free, so the palette checks and the note view use the same numbers).
# Pending suggestions are paler (and italic, dash-underlined), but not so pale that their
# types merge: at 0.25 a pending PATIENT and a pending DATE were two creams; at 0.40 every
# two categories still differ by 6.7 CIEDE2000 units on the page (tests/core/test_colours.py).
PAGE_COLOURS: Final = {"light": "#ffffff", "dark": "#1e1f22"}
HIGHLIGHT_WEIGHT: Final = {
    ("light", False): 0.55,
    ("light", True): 0.40,
    ("dark", False): 0.6,
    ("dark", True): 0.42,
}


def hex_to_rgb(colour: str) -> RGB:
    value = colour.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255)


def rgb_to_hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in rgb)


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_gamma(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


_WHITE: Final = (0.95047, 1.0, 1.08883)


def hex_to_lab(colour: str) -> Lab:
    r, g, b = (_to_linear(c) for c in hex_to_rgb(colour))
    xyz = (
        0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
        0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
        0.0193339 * r + 0.1191920 * g + 0.9503041 * b,
    )
    f = [
        t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
        for t in (v / w for v, w in zip(xyz, _WHITE, strict=True))
    ]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


def lab_to_hex(lab: Lab) -> str:
    """The nearest sRGB colour (out-of-gamut values are clipped)."""
    fy = (lab[0] + 16) / 116
    fx, fz = fy + lab[1] / 500, fy - lab[2] / 200

    def inverse(t: float) -> float:
        return t**3 if t > 6 / 29 else 3 * (6 / 29) ** 2 * (t - 4 / 29)

    x, y, z = (inverse(t) * w for t, w in zip((fx, fy, fz), _WHITE, strict=True))
    linear = (
        3.2404542 * x - 1.5371385 * y - 0.4985314 * z,
        -0.9692660 * x + 1.8760108 * y + 0.0415560 * z,
        0.0556434 * x - 0.2040259 * y + 1.0572252 * z,
    )
    return rgb_to_hex(_to_gamma(c) for c in linear)


def delta_e(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh_angle = 0.0
    elif abs(h2p - h1p) <= 180:
        dh_angle = h2p - h1p
    elif h2p - h1p > 180:
        dh_angle = h2p - h1p - 360
    else:
        dh_angle = h2p - h1p + 360
    dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh_angle / 2))
    l_bar = (l1 + l2) / 2
    cp_bar = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_bar = (h1p + h2p + 360) / 2
    else:
        h_bar = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh / s_h) ** 2 + r_t * (dc / s_c) * (dh / s_h))


def colour_distance(first: str, second: str) -> float:
    """CIEDE2000 between two ``#rrggbb`` colours."""
    return delta_e(hex_to_lab(first), hex_to_lab(second))


def blend(colour: str, page: str, weight: float) -> str:
    """``colour`` mixed into ``page`` (0: the page, 1: the colour), in sRGB like the view."""
    tint, base = hex_to_rgb(colour), hex_to_rgb(page)
    return rgb_to_hex(p + (t - p) * weight for t, p in zip(tint, base, strict=True))


def highlight(colour: str, theme: str, pending: bool = False) -> str:
    """The background the note view paints for a tag of ``colour`` in a theme."""
    return blend(colour, PAGE_COLOURS[theme], HIGHLIGHT_WEIGHT[(theme, pending)])


def simulate_cvd(colour: str, deficiency: str) -> str:
    """How ``colour`` looks with a colour-vision deficiency (protanopia, deuteranopia, tritanopia)."""
    matrix = CVD_MATRICES[deficiency]
    linear = [_to_linear(c) for c in hex_to_rgb(colour)]
    return rgb_to_hex(_to_gamma(sum(m * c for m, c in zip(row, linear, strict=True))) for row in matrix)


def min_distance(colours: Sequence[str]) -> float:
    """The smallest CIEDE2000 between two of ``colours`` (infinity for fewer than two)."""
    labs = [hex_to_lab(c) for c in colours]
    return min(
        (delta_e(labs[i], labs[j]) for i in range(len(labs)) for j in range(i + 1, len(labs))),
        default=math.inf,
    )


def shades(base: str, count: int) -> list[str]:
    """``count`` colours around ``base``'s hue (within 35 degrees), ``base`` first.

    A small farthest-point search: each next shade is the candidate farthest (CIEDE2000,
    on the light page's highlights) from those already taken. For schemas that give a colour
    per category only; the bundled i2b2-2014 schema lists a colour per type, chosen the same
    way over a finer grid (see its header).
    """
    if count <= 1:
        return [base][:count]
    return list(_shades(base, count))


@lru_cache(maxsize=256)
def _shades(base: str, count: int) -> tuple[str, ...]:
    # Cached: a task file with thousands of tags cycles through a few palette colours.
    candidates, labs, base_lab = _shade_candidates(base)
    result = [base]
    # Each candidate's distance to the nearest shade taken, updated with each new one: a
    # task file listing thousands of values costs thousands of steps, not millions.
    nearest = {c: delta_e(labs[c], base_lab) for c in candidates}
    while len(result) < count:
        best = max(candidates, key=nearest.__getitem__)
        if nearest[best] <= 0.0:
            # Every candidate is taken: the search would pick this one from now on.
            result += [best] * (count - len(result))
            break
        result.append(best)
        for c in candidates:
            nearest[c] = min(nearest[c], delta_e(labs[c], labs[best]))
    return tuple(result)


@cache
def _shade_candidates(base: str) -> tuple[list[str], dict[str, Lab], Lab]:
    """The grid of shades around ``base``'s hue and their highlights in Lab, and ``base``'s."""
    _, a, b = hex_to_lab(base)
    chroma, hue = max(math.hypot(a, b), 30.0), math.atan2(b, a)
    candidates = []
    for hue_step in (-35, -17.5, 0, 17.5, 35):
        h = hue + math.radians(hue_step)
        for level in (30, 41, 52, 63, 74, 85):
            candidates.append(lab_to_hex((level, chroma * math.cos(h), chroma * math.sin(h))))
    labs = {c: hex_to_lab(highlight(c, "light")) for c in candidates}
    return candidates, labs, hex_to_lab(highlight(base, "light"))
