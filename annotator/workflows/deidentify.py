"""De-identify: a masked or surrogate copy of a gold folder, leak-checked, all or nothing.

The work is :func:`annotator.deid.export.export_deidentified`; this module gives it the
request/result shape of the other workflows so both faces call it the same way.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.schema import load_schema
from annotator.deid.export import DeidReport, export_deidentified
from annotator.deid.leakcheck import LeakCheckOptions
from annotator.deid.surrogates import DeidOptions
from annotator.errors import UsageError
from annotator.io.publish import job_identity
from annotator.io.site_lists import read_site_lists
from annotator.workflows.notes import Cancelled, Progress

# Longer than any PHI string (names, addresses, ids): a larger value only turns the check off.
MAX_MIN_LEAK_LENGTH = 100


@dataclass(frozen=True)
class DeidentifyRequest:
    """De-identify ``gold_dir`` into ``out_dir`` (new or empty unless ``force``).

    ``map_path`` also writes the original -> surrogate audit map (it holds PHI);
    ``leak_options`` tunes the leak check (default: from ``options.min_leak_length``);
    ``on_leak`` is ``"refuse"`` or ``"mask"`` (mask every finding and write);
    ``allow_path`` is an allow file of reviewed "not PHI here" decisions;
    ``review_path`` also writes every finding in context (a private file holding PHI).
    """

    gold_dir: Path
    out_dir: Path
    options: DeidOptions = field(default_factory=DeidOptions)
    map_path: Path | None = None
    force: bool = False
    leak_options: LeakCheckOptions | None = None
    on_leak: str = "refuse"
    allow_path: Path | None = None
    review_path: Path | None = None


def site_leak_options(site_lists: Path | None, schema: str, options: DeidOptions) -> LeakCheckOptions | None:
    """The leak check with the site's lists (:mod:`annotator.deid.listed`), typed by ``schema``;
    None without lists (the check's defaults)."""
    if site_lists is None:
        return None
    lists = read_site_lists(site_lists, load_schema(schema))
    return LeakCheckOptions(min_length=options.min_leak_length, site_lists=lists)


def check_options(options: DeidOptions) -> None:
    """Refuse options no export can honour (also checked by ``annotator batch deidentify``)."""
    if len(options.mask_char) != 1:
        raise UsageError("--mask-char must be one character")
    if (
        not options.mask_char.isprintable()
        or options.mask_char.isspace()
        or unicodedata.combining(options.mask_char)  # an accent alone: drawn on the character before
    ):
        # A control character cannot be stored in the XML written; a space hides the mask.
        raise UsageError(f"--mask-char must be a visible character, not {options.mask_char!r}")
    # Over a line's length the check finds nothing and still says "no original PHI found".
    if not 1 <= options.min_leak_length <= MAX_MIN_LEAK_LENGTH:
        raise UsageError(f"--min-leak-length must be from 1 to {MAX_MIN_LEAK_LENGTH}")


def deidentify(
    request: DeidentifyRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> DeidReport:
    """Write the de-identified copy; raises LeakError (nothing written) on surviving PHI."""
    check_options(request.options)
    return export_deidentified(
        request.gold_dir,
        request.out_dir,
        request.options,
        map_path=request.map_path,
        force=request.force,
        progress=progress,
        cancelled=cancelled,
        leak_options=request.leak_options,
        on_leak=request.on_leak,
        allow_path=request.allow_path,
        review_path=request.review_path,
        job=job_identity(request),
    )
