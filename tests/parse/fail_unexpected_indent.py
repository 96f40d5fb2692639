x = 1
    # CHECK:STDERR: fail_unexpected_indent.py:[[@LINE+4]]:5: error: unexpected indent [unexpected-indent]
    # CHECK:STDERR:     y = 2
    # CHECK:STDERR:     ^
    # CHECK:STDERR:
    y = 2
