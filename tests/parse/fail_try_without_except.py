try:
    pass
# CHECK:STDERR: fail_try_without_except.py:[[@LINE+4]]:1: error: expected 'except' or 'finally' block [expected-token]
# CHECK:STDERR: x = 1
# CHECK:STDERR: ^
# CHECK:STDERR:
x = 1
