# CHECK:STDERR: fail_genexp_parenthesized.py:[[@LINE+4]]:3: error: Generator expression must be parenthesized [syntax-error]
# CHECK:STDERR: f(x for x in y, 1)
# CHECK:STDERR:   ^~~~~~~~~~~~
# CHECK:STDERR:
f(x for x in y, 1)
