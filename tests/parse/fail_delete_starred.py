# CHECK:STDERR: fail_delete_starred.py:[[@LINE+4]]:5: error: cannot delete starred [invalid-target]
# CHECK:STDERR: del *a
# CHECK:STDERR:     ^~
# CHECK:STDERR:
del *a
