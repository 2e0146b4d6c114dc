"""Style B: a second synthetic note style, written independently of style A.

It exists only to measure generalisation (train on one style, test on the other; false alarms
of the leak check on notes it was not tuned on). Entry point: ``generate_notes_b``, or
``annotator.synth.generator.generate_corpus(..., style="b")``.
"""
