# CHECK:STDERR: fail_positional_after_keyword.py:[[@LINE+4]]:8: error: positional argument follows keyword argument [syntax-error]
# CHECK:STDERR: f(a=1, b)
# CHECK:STDERR:        ^
# CHECK:STDERR:
f(a=1, b)
