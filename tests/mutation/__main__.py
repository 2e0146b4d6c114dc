"""Mutation testing, one module at a time, with a targeted test selection (mutmut).

Usage::

    .venv/bin/python -m tests.mutation MODULE [--jobs N] [--keep DIR]
    .venv/bin/python -m tests.mutation --list

MODULE is a key of :data:`MODULES` (``engine``, ``counts``, ``iaa``, ``significance``,
``units``, ``decisions``, ``leakcheck``, ``leak-variants``, ``clinical-language``, ``dates``,
``recall-bias``). The checkout is copied to a
scratch folder (mutmut writes a ``mutants/`` tree next to the sources), mutmut runs there on
that one file with only the tests that exercise it, and the summary printed at the end
(mutants, killed, equivalent, survived, kill rate) is what docs/testing.md records.
Equivalent mutants are listed with a one-line reason in :mod:`tests.mutation.equivalent`;
every other survivor is printed so it can be killed with a new test.

Needs ``pip install mutmut`` (3.x). The machine is shared: the default is one worker.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tests.mutation.equivalent import EQUIVALENT

REPO = Path(__file__).resolve().parents[2]

# Every test file that runs the leak check (find_leaks); its rules are split over several modules.
_LEAK_TESTS = [
    "tests/deid/test_leakcheck.py",
    "tests/deid/test_leak_details.py",
    "tests/deid/test_leak_mutants.py",
    "tests/deid/test_leak_short_and_capitals.py",
    "tests/deid/test_leak_clinical_language.py",
    "tests/deid/test_leak_variants_details.py",
    "tests/deid/test_clinical_language_details.py",
    "tests/deid/test_export.py",
]

# module key -> (source file, test selection)
MODULES: dict[str, tuple[str, list[str]]] = {
    "engine": (
        "annotator/evaluation/engine.py",
        [
            "tests/evaluation",
            "tests/cli/test_evaluate_cli.py",
            "tests/cli/test_json_schemas.py",
            "tests/batch/test_merge.py",
        ],
    ),
    "counts": ("annotator/evaluation/counts.py", ["tests/evaluation"]),
    "iaa": (
        "annotator/evaluation/iaa.py",
        [
            "tests/evaluation/test_iaa.py",
            "tests/evaluation/test_iaa_details.py",
            "tests/cli/test_iaa_cli.py",
            "tests/cli/test_json_schemas.py::test_iaa",
            "tests/workflows/test_scoring_workflows.py",
        ],
    ),
    "significance": (
        "annotator/evaluation/significance.py",
        [
            "tests/evaluation/test_significance.py",
            "tests/evaluation/test_significance_reference.py",
            "tests/evaluation/test_significance_details.py",
        ],
    ),
    "units": ("annotator/adjudication/units.py", ["tests/adjudication"]),
    "decisions": ("annotator/adjudication/decisions.py", ["tests/adjudication"]),
    "leakcheck": ("annotator/deid/leakcheck.py", _LEAK_TESTS),
    "leak-variants": ("annotator/deid/leak_variants.py", _LEAK_TESTS),
    "clinical-language": ("annotator/deid/clinical_language.py", _LEAK_TESTS),
    "dates": (
        "annotator/deid/dates.py",
        [
            "tests/deid/test_dates.py",
            "tests/deid/test_dates_details.py",
            "tests/deid/test_date_intervals.py",
            "tests/deid/test_leak_mutants.py",
        ],
    ),
    "recall-bias": (
        "annotator/crf/tagger.py",
        [
            "tests/crf/test_tagger.py",
            "tests/crf/test_recall_bias_path.py",
            "tests/crf/test_recall_bias_details.py",
            # Long notes are scored chunk by chunk: small chunks must score like the whole note.
            "tests/crf/test_chunks.py",
            "tests/crf/test_private_scoring.py",
        ],
    ),
}

# Modules mutated only in part: mutant-name patterns (fnmatch) of the functions under test.
# tagger.py is mostly training and model I/O; the recall-bias path is scoring and decoding.
_TAGGER = "annotator.crf.tagger."
ONLY: dict[str, list[str]] = {
    "recall-bias": [
        _TAGGER + "xǁCrfTaggerǁscore__mutmut_*",
        _TAGGER + "xǁCrfTaggerǁscore_chunk__mutmut_*",
        _TAGGER + "xǁCrfTaggerǁdecode__mutmut_*",
        _TAGGER + "xǁCrfTaggerǁpredict_spans__mutmut_*",
        _TAGGER + "x__check_bias__mutmut_*",
    ],
}

STATUS = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
}
# a timeout (the mutant made the tests hang or crawl) counts as detected
TIMEOUT = {36, 24, -24, 152, 255}


def mutmut_config(source: str, tests: list[str]) -> str:
    selection = ", ".join(json.dumps(t) for t in tests)
    return (
        "\n[tool.mutmut]\n"
        'source_paths = ["annotator"]\n'
        f"only_mutate = [{json.dumps(source)}]\n"
        'also_copy = ["resources", "docs"]\n'
        f"pytest_add_cli_args_test_selection = [{selection}]\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-x", "-q"]\n'
        "use_git_change_detection = false\n"
    )


def prepare(work: Path, source: str, tests: list[str]) -> None:
    for name in ("annotator", "tests", "resources", "docs"):
        shutil.copytree(REPO / name, work / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    config = (REPO / "pyproject.toml").read_text(encoding="utf-8") + mutmut_config(source, tests)
    (work / "pyproject.toml").write_text(config, encoding="utf-8")


def results(work: Path) -> dict[str, str]:
    """Mutant name -> status, read from mutmut's per-file metadata."""
    out: dict[str, str] = {}
    for meta in (work / "mutants").rglob("*.meta"):
        data = json.loads(meta.read_text(encoding="utf-8"))
        for name, code in data.get("exit_code_by_key", {}).items():
            if code in TIMEOUT:
                out[name] = "timeout"
            else:
                out[name] = STATUS.get(code, "not checked" if code is None else f"exit {code}")
    return out


