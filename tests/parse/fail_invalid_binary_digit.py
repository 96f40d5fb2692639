# CHECK:STDERR: fail_invalid_binary_digit.py:[[@LINE+4]]:9: error: invalid digit '2' in binary literal [invalid-number]
# CHECK:STDERR: x = 0b102
# CHECK:STDERR:         ^
# CHECK:STDERR:
x = 0b102
