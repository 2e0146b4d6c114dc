"""The longest note the slow jobs take, and the refusal of a longer one (one line, no work)."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.core.limits import MAX_NOTE_CHARS, refuse_long_notes
from annotator.errors import InputError


def test_a_note_at_the_limit_passes_and_one_character_more_is_refused() -> None:
    refuse_long_notes([Document("100-01", "x" * MAX_NOTE_CHARS)], "pre-annotation")
    with pytest.raises(InputError, match=r"note 100-02 is 10,000,001 characters long, over the 10,000,000"):
        refuse_long_notes([Document("100-01", "short"), Document("100-02", "x" * (MAX_NOTE_CHARS + 1))], "x")


@pytest.mark.slow
@pytest.mark.parametrize("job", ["preannotate", "deidentify"])
def test_the_commands_refuse_a_longer_note_before_any_work(job: str, tmp_path: Path) -> None:
    from annotator.cli.main import main
    from annotator.io.i2b2 import write_i2b2

    note = Document("100-01", "Seen today. " * (MAX_NOTE_CHARS // 12 + 1))
    write_i2b2(note, tmp_path / "in" / "100-01.xml")
    argv = {
        "preannotate": ["preannotate", "default", str(tmp_path / "in"), "-o", str(tmp_path / "out")],
        "deidentify": ["deidentify", str(tmp_path / "in"), "-o", str(tmp_path / "out")],
    }[job]
    assert main(argv) == 1
    assert not (tmp_path / "out").exists()
