# CHECK:STDERR: fail_starred_alone.py:[[@LINE+4]]:6: error: cannot use starred expression here [syntax-error]
# CHECK:STDERR: x = (*a)
# CHECK:STDERR:      ^~
# CHECK:STDERR:
x = (*a)
