if x:
        y = 1
    # CHECK:STDERR: fail_unindent_mismatch.py:[[@LINE+4]]:10: error: unindent does not match any outer indentation level [inconsistent-dedent]
    # CHECK:STDERR:     z = 2
    # CHECK:STDERR:          ^
    # CHECK:STDERR:
    z = 2
