# CHECK:STDERR: fail_kwarg_expression.py:[[@LINE+4]]:3: error: expression cannot contain assignment, perhaps you meant "=="? [syntax-error]
# CHECK:STDERR: f(a.b=1)
# CHECK:STDERR:   ^~~~
# CHECK:STDERR:
f(a.b=1)
