"""numba.cuda.core under pykc: only its ``config``."""
from .. import config  # noqa: F401
