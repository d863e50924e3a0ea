"""Text for a spreadsheet: a cell that starts like a formula (``=``, ``+``, ``-``, ``@``, a tab or a carriage
return) is run by Excel, LibreOffice and Google Sheets when the CSV is opened; OWASP's advice for CSV injection is
to start it with a single quote, which the spreadsheet shows as text and does not run. ``restored`` undoes it for
whoever reads the CSV back (the class report): every cell of ours comes back as it was."""

from __future__ import annotations

import re

__all__ = ["inert", "restored"]

_TRIGGERS = "=+-@\t\r"
_QUOTED = re.compile(r"^'+[=+\-@\t\r]")  # what inert() quoted, quotes and all


def inert(text: str) -> str:
    """``text`` as a spreadsheet shows it without running it: a quote before a formula's first character; a text
    that already starts with quotes before one gets one more, so ``restored`` can give every cell back."""
    text = str(text)
    first = text.lstrip("'")[:1]
    return "'" + text if first and first in _TRIGGERS else text


def restored(text: str) -> str:
    """What ``inert`` was given."""
    return text[1:] if _QUOTED.match(text) else text
