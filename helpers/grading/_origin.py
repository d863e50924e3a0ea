"""Where a copy came from, against who it says it is: a grade changes only by its owner's hand-in.

Classroom names each student's copy «Ana Pérez - 03_layernorm.ipynb»; a Drive folder may hold «Ana Pérez/Copia de
03_layernorm.ipynb». That name is the copy's origin; the name cell is its declared identity. A declared name that
another person's origin contradicts is said; copies of one student key (``_identity.students``) that come from two
people go in two rows, the owner's first (its origin agrees with the name cell), so a later copy never replaces
another person's grade. ``--vale ARCHIVO`` is the teacher's decision: that copy counts for whom its name cell says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ._identity import _fold, name_key

__all__ = ["Origin", "origin", "same_person", "settle"]

# Words that name no one: a folder or file called «entregas», «Copia de …» or «otro» claims no person
_NO_NAME = frozenset("""copia copias entrega entregas tarea tareas trabajo trabajos practico practica notebook notebooks
cuaderno cuadernos descargas downloads submissions submission classroom drive colab google otro otros otra otras
nuevo nueva nuevos nuevas viejo vieja viejos viejas final finales version sin nombre docente profe profesor profesora
alumnos alumnas estudiante estudiantes curso clase archivo archivos carpeta untitled ipynb leccion layernorm
residual ffn encoder""".split())
_PARTICLES = frozenset("de del la las los y e da di do dos van von der".split())
_PERSON = re.compile(r"^[^\W\d_]+(?:['’.-][^\W\d_]*)*$")  # a word of letters (O'Neil, Ana-María, Jr.)
_COUNTER = re.compile(r"\s*\(\d+\)$")  # «Copia de 03_layernorm (1)»: a copy's counter


@dataclass(frozen=True)
class Origin:
    """The person a copy's file name or folder names (as written there), and which of the two says so."""

    name: str
    where: str  # "su archivo" or "su carpeta «Ana»"


def _tokens(name: str) -> frozenset[str]:
    """A person's name as a set of folded words, particles and initials left out."""
    return frozenset(w for w in re.findall(r"[^\W\d_]+", _fold(name)) if len(w) > 1 and w not in _PARTICLES)


def _person(text: str, words: int = 1) -> str:
    """``text`` if it reads as a person's name (words of letters, at least ``words`` of them, none a word that
    names no one), else ""."""
    text = " ".join(_COUNTER.sub("", text).split())
    parts = text.split()
    if (len(parts) < words or not all(_PERSON.match(w) for w in parts) or not _tokens(text)
            or any(w in _NO_NAME for w in re.findall(r"[^\W\d_]+", _fold(text)))):
        return ""
    return text


def origin(rel: Path) -> Origin | None:
    """Who a copy's path says it is from, relative to the submissions' folder: Classroom's «Ana Pérez - 03_layernorm
    .ipynb» (the name before « - »), a file named as a person («Ana Pérez.ipynb», two words at least), else the
    nearest folder named as one («Ana Pérez/Copia de 03_layernorm.ipynb»); None where none names anyone."""
    rel = Path(rel)
    stem = _COUNTER.sub("", rel.stem)
    found = _person(stem.split(" - ")[0] if " - " in stem else "") or _person(stem, words=2)
    if found:
        return Origin(found, "su archivo")
    for folder in reversed(rel.parent.parts):
        if _person(folder):
            return Origin(_person(folder), f"su carpeta «{folder}»")
    return None


def same_person(a: str, b: str) -> bool:
    """Two written names could be one person: the words of one (folded, particles and initials aside) are all in
    the other («Ana» and «Ana Pérez»; «ana perez» and «Ana María Pérez»), not «Ana Pérez» and «Ana Gómez»."""
    x, y = _tokens(a), _tokens(b)
    return bool(x and y) and (x <= y or y <= x)


# ------------------------------------------------------------------------------------ settling who owns a key

def _declared(subs) -> dict[str, str]:
    """Per student key, the name its submissions write (the first that writes one)."""
    names: dict[str, str] = {}
    for s in subs:
        if s.who and s.who.name:
            names.setdefault(s.key, s.who.name)
    return names


