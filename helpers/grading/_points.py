"""The teacher's points file (``puntos.ini``): which "Tu turno" count for the grade, and how much each is worth.

    # una sección por notebook que entra en la tarea; los ejercicios que no nombrás quedan de práctica
    [03_layernorm]
    rms_norm = 2

Without the file: every notebook, every exercise, 1 point each.
"""

from __future__ import annotations

import configparser
import math
from pathlib import Path

__all__ = ["PointsError", "read_points"]


class PointsError(ValueError):
    """The points file is wrong; the message (Spanish) says where and what is valid."""


def _parser() -> configparser.ConfigParser:
    p = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=("#", ";"))
    p.optionxform = str  # exercise names are case-sensitive
    return p


def _weight(text: str, where: str) -> float:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise PointsError(f"{where}: «{text}» no es un puntaje: poné un número mayor que 0 (por ejemplo 1 o 1.5); "
                          "para que un ejercicio no entre en la nota, borrá su línea")
    return value


def read_points(path: Path, known: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """``{notebook: {exercise: points}}`` from the file, checked against ``known`` (notebook -> its exercises)."""
    path, p = Path(path), _parser()
    try:
        p.read_string(path.read_text(encoding="utf-8"), source=str(path))
    except FileNotFoundError:
        raise PointsError(f"no encontré el archivo de puntos {path}") from None
    except configparser.Error as e:
        raise PointsError(f"{path} no se entiende: {e}. Mirá el ejemplo de docs/docente.md.") from None
    if not p.sections():
        raise PointsError(f"{path} no nombra ningún notebook: poné una sección como [03_layernorm] y abajo "
                          f"«ejercicio = puntos». Notebooks: {', '.join(known)}")
    out = {}
    for section in p.sections():
        if section not in known:
            raise PointsError(f"{path}: no hay un notebook «{section}». Los que hay: {', '.join(known)}")
        names = known[section]
        if not p[section]:
            raise PointsError(f"{path}, [{section}]: no nombra ningún ejercicio. Los de {section}: "
                              f"{', '.join(names)}")
        for name in p[section]:
            if name not in names:
                raise PointsError(f"{path}, [{section}]: no hay un ejercicio «{name}» en {section}. Los que hay: "
                                  f"{', '.join(names)}")
        out[section] = {name: _weight(text, f"{path}, [{section}] {name}") for name, text in p[section].items()}
    return out
