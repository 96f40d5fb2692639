"""Settings read by tests/check/sibling_module_objects.py as `config.NAME` (stumpy's
config.py does the same: module constants looked up in a dict of defaults)."""
import warnings

_DEFAULTS = {
    "THRESHOLD": 1e-14,
    "THREADS_PER_BLOCK": 512,
    "NAME": "pykc",
}

THRESHOLD = _DEFAULTS["THRESHOLD"]
THREADS_PER_BLOCK = _DEFAULTS["THREADS_PER_BLOCK"]


def _reset(var):
    # Host code: never pasted.
    warnings.warn(var)
    globals()[var] = _DEFAULTS[var]
