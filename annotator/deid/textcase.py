"""Small text helpers shared by the surrogate generators: case copying, random shapes."""

from __future__ import annotations

import random
import string


def case_style(text: str) -> str:
    """``upper``, ``lower``, ``title`` or ``mixed`` for the letters of ``text``."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "mixed"
    if all(c.isupper() for c in letters):
        return "upper" if len(letters) > 1 else "title"
    if all(c.islower() for c in letters):
        return "lower"
    if letters[0].isupper():
        return "title"
    return "mixed"


def apply_case(model: str, text: str) -> str:
    """``text`` written in the case of ``model`` (SMITH -> JONES, smith -> jones)."""
    style = case_style(model)
    if style == "upper":
        return text.upper()
    if style == "lower":
        return text.lower()
    return text


def random_like(text: str, rng: random.Random, nonzero_first: bool = True) -> str:
    """Random characters in the shape of ``text``: digits stay digits, letters letters of the
    same case, everything else is kept; the first digit is not zero (when asked)."""
    out = []
    first_digit = True
    for char in text:
        if char.isdigit():
            low = 1 if (first_digit and nonzero_first) else 0
            out.append(str(rng.randint(low, 9)))
            first_digit = False
        elif char.isalpha() and char.isascii():
            letter = rng.choice(string.ascii_lowercase)
            out.append(letter.upper() if char.isupper() else letter)
        elif char.isalpha():
            out.append(rng.choice(string.ascii_lowercase))
        else:
            out.append(char)
    return "".join(out)
