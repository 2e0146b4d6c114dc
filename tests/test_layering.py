"""The non-GUI layers never load Qt: importing any of their modules leaves PySide6 out."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import annotator

# The GUI package is Qt by design; the CLI entry points that start it import Qt lazily.
SKIPPED_PACKAGES = ("annotator.gui",)


def _non_gui_modules() -> list[str]:
    names = ["annotator"]
    for info in pkgutil.walk_packages(annotator.__path__, prefix="annotator."):
        # __main__ runs the command line when imported.
        if not info.name.startswith(SKIPPED_PACKAGES) and not info.name.endswith("__main__"):
            names.append(info.name)
    return sorted(names)


def test_there_are_modules_to_check() -> None:
    modules = _non_gui_modules()
    assert {
        "annotator.core.document",
        "annotator.io.i2b2",
        "annotator.cli.main",
        "annotator.session.annotation_session",
        "annotator.workflows.evaluate",
        "annotator.batch.jobs",
    } <= set(modules)


def test_no_non_gui_module_imports_pyside6() -> None:
    modules = _non_gui_modules()
    script = (
        "import importlib, sys\n"
        f"modules = {modules!r}\n"
        "for name in modules:\n"
        "    importlib.import_module(name)\n"
        "    if 'PySide6' in sys.modules or 'shiboken6' in sys.modules:\n"
        "        print(name)\n"
        "        sys.exit(1)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"{result.stdout.strip()} loaded Qt: {result.stderr[-2000:]}"


def test_cli_parser_builds_without_qt() -> None:
    script = (
        "import sys\n"
        "from annotator.cli.main import build_parser\n"
        "build_parser()\n"
        "sys.exit(1 if 'PySide6' in sys.modules else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