def selected(module: str, statuses: dict[str, str]) -> dict[str, str]:
    """The statuses of the mutants the module's run covers (all, or those of ONLY)."""
    patterns = ONLY.get(module)
    if patterns is None:
        return statuses
    return {name: s for name, s in statuses.items() if any(fnmatch.fnmatchcase(name, p) for p in patterns)}


def summarise(module: str, statuses: dict[str, str]) -> dict[str, object]:
    equivalent = {name for name in statuses if name in EQUIVALENT}
    counted = Counter(status for name, status in statuses.items() if name not in equivalent)
    survivors = sorted(
        n for n, s in statuses.items() if s not in ("killed", "timeout") and n not in equivalent
    )
    killed = counted["killed"] + counted["timeout"]
    non_equivalent = len(statuses) - len(equivalent)
    return {
        "module": module,
        "mutants": len(statuses),
        "killed": killed,
        "equivalent": len(equivalent),
        "survived": len(survivors),
        "kill_rate": round(killed / non_equivalent, 4) if non_equivalent else None,
        "by_status": dict(counted),
        "survivors": survivors,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", nargs="?", choices=sorted(MODULES))
    parser.add_argument("--list", action="store_true", help="list the modules and their test selections")
    parser.add_argument("--jobs", type=int, default=1, help="mutmut workers (default 1: the CPU is shared)")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (to inspect survivors)")
    args = parser.parse_args(argv)
    if args.list or not args.module:
        for key, (source, tests) in MODULES.items():
            only = f"  (only {', '.join(p.rsplit('.', 1)[-1] for p in ONLY[key])})" if key in ONLY else ""
            print(f"{key:17} {source:40} {' '.join(tests)}{only}")
        return 0
    source, tests = MODULES[args.module]
    work = args.keep or Path(tempfile.mkdtemp(prefix=f"mutation-{args.module}-"))
    try:
        if not (work / "mutants").exists():
            prepare(work, source, tests)
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "mutmut",
                "run",
                "--max-children",
                str(args.jobs),
                *ONLY.get(args.module, []),
            ],
            cwd=work,
            check=False,
            stdout=subprocess.PIPE,
            text=True,
        )
        if not results(work):
            print(run.stdout[-3000:], file=sys.stderr)
        summary = summarise(args.module, selected(args.module, results(work)))
        print(json.dumps(summary, indent=2))
        return 0
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
