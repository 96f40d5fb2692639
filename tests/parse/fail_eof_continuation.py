# CHECK:STDERR: fail_eof_continuation.py:[[@LINE+4]]:9: error: unexpected EOF while parsing [unexpected-eof]
# CHECK:STDERR: x = 1 + \
# CHECK:STDERR:         ^
# CHECK:STDERR:
x = 1 + \
