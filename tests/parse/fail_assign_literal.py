# CHECK:STDERR: fail_assign_literal.py:[[@LINE+4]]:5: error: cannot assign to literal [invalid-target]
# CHECK:STDERR: x = 5 = y
# CHECK:STDERR:     ^
# CHECK:STDERR:
x = 5 = y
