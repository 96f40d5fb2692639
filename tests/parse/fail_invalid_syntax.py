x = 1
# CHECK:STDERR: fail_invalid_syntax.py:[[@LINE+4]]:5: error: invalid syntax [invalid-syntax]
# CHECK:STDERR: y = = 2
# CHECK:STDERR:     ^
# CHECK:STDERR:
y = = 2
