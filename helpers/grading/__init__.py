"""For teachers: the lesson as an assignment. ``make grading`` builds student copies and otter-grader bundles;
``python -m helpers.grading calificar ENTREGA.ipynb|CARPETA --csv notas.csv`` grades submissions, no Docker.

Needs nbclient (Colab has it; ``pip install 'leccion06-helpers[docente]'`` elsewhere); building needs otter-grader.
"""

from __future__ import annotations

from ._assign import POINTS, build, master_notebook, reference_code, test_source
from ._grade import Result, grade, grade_all, write_csv
from ._notebook import GRADED_ENV, Exercise, exercises, missing_after_drop, student_copy

__all__ = ["GRADED_ENV", "POINTS", "Exercise", "Result", "build", "exercises", "grade", "grade_all",
           "master_notebook", "missing_after_drop", "reference_code", "student_copy", "test_source", "write_csv"]


def __dir__():
    return __all__
