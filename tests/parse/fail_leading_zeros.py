# CHECK:STDERR: fail_leading_zeros.py:[[@LINE+4]]:5: error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers [invalid-number]
# CHECK:STDERR: x = 012
# CHECK:STDERR:     ^~~
# CHECK:STDERR:
x = 012
