"""One plain function per job, called by both faces.

Each module takes a typed request (a frozen dataclass), returns a typed result with typed
:class:`~annotator.workflows.notes.Note` objects (never a message someone has to parse), and
reports progress and checks a cancel flag through callbacks. The CLI parses arguments into a
request and prints the result; the GUI runs the same function in its worker thread.
"""
