# CHECK:STDERR: fail_line_continuation.py:[[@LINE+4]]:10: error: unexpected character after line continuation character [line-continuation]
# CHECK:STDERR: x = 1 + \ 2
# CHECK:STDERR:          ^
# CHECK:STDERR:
x = 1 + \ 2
