"""Qt-free editing sessions: the workspace (files, locks, recovery), the annotation editor
(what an edit means), and the annotation session (the open document, the current
annotation, autosave, time). They announce changes with psygnal and take their timers from
the face that runs them (Qt timers in the window, manual ticks in tests or batch code).
The adjudication session is :class:`annotator.adjudication.decisions.AdjudicationSession`."""
