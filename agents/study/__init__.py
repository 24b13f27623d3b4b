"""The old name of ``savanna.studies``, kept for one release (each old name warns where it
went)."""
from savanna.lazy import lazy_names, moved_modules

_MODULES = ("balance", "calibrate", "charts", "coupled", "known", "luck", "plan", "ratings",
            "result", "run", "shape", "significance", "skill")

moved_modules(__name__, {"play": "savanna.studies.match_parts",
                         "settings": "savanna.studies.budgets",
                         **{name: f"savanna.studies.{name}" for name in _MODULES}})

__getattr__, __dir__ = lazy_names(globals(), {
    name: f"savanna.studies:{name}"
    for name in ("BUDGETS", "Study", "StudySettings", "run_study", "variant_labels")}, moved=True)
