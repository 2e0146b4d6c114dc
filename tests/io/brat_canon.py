# mypy: ignore-errors
"""What brat's own reader makes of ``.ann`` files, ids aside (run with brat's Python).

``python3.9 brat_canon.py BRAT/server/src A.ann B.ann ...`` (from ``BRAT/server/src``, which
needs a ``config.py``) prints ``{path: [line, ...]}``: each annotation as brat's
``annotation.TextAnnotations`` reads it, every id replaced by what it names (a text-bound by
its type, spans and text), sorted, so the files we write can be compared with brat's.
Used by ``tests/io/test_public_interchange.py``; never imported.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])

from annotation import (  # brat's server/src, put on the path above
    AttributeAnnotation,
    BinaryRelationAnnotation,
    EquivAnnotation,
    EventAnnotation,
    NormalizationAnnotation,
    OnelineCommentAnnotation,
    TextAnnotations,
    TextBoundAnnotation,
)

# A tuple, not X | Y: brat runs on Python 3.9.
RELATED = (EventAnnotation, BinaryRelationAnnotation, AttributeAnnotation)


def canonical(path):
    annotations = TextAnnotations(path[: -len(".ann")], read_only=True)
    names = {
        a.id: f"T({a.type} {a.spans} {a.text!r})" for a in annotations if isinstance(a, TextBoundAnnotation)
    }

    def name(item_id, depth=0):
        if item_id in names:
            return names[item_id]
        try:
            a = annotations.get_ann_by_id(item_id)
        except Exception:
            return "MISSING " + item_id
        if depth > 10:
            return item_id
        if isinstance(a, EventAnnotation):
            arguments = sorted((role, name(target, depth + 1)) for role, target in a.args)
            return f"E({a.type} {name(a.trigger, depth + 1)} {arguments})"
        if isinstance(a, BinaryRelationAnnotation):
            first, second = name(a.arg1, depth + 1), name(a.arg2, depth + 1)
            return f"R({a.type} {a.arg1l}:{first} {a.arg2l}:{second})"
        if isinstance(a, AttributeAnnotation):
            return f"A({a.type} {name(a.target, depth + 1)} {a.value!r})"
        return "?" + item_id

    lines = []
    for a in annotations:
        if isinstance(a, TextBoundAnnotation):
            lines.append(names[a.id])
        elif isinstance(a, RELATED):
            lines.append(name(a.id))
        elif isinstance(a, NormalizationAnnotation):
            lines.append(f"N({a.type} {name(a.target)} {a.refdb}:{a.refid} {a.tail.strip()!r})")
        elif isinstance(a, EquivAnnotation):
            lines.append(f"*({a.type} {sorted(name(e) for e in a.entities)})")
        elif isinstance(a, OnelineCommentAnnotation):
            lines.append(f"#({a.type} {name(a.target)} {a.tail.strip()!r})")
        else:
            lines.append("UNKNOWN " + str(a).strip())
    return sorted(lines)


if __name__ == "__main__":
    found = {}
    for path in sys.argv[2:]:
        try:
            found[path] = canonical(path)
        except Exception as error:
            found[path] = ["ERROR " + repr(error)]
    print(json.dumps(found))
