# CHECK:STDERR: fail_assign_yield.py:[[@LINE+4]]:5: error: assignment to yield expression not possible [invalid-target]
# CHECK:STDERR: a = yield = 1
# CHECK:STDERR:     ^~~~~
# CHECK:STDERR:
a = yield = 1
