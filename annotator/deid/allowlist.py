"""Reviewed "not PHI here" decisions that let a leak-check finding pass.

A data owner who reads a finding and decides the string is not PHI where it stands ("Blake"
in "Blake drain", "Long" in "Long-standing") records it in an allow file; the next export
skips findings whose exact text that entry covers. The file is JSON::

    {"version": 1,
     "allow": [
       {"text": "Blake", "scope": "corpus", "reason": "Blake drain"},
       {"text": "Long", "scope": "patient", "patient": "104"},
       {"text": "Al", "scope": "document", "document": "104-02"}]}

``text`` is matched exactly (case included) against the text of the finding in the output
note; ``scope`` says where the decision holds: one ``document`` (give its id), every note
of one ``patient`` (give the id, the ``PPP`` of ``PPP-RR``), or the whole ``corpus``.
``reason`` is optional free text for the reviewer. The file holds strings that looked like
PHI: keep it with the gold standard.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotator.core.atomic import atomic_write_text
from annotator.core.document import Document, split_record_name
from annotator.core.text_files import refuse_special_file
from annotator.deid.findings import Leak
from annotator.errors import InputError

SCOPES = ("document", "patient", "corpus")
_KEYS = {"text", "scope", "document", "patient", "reason"}


@dataclass(frozen=True)
class AllowEntry:
    """One decision: ``text`` is not PHI in ``scope`` (``where`` names the document or patient)."""

    text: str
    scope: str
    where: str = ""
    reason: str = ""

    def covers(self, text: str, doc_id: str) -> bool:
        if text != self.text:
            return False
        if self.scope == "document":
            return doc_id == self.where
        if self.scope == "patient":
            return split_record_name(doc_id)[0] == self.where
        return True

    def to_dict(self) -> dict[str, str]:
        entry = {"text": self.text, "scope": self.scope}
        if self.scope != "corpus":
            entry[self.scope] = self.where
        if self.reason:
            entry["reason"] = self.reason
        return entry


def read_allow_file(path: str | Path) -> list[AllowEntry]:
    """The entries of an allow file; a one-line InputError naming the file and the problem."""
    path = Path(path)
    try:
        refuse_special_file(path, "an allow file")
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("allow file not found", path) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the allow file: {type(error).__name__}", path) from None
    except json.JSONDecodeError as error:
        raise InputError(f"allow file is not valid JSON (line {error.lineno})", path) from None
    except RecursionError:
        raise InputError("allow file is not valid JSON (nested too deeply)", path) from None
    except ValueError:
        # json reads numbers with int(), which refuses more than 4,300 digits.
        raise InputError("allow file holds a number too long to read", path) from None
    if not isinstance(raw, dict) or set(raw) - {"version", "allow"} or raw.get("version", 1) != 1:
        raise InputError('allow file must be an object {"version": 1, "allow": [...]}', path)
    items = raw.get("allow", [])
    if not isinstance(items, list):
        raise InputError('"allow" must be a list of entries', path)
    return [_entry(item, number, path) for number, item in enumerate(items, start=1)]


def _entry(item: Any, number: int, path: Path) -> AllowEntry:
    def fail(problem: str) -> InputError:
        return InputError(f"allow entry {number}: {problem}", path)

    if not isinstance(item, dict):
        raise fail("not an object")
    unknown = sorted(set(item) - _KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} (text, scope, document, patient, reason)")
    text, scope = item.get("text"), item.get("scope")
    if not isinstance(text, str) or not text.strip():
        raise fail('"text" must be a non-empty string')
    if scope not in SCOPES:
        raise fail('"scope" must be document, patient or corpus')
    where = item.get(scope, "") if scope != "corpus" else ""
    if scope != "corpus" and (not isinstance(where, str) or not where):
        raise fail(f'scope {scope} needs "{scope}": the {scope} id')
    other = "patient" if scope == "document" else "document"
    if other in item or (scope == "corpus" and ("document" in item or "patient" in item)):
        raise fail(f"scope {scope} takes no other document or patient id")
    reason = item.get("reason", "")
    if not isinstance(reason, str):
        raise fail('"reason" must be a string')
    return AllowEntry(text, scope, where, reason)


def finding_text(leak: Leak, outputs: dict[str, Document]) -> str:
    """The text of a finding in its output note (PHI: never print or log it)."""
    document = outputs.get(leak.doc_id)
    return document.text[leak.start : leak.end] if document is not None else ""


def without_allowed(
    leaks: list[Leak], outputs: Iterable[Document], entries: list[AllowEntry]
) -> tuple[list[Leak], list[Leak]]:
    """The findings no entry covers, and those the allow entries let pass."""
    if not entries:
        return leaks, []
    by_id = {d.doc_id: d for d in outputs}
    kept: list[Leak] = []
    passed: list[Leak] = []
    for leak in leaks:
        text = finding_text(leak, by_id)
        (passed if any(e.covers(text, leak.doc_id) for e in entries) else kept).append(leak)
    return kept, passed


def add_allow_entry(path: str | Path, entry: AllowEntry) -> None:
    """Add one decision to an allow file (created private, 0600, if missing)."""
    path = Path(path)
    entries = read_allow_file(path) if path.exists() else []
    if entry not in entries:
        entries.append(entry)
    if path.exists():
        os.chmod(path, 0o600)
    data = {"version": 1, "allow": [e.to_dict() for e in entries]}
    atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
