# CHECK:STDERR: fail_positional_after_unpacking.py:[[@LINE+4]]:8: error: positional argument follows keyword argument unpacking [syntax-error]
# CHECK:STDERR: f(**k, b)
# CHECK:STDERR:        ^
# CHECK:STDERR:
f(**k, b)
