x = 1
# CHECK:STDERR: fail_unterminated_string.py:[[@LINE+4]]:5: error: unterminated string literal (detected at line [[@LINE+4]]) [unterminated-string]
# CHECK:STDERR: s = 'abc
# CHECK:STDERR:     ^
# CHECK:STDERR:
s = 'abc
