# CHECK:STDERR: fail_bare_star.py:[[@LINE+4]]:7: error: named arguments must follow bare * [syntax-error]
# CHECK:STDERR: def f(*): pass
# CHECK:STDERR:       ^
# CHECK:STDERR:
def f(*): pass
