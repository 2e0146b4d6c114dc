"""A small text file of ours read with one-line errors naming the file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from annotator.core.project import Project
from annotator.core.text_files import read_utf8
from annotator.errors import InputError


def test_bytes_that_are_not_utf8_say_where_and_what_the_file_is_not(tmp_path: Path) -> None:
    path = tmp_path / "project.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(InputError) as error:
        Project.open(tmp_path)
    assert (error.value.message, error.value.path) == (
        "not UTF-8 text (byte 11): not a project file",
        str(path),
    )


def test_a_folder_in_place_of_the_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "x.jsonl").mkdir()
    with pytest.raises(InputError) as error:
        read_utf8(tmp_path / "x.jsonl", "a decision log")
    assert error.value.message == "cannot read a decision log: Is a directory"
    assert read_utf8(_written(tmp_path / "ok.txt", "é\n"), "a note") == "é\n"


def _written(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# A pipe blocks the read until someone writes (the command hangs), a device such as
# /dev/zero never ends (memory runs out); /dev/null stands for both: it reads as empty.
@pytest.mark.parametrize("what", ["a project file", "a decision log"])
def test_a_device_in_place_of_the_file_is_refused_unread(tmp_path: Path, what: str) -> None:
    (tmp_path / "x").symlink_to(os.devnull)
    with pytest.raises(InputError) as error:
        read_utf8(tmp_path / "x", what)
    assert error.value.message == f"is a pipe, socket or device, not {what}"
