"""python -m helpers.grading: the teacher's command line (``armar``, ``calificar``)."""

from helpers.grading._cli import main

__all__: list[str] = []

if __name__ == "__main__":
    raise SystemExit(main())
