"""What a saved notebook shows for a widget nobody is running: its text/plain, which ipywidgets 7 and 8 take from
repr(widget) (cut at 110 characters). A Spanish sentence that says what the control is and to run its cell."""

from __future__ import annotations

__all__ = ["LIMIT", "Saved"]

LIMIT = 110  # ipywidgets 7 (Colab's: _ipython_display_) and 8 (_repr_mimebundle_) cut text/plain there


class Saved:
    """Mixin for a widget class: ``saved_text()`` is its repr, the sentence a stored notebook shows in its place."""

    def saved_text(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.saved_text()
