# CHECK:STDERR: fail_expected_colon.py:[[@LINE+4]]:8: error: expected ':' [expected-token]
# CHECK:STDERR: def f()
# CHECK:STDERR:        ^
# CHECK:STDERR:
def f()
    pass
