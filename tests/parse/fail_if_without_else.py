# CHECK:STDERR: fail_if_without_else.py:[[@LINE+4]]:5: error: expected 'else' after 'if' expression [expected-token]
# CHECK:STDERR: x = 1 if y
# CHECK:STDERR:     ^~~~~~
# CHECK:STDERR:
x = 1 if y
