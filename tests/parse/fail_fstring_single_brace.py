# CHECK:STDERR: fail_fstring_single_brace.py:[[@LINE+4]]:8: error: f-string: single '}' is not allowed [fstring-error]
# CHECK:STDERR: x = f'a}b'
# CHECK:STDERR:        ^
# CHECK:STDERR:
x = f'a}b'
