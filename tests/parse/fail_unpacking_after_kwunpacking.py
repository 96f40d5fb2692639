# CHECK:STDERR: fail_unpacking_after_kwunpacking.py:[[@LINE+4]]:8: error: iterable argument unpacking follows keyword argument unpacking [syntax-error]
# CHECK:STDERR: f(**a, *b)
# CHECK:STDERR:        ^~
# CHECK:STDERR:
f(**a, *b)
