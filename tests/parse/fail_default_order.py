# CHECK:STDERR: fail_default_order.py:[[@LINE+4]]:12: error: parameter without a default follows parameter with a default [syntax-error]
# CHECK:STDERR: def f(a=1, b): pass
# CHECK:STDERR:            ^
# CHECK:STDERR:
def f(a=1, b): pass
