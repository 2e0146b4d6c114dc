"""Ranges of the significance test's settings, without numpy (the CLI parser imports them)."""

#: The most shuffles: p is resolved to about 1/shuffles, 1e-6 here, far below any useful
#: threshold; more only costs time.
MAX_SHUFFLES = 1_000_000
#: Seeds numpy takes as one 32-bit word.
MAX_SEED = 2**32 - 1
