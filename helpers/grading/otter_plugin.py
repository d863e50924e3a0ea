"""The Gradescope path's time limit: an otter-grader plugin, named in each ``autograder.zip``'s otter_config.json.

otter 7 sets no time limit on a notebook it grades (neither its assignment nor its autograder configuration has
one; ``otter grade --timeout`` is for Docker only), so ``otter run`` and Gradescope wait on a cell that never ends
until Gradescope's own limit (10 minutes unless changed), and then the student gets a 0 and no test. The plugin
gives otter calificar's rule, with calificar's numbers (``_grade.CELL_TIMEOUT_S``, ``_grade.KILL_AFTER_S``): a
cell still running at the limit is interrupted, and the notebook goes on, as in calificar; one that swallows the
interrupt is cut ``kill_after_s`` later, and the exercises whose cells came before keep their points. otter itself
cannot then write its results (its kernel died), so the plugin's guard writes them where Gradescope reads them,
in otter's own format, before it ends the kernel; ``otter run`` ends with an error.
"""

from __future__ import annotations

import glob
import json
import os
import re
from pathlib import Path

from ._grade import CELL_TIMEOUT_S, KILL_AFTER_S
from ._notebook import _roles, cell_place

__all__ = ["TimeLimit"]


def __dir__():
    return __all__

_SAID = "⏱ leccion06: "  # how the guard marks a cell it interrupted, in that cell's output
_GUARD = r'''def _leccion06_limite(cell_s, kill_s, places, tests, results, config, said):
    """Interrupt a cell at cell_s; if it goes on kill_s more, grade what ran, write results, end the kernel."""
    import json, os, signal, sys, threading, time
    shell, state = get_ipython(), {"n": -1, "start": None, "cut": False}

    def pre(*_):
        state.update(n=state["n"] + 1, start=time.monotonic(), cut=False)

    def post(*_):
        state["start"] = None

    def grade(where, seconds):
        from otter.execute import Checker
        from otter.run.run_autograder.autograder_config import AutograderConfig
        from otter.test_files import GradingResults
        why = (f"{where} se cortó a los {seconds:.0f} s: no terminó ni {kill_s:.0f} s después de interrumpirla, y "
               "corté el kernel. Los ejercicios cuyas celdas venían antes conservan su nota; los demás dan 0.")
        Checker.enable_tracking()
        done = threading.Event()

        def run():
            for test in tests:
                try:
                    Checker.check_if_not_already_checked(test, global_env=shell.user_ns)
                except BaseException:
                    pass
            done.set()
        threading.Thread(target=run, daemon=True).start()
        done.wait(cell_s)
        graded = GradingResults(list(Checker.get_results()))
        graded.set_output(why)
        out = graded.to_gradescope_dict(AutograderConfig(config))
        ran = {t.get("name") for t in out["tests"]}
        out["tests"] += [{"name": name, "score": 0, "max_score": worth, "visibility": "visible",
                          "output": f"no se calificó: {why}"} for name, worth in tests.values() if name not in ran]
        with open(results + ".tmp", "w", encoding="utf-8") as f:
            json.dump(out, f, indent=4)
        os.replace(results + ".tmp", results)
        # to the runner's own stderr (ipykernel sends fd 2 to the cell, which no one will read now)
        os.write(getattr(sys.stderr, "_original_stdstream_copy", None) or 2, f"{said}{why}\n".encode())

    def watch():
        while True:
            time.sleep(0.25)
            start, n = state["start"], state["n"]
            if start is None or n >= len(places):  # between cells, or otter's own last cell (its tests)
                continue
            late = time.monotonic() - start
            if late > cell_s and not state["cut"]:
                state["cut"] = True
                print(f"{said}{places[n]} se interrumpió a los {cell_s:.0f} s: no terminaba", file=sys.stderr)
                os.kill(os.getpid(), signal.SIGINT)
            elif late > cell_s + kill_s and state["start"] == start:
                try:
                    grade(places[n], late)
                finally:
                    os._exit(1)

    shell.events.register("pre_run_cell", pre)
    shell.events.register("post_run_cell", post)
    threading.Thread(target=watch, daemon=True, name="leccion06-limite").start()

'''


def _runs(cell) -> bool:
    """Whether otter's runner executes this cell (nbclient skips empty ones; otter drops its ignored ones)."""
    meta = cell.get("metadata", {})
    tags = meta.get("tags", [])
    return (cell.get("cell_type") == "code" and bool(str(cell.get("source", "")).strip())
            and "otter_ignore" not in tags and "skip-execution" not in tags
            and not (isinstance(meta.get("otter"), dict) and meta["otter"].get("ignore")))


def _points(test_file: str) -> float:
    """What an OK-format test of otter's bundle is worth (its ``points``)."""
    found = re.search(r"""['"]points['"]\s*:\s*([0-9.]+)""", Path(test_file).read_text(encoding="utf-8"))
    return float(found[1]) if found else 0.0


class TimeLimit:
    """calificar's time limit for otter's runner: ``cell_s`` per cell, ``kill_after_s`` more before the kernel is
    cut (plugin configuration). otter's plugin protocol (``otter.plugins.AbstractOtterPlugin``, which otter asks of
    no plugin): its constructor, and the events it has; this module imports no otter, so it loads anywhere."""

    def __init__(self, submission_path, submission_metadata, plugin_config):
        self.submission_path, self.submission_metadata = submission_path, submission_metadata
        self.plugin_config = plugin_config or {}

    def before_execution(self, submission):
        """The guard, as the notebook's first cell: otter's runner executes it before the student's cells."""
        if isinstance(submission, str):  # a .py submission: not one of ours
            return submission
        cfg = self.plugin_config
        cells = submission["cells"]
        roles = _roles(cells)
        places = [cell_place(submission, i, roles) for i, c in enumerate(cells) if _runs(c)]
        tests = {os.path.abspath(t): (os.path.splitext(os.path.basename(t))[0], _points(t))
                 for t in sorted(glob.glob("./tests/*.py"))}  # the runner works in the submission's folder
        results = os.path.abspath(os.path.join("..", "results", "results.json"))
        with open(os.path.join("..", "source", "otter_config.json"), encoding="utf-8") as f:
            otter_config = json.load(f)
        cell_s, kill_s = float(cfg.get("cell_s", CELL_TIMEOUT_S)), float(cfg.get("kill_after_s", KILL_AFTER_S))
        source = (f"{_GUARD}\n\n_leccion06_limite({cell_s!r}, {kill_s!r}, {places!r}, {tests!r}, {results!r}, "
                  f"{otter_config!r}, {_SAID!r})\ndel _leccion06_limite\n")
        import nbformat
        submission["cells"] = [nbformat.v4.new_code_cell(source), *cells]
        return submission

    def after_grading(self, results):
        """Say in the results which cells the guard interrupted (the notebook went on after them)."""
        said = [line[len(_SAID):] for cell in (results.notebook or {}).get("cells", [])
                for out in cell.get("outputs", []) if out.get("output_type") == "stream"
                for line in "".join(out.get("text", "")).splitlines() if line.startswith(_SAID)]
        if said:
            results.set_output("; ".join(said))
