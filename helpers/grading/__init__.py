"""For teachers: the lesson as an assignment. ``make grading`` builds student copies and otter-grader bundles;
``python -m helpers.grading calificar CARPETA --tarea build/grading`` grades a class's submissions, no Docker, and
writes the class report beside its CSV (``informe notas.csv`` rebuilds it from the CSV).

Needs nbclient and jinja2 (Colab has both; ``pip install 'leccion06-helpers[docente]'`` elsewhere); building
needs otter-grader.
"""

from __future__ import annotations

from ._assign import POINTS, build, master_notebook, plan, reference_code, test_source
from ._class import (
    Assignment,
    Submission,
    alerts,
    assignments,
    collect,
    grade_all,
    latest,
    student_rows,
    write_csv,
    write_feedback,
)
from ._grade import Result, grade
from ._identity import MARKER_KEY, Identity, identify, name_cell
from ._notebook import GRADED_ENV, Exercise, exercises, missing_after_drop, student_copy, unsolved
from ._points import PointsError, read_points
from ._report import Report, ReportError, report_from_csv, write_report

__all__ = ["GRADED_ENV", "MARKER_KEY", "POINTS", "Assignment", "Exercise", "Identity", "PointsError", "Report",
           "ReportError", "Result", "Submission", "alerts", "assignments", "build", "collect", "exercises", "grade",
           "grade_all", "identify", "latest", "master_notebook", "missing_after_drop", "name_cell", "plan",
           "read_points", "reference_code", "report_from_csv", "student_copy", "student_rows", "test_source",
           "unsolved", "write_csv", "write_feedback", "write_report"]


def __dir__():
    return __all__
