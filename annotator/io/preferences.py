"""The user's display preferences, kept beside the remembered identity.

``$XDG_CONFIG_HOME/phi-annotator/preferences.json``::

    {"version": 1, "monospace": true, "type_labels": false, "note_zoom": 2, "theme": "dark",
     "types": {"DOCTOR": {"color": "#5e7500", "key": "r"}}}

``note_zoom`` is how many points larger (or smaller) than the default the note text is
(Ctrl++ / Ctrl+-); ``theme`` the theme last chosen with Ctrl+Shift+T, used when the window
is started with ``--theme auto`` (absent: follow the system); ``document_filter`` what the
document list shows (``"Not done"``, ...; absent: every document); ``table`` the annotation
table's category filter, *pending only* and sort column and order.

Per-user, not per-project: a colour or key someone chose follows them to every project.
An unreadable or malformed file gives the defaults (a display preference is never worth
refusing to start over); it is replaced only when the user saves new preferences.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from annotator.core.atomic import atomic_write_text
from annotator.core.schema import Schema
from annotator.errors import SchemaError
from annotator.io.workstate import config_dir

PREFERENCES_FILE: Final = "preferences.json"
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
# The note text from 6 points smaller to 24 larger than the default.
MIN_ZOOM: Final = -6
MAX_ZOOM: Final = 24


@dataclass
class Preferences:
    """What the user chose: note font and size, inline type labels, their own type colours and
    keys, the theme."""

    monospace: bool = True
    type_labels: bool = False
    colours: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    note_zoom: int = 0
    theme: str = ""
    document_filter: str = ""
    # The annotation table: category shown ("" all), pending only, sort (column, 0 up / 1 down).
    table_category: str = ""
    table_pending_only: bool = False
    table_sort: tuple[int, int] = (0, 0)

    def apply(self, schema: Schema) -> Schema:
        """``schema`` with the user's colours and keys (a key clash keeps the schema's keys)."""
        categories = []
        for category in schema.categories:
            types = tuple(
                replace(
                    t,
                    color=self.colours.get(t.name, t.color),
                    key=self.keys.get(t.name, t.key),
                )
                for t in category.types
            )
            categories.append(replace(category, types=types))
        try:
            return replace(schema, categories=tuple(categories), _types={})
        except SchemaError:
            return replace(self, keys={}).apply(schema)


def preferences_path() -> str:
    return str(config_dir() / PREFERENCES_FILE)


def load_preferences() -> Preferences:
    if not Path(preferences_path()).is_file():
        return Preferences()  # none yet, or a pipe or device put there: it would never end
    try:
        with open(preferences_path(), encoding="utf-8") as handle:
            raw = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return Preferences()
    if not isinstance(raw, dict):
        return Preferences()
    types = raw.get("types")
    if not isinstance(types, dict):
        types = {}
    colours: dict[str, str] = {}
    keys: dict[str, str] = {}
    for name, entry in types.items():
        if not isinstance(entry, dict):
            continue
        colour, key = entry.get("color"), entry.get("key")
        if isinstance(colour, str) and _COLOUR.match(colour):
            colours[str(name)] = colour.lower()
        if isinstance(key, str) and len(key) <= 1:
            keys[str(name)] = key.lower()
    zoom = raw.get("note_zoom", 0)
    document_filter = raw.get("document_filter", "")
    table = raw.get("table")
    table = table if isinstance(table, dict) else {}
    category = table.get("category", "")
    sort = table.get("sort")
    if not (
        isinstance(sort, list)
        and len(sort) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in sort)
        and 0 <= sort[0] < 20
        and sort[1] in (0, 1)
    ):
        sort = [0, 0]
    theme = raw.get("theme", "")
    return Preferences(
        monospace=bool(raw.get("monospace", True)),
        type_labels=bool(raw.get("type_labels", False)),
        colours=colours,
        keys=keys,
        note_zoom=min(max(zoom, MIN_ZOOM), MAX_ZOOM)
        if isinstance(zoom, int) and not isinstance(zoom, bool)
        else 0,
        theme=theme if theme in ("light", "dark") else "",
        document_filter=document_filter if isinstance(document_filter, str) else "",
        table_category=category if isinstance(category, str) else "",
        table_pending_only=table.get("pending_only") is True,
        table_sort=(sort[0], sort[1]),
    )


def save_preferences(preferences: Preferences) -> None:
    names = sorted(set(preferences.colours) | set(preferences.keys))
    types = {
        name: {
            k: v
            for k, v in (("color", preferences.colours.get(name)), ("key", preferences.keys.get(name)))
            if v is not None
        }
        for name in names
    }
    data = {
        "version": 1,
        "monospace": preferences.monospace,
        "type_labels": preferences.type_labels,
        "note_zoom": preferences.note_zoom,
        "types": types,
    }
    if preferences.theme:
        data["theme"] = preferences.theme
    if preferences.document_filter:
        data["document_filter"] = preferences.document_filter
    data["table"] = {
        "category": preferences.table_category,
        "pending_only": preferences.table_pending_only,
        "sort": list(preferences.table_sort),
    }
    atomic_write_text(preferences_path(), json.dumps(data, indent=2) + "\n")
