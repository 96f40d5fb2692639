# CHECK:STDERR: fail_assign_call.py:[[@LINE+4]]:1: error: cannot assign to function call here. Maybe you meant '==' instead of '='? [invalid-target]
# CHECK:STDERR: f() = 1
# CHECK:STDERR: ^~~
# CHECK:STDERR:
f() = 1
