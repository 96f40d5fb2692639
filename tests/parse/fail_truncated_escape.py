# CHECK:STDERR: fail_truncated_escape.py:[[@LINE+4]]:5: error: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-2: truncated \xXX escape [syntax-error]
# CHECK:STDERR: x = '\x4'
# CHECK:STDERR:     ^~~~~
# CHECK:STDERR:
x = '\x4'
