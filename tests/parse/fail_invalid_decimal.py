# CHECK:STDERR: fail_invalid_decimal.py:[[@LINE+4]]:5: error: invalid decimal literal [invalid-number]
# CHECK:STDERR: x = 1abc
# CHECK:STDERR:     ^~
# CHECK:STDERR:
x = 1abc
