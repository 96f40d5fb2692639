# CHECK:STDERR: fail_delete_call.py:[[@LINE+4]]:5: error: cannot delete function call [invalid-target]
# CHECK:STDERR: del f()
# CHECK:STDERR:     ^~~
# CHECK:STDERR:
del f()
