"""Adjudication mode: merge annotators' versions into gold, one key per decision."""
