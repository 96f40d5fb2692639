"""Put on PYTHONPATH by ``python -m pykc run`` so that the program's child interpreters
(multiprocessing's spawn, torch.multiprocessing, subprocesses of Python) map ``numba`` and
``cuda.tile`` to pykc as the parent does."""
import os

if os.environ.get("PYKC_RUN") == "1":
    try:
        import pykc
        pykc.install()
    except Exception:  # noqa: BLE001  (a child that cannot import pykc runs without it)
        pass
