x = 1
# CHECK:STDERR: fail_unclosed_paren.py:[[@LINE+4]]:4: error: '(' was never closed [unclosed-bracket]
# CHECK:STDERR: foo(1,
# CHECK:STDERR:    ^
# CHECK:STDERR:
foo(1,
    2
