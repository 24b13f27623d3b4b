"""Settings declared once: a dataclass field carries its default and a one-line doc, from which
the command line (``savanna_experiments.arguments``) generates the flag, its parser and its help."""
import copy
from dataclasses import field

__all__ = ["setting"]


def setting(default, doc):
    """A dataclass field with ``default`` (a dict or list is copied for every instance) and
    ``doc``, read back as ``dataclasses.fields(cls)[i].metadata["doc"]``."""
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: copy.deepcopy(default), metadata={"doc": doc})
    return field(default=default, metadata={"doc": doc})
