x = 1
# CHECK:STDERR: fail_unterminated_triple.py:[[@LINE+4]]:5: error: unterminated triple-quoted string literal (detected at line [[@LINE+5]]) [unterminated-triple-quoted]
# CHECK:STDERR: s = '''abc
# CHECK:STDERR:     ^
# CHECK:STDERR:
s = '''abc
def
