"""The ``annotator`` command: dispatch to one thin module per subcommand.

Each subcommand module defines ``register(subparsers)``, which adds its parser and sets
``func`` to a ``run(args) -> int``. Heavy imports (Qt, scikit-learn, matplotlib) happen
inside ``run`` so that ``annotator --help`` stays instant.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from annotator import __version__
from annotator.cli import (
    adjudicate,
    batch,
    consistency,
    convert,
    deidentify,
    demo,
    evaluate,
    gui,
    iaa,
    preannotate,
    queue,
    report,
    significance,
    stats,
    synth,
    train,
    validate,
)
from annotator.crf.parallel import allow_auto_workers
from annotator.errors import AnnotatorError

# In the order ``annotator --help`` lists them. Each module imports its heavy dependencies
# inside ``run``, so importing them all here keeps ``annotator --help`` instant.
SUBCOMMANDS = (
    demo,
    gui,
    synth,
    validate,
    stats,
    convert,
    evaluate,
    iaa,
    significance,
    adjudicate,
    consistency,
    train,
    preannotate,
    queue,
    report,
    deidentify,
    batch,
)


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line message (no usage dump) on usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="annotator",
        description="PHI Annotator: annotate, adjudicate, evaluate and de-identify clinical notes.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in SUBCOMMANDS:
        module.register(subparsers)
    return parser


def _escape_unencodable_output() -> None:
    """Never crash on printing: a file name with invalid UTF-8 bytes (held as surrogates) or a
    terminal without UTF-8 shows such characters as backslash escapes instead."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _escape_unencodable_output()
    allow_auto_workers()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    with _terminate_like_an_interrupt(args.command not in _WINDOW_COMMANDS):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # here, so that a full disk is reported like any other failure
        return code
    except AnnotatorError as error:
        print(f"annotator {args.command}: error: {error.one_line()}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(f"annotator {args.command}: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print(f"annotator {args.command}: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as error:
        if not _is_output_failure(error) or args.debug:
            return _internal_error(args, error)
        _silence_stdout()
        print(f"annotator {args.command}: error: cannot write the output: {error.strerror}", file=sys.stderr)
        return 1
    except Exception as error:
        return _internal_error(args, error)


# The window keeps its own journal against any kill; a signal handler would only wait for Qt.
_WINDOW_COMMANDS = frozenset({"gui", "demo"})


class Terminated(BaseException):
    """SIGTERM (``kill``, a service or a batch system stopping the job), raised where the
    command is, so that it stops as after Ctrl-C: its staged output and its worker processes
    are removed, and it says so in one line. A BaseException, as KeyboardInterrupt is: no
    ``except Exception`` swallows it."""


def _raise_terminated(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second one must not cut the clean-up short
    raise Terminated


@contextmanager
def _terminate_like_an_interrupt(enabled: bool) -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` inside the block (only in the main thread, where
    Python delivers signals); the handler before is put back after."""
    if not enabled or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _internal_error(args: argparse.Namespace, error: Exception) -> int:
    """A bug of ours: said without echoing data (a traceback may quote a note)."""
    if args.debug:
        raise error
    print(
        f"annotator {args.command}: internal error ({type(error).__name__}); "
        "run again with --debug for the traceback",
        file=sys.stderr,
    )
    return 3


# A write that failed for want of room or a device: every file the commands write is named in
# their own errors, so one without a file name is the standard output (``> /dev/full``).
_OUTPUT_FAILURES = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _is_output_failure(error: OSError) -> bool:
    return error.filename is None and error.errno in _OUTPUT_FAILURES


def _silence_stdout() -> None:
    """Send what is still buffered for the standard output nowhere, so that the interpreter's
    last flush at exit cannot fail again and print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass  # the output is no file descriptor (a test's capture): nothing to silence


if __name__ == "__main__":
    raise SystemExit(main())
