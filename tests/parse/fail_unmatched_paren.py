# CHECK:STDERR: fail_unmatched_paren.py:[[@LINE+4]]:6: error: unmatched ')' [unmatched-bracket]
# CHECK:STDERR: x = 1)
# CHECK:STDERR:      ^
# CHECK:STDERR:
x = 1)