def _contradicted(subs) -> None:
    """Say it where a submission's name (its own, or its key's) is not the person its origin names."""
    names = _declared(subs)
    for s in subs:
        name = (s.who.name if s.who else "") or names.get(s.key, "")
        if s.origin and name and not same_person(name, s.origin.name):
            s.contradicts = s.origin
            s.alerts.append(f"la celda del nombre dice «{name}», pero {s.origin.where} es de «{s.origin.name}»")
            s.tell.append("tu entrega dice ser de otra persona que la de su archivo: tu docente decide de quién es.")


def _clusters(group) -> list[list]:
    """One student key's submissions, by the person their origin names; those with no origin join the one person
    named, or, where the key's copies name two people, stay apart (no one can tell whose they are)."""
    known: list[list] = []
    for s in group:
        home = next((c for c in known if s.origin and same_person(c[0].origin.name, s.origin.name)), None)
        if s.origin and home is not None:
            home.append(s)
        elif s.origin:
            known.append([s])
    unnamed = [s for s in group if not s.origin]
    if len(known) <= 1:
        return [(known[0] if known else []) + unnamed]
    return known + ([unnamed] if unnamed else [])


def _stamp(s) -> float:
    return s.who.time.timestamp() if s.who and s.who.time else 0


def _rank(cluster) -> tuple:
    """Whose key it is: a copy whose origin agrees with its name first, then copies from nowhere, then copies
    whose origin contradicts their name; between equals, the earliest."""
    agrees = any(s.origin and not s.contradicts for s in cluster)
    return (0 if agrees else 1 if not cluster[0].origin else 2, min(_stamp(s) for s in cluster))


def _from(cluster) -> str:
    s = cluster[0]
    return f"de «{s.origin.name}»" if s.origin else "sin nombre en su archivo ni en su carpeta"


def _split(key: str, clusters: list[list], owner: list) -> None:
    """The owner's cluster keeps ``key``; each other gets a row of its own, and both sides say so."""
    for cluster in clusters:
        if cluster is owner:
            continue
        tag = f"origen:{name_key(cluster[0].origin.name)}" if cluster[0].origin else "sin origen"
        where = ", ".join(s.rel.as_posix() for s in cluster)
        for s in cluster:
            s.key = f"{key}|{tag}"
            s.alerts.append(f"tiene el nombre o el legajo de {', '.join(o.rel.as_posix() for o in owner)} "
                            f"({_from(owner)}) y viene {_from(cluster)}: no reemplaza esa nota, va en una fila aparte; "
                            f"si vale para quien dice su celda del nombre, calificá de nuevo con --vale "
                            f"\"{s.rel.as_posix()}\"")
            s.tell.append("tu entrega tiene el nombre o el legajo de otra persona: se califica aparte hasta que tu "
                          "docente decida de quién es.")
        stems = {s.stem for s in cluster}
        told = [s for s in owner if s.stem in stems] or owner[-1:]  # where its grade could have been replaced
        for s in told:
            s.alerts.append(f"otra entrega con su nombre o su legajo, {where}, viene {_from(cluster)}: "
                            + ("no reemplazó esta nota, " if s.stem in stems else "") + "va en una fila aparte")


def settle(subs, winners=()) -> None:
    """Check each submission's declared identity against its origin, and give each student key to one person
    (``_split``); ``winners``: the submissions the teacher named with --vale, which count for whom they say, the
    other people's copies of their notebook then not graded (``outvoted_by``)."""
    _contradicted(subs)
    groups: dict[str, list] = {}
    for s in subs:
        if s.who is not None:
            groups.setdefault(s.key, []).append(s)
    for key, group in groups.items():
        clusters = _clusters(group)
        if len(clusters) < 2:
            continue
        owner = next((c for c in clusters if any(w in c for w in winners)), None) or min(clusters, key=_rank)
        _split(key, clusters, owner)
        for w in (w for w in winners if w in owner):
            for s in group:
                if s not in owner and s.stem == w.stem:
                    s.outvoted_by = w
