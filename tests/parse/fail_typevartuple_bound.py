"""A TypeVarTuple takes no bound: CPython 3.12's grammar (invalid_type_param) reports it at the colon."""


# CHECK:STDERR: fail_typevartuple_bound.py:[[@LINE+4]]:10: error: cannot use bound with TypeVarTuple [syntax-error]
# CHECK:STDERR: def f[*Ts: int]():
# CHECK:STDERR:          ^
# CHECK:STDERR:
def f[*Ts: int]():
    pass
