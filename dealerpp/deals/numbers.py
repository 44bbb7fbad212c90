"""Numbers written in deal files (board numbers, check values, tricks), read
without ever raising.

Since Python 3.11 ``int()`` refuses a string of more than 4,300 digits
(``ValueError``), and ``str()`` an int that long: a hostile or damaged file
can hold such a digit string where a board number belongs. A number here
is ASCII digits, leading zeros allowed however many; one with more
significant digits than ``MAX_DIGITS`` is not a number a reader takes: it
is read as not a number (each reader then says what it says of one), and
:func:`digits_problem` words why.
"""

from __future__ import annotations

#: The most significant digits a number read from a file may have: CPython's
#: default limit for converting between int and str (sys.int_info).
MAX_DIGITS = 4300


def digits_value(text: str) -> int | None:
    """The value of ``text`` when it is ASCII digits only (no sign, no
    space) with at most ``MAX_DIGITS`` significant ones; None otherwise.

    >>> [digits_value(text) for text in ("007", "0" * 5000 + "7", "9" * 5000, "7 ", "")]
    [7, 7, None, None, None]
    """
    if not (text.isascii() and text.isdigit()):
        return None
    significant = text.lstrip("0")
    if len(significant) > MAX_DIGITS:
        return None
    return int(significant) if significant else 0


def too_long(text: str) -> bool:
    """Whether ``text`` is digits that ``digits_value`` refuses for their length."""
    return text.isascii() and text.isdigit() and len(text.lstrip("0")) > MAX_DIGITS


def digits_problem(text: str, what: str = "the number") -> str:
    """Why ``digits_value`` refuses a digit string (see ``too_long``), for a
    message that names it ``what``."""
    return (f"{what} has {len(text.lstrip('0')):,} digits; dealerpp reads numbers "
            f"of at most {MAX_DIGITS:,} digits")
