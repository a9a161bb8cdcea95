"""How deep the tests go: ``make test`` runs every draw; ``make check`` (``STB_QUICK=1``) is the quick loop while
working -- an eighth of each property test's draws, each chapter's sentences audited on one drawn run (its
explicit regression cases and the rest of its draws are ``make test``'s), and the tests marked ``slow`` left out."""

import os

QUICK = bool(os.environ.get("STB_QUICK"))


def draws(n: int) -> int:
    """Hypothesis draws for a property test: ``n``, or an eighth of them (at least 2) in the quick loop."""
    return max(2, n // 8) if QUICK else n
