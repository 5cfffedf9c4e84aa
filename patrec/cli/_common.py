"""What every job of the command line shares: its kind of error, and the first line of
an exception's message for a one-line report."""


class UsageError(Exception):
    """Bad input given on the command line: reported in one line, exit code 2."""


def _first_line(exc):
    """The first line of ``exc``'s message (its type's name when it has none)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
