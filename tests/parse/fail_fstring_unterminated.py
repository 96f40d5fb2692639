# CHECK:STDERR: fail_fstring_unterminated.py:[[@LINE+4]]:5: error: unterminated f-string literal (detected at line [[@LINE+4]]) [unterminated-fstring]
# CHECK:STDERR: x = f'abc
# CHECK:STDERR:     ^
# CHECK:STDERR:
x = f'abc
