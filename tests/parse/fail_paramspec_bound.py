"""A ParamSpec takes no bound: CPython 3.12's grammar (invalid_type_param) reports it at the colon."""


# CHECK:STDERR: fail_paramspec_bound.py:[[@LINE+4]]:10: error: cannot use bound with ParamSpec [syntax-error]
# CHECK:STDERR: def f[**P: int]():
# CHECK:STDERR:          ^
# CHECK:STDERR:
def f[**P: int]():
    pass
