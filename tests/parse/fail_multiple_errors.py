def ok():
    return 1

# CHECK:STDERR: fail_multiple_errors.py:[[@LINE+4]]:5: error: invalid syntax [invalid-syntax]
# CHECK:STDERR: x = = 1
# CHECK:STDERR:     ^
# CHECK:STDERR:
x = = 1

# CHECK:STDERR: fail_multiple_errors.py:[[@LINE+4]]:12: error: invalid syntax [invalid-syntax]
# CHECK:STDERR: def g() -> :
# CHECK:STDERR:            ^
# CHECK:STDERR:
def g() -> :
    pass

# CHECK:STDERR: fail_multiple_errors.py:[[@LINE+4]]:5: error: expected ':' [expected-token]
# CHECK:STDERR: if y
# CHECK:STDERR:     ^
# CHECK:STDERR:
if y
    z = 2
else:
    z = 3

y = (1 +
     # CHECK:STDERR: fail_multiple_errors.py:[[@LINE+4]]:8: error: unmatched ')' [unmatched-bracket]
     # CHECK:STDERR:      2))
     # CHECK:STDERR:        ^
     # CHECK:STDERR:
     2))
