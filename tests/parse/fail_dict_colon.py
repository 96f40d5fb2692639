# CHECK:STDERR: fail_dict_colon.py:[[@LINE+4]]:12: error: ':' expected after dictionary key [syntax-error]
# CHECK:STDERR: d = {1: 2, 3}
# CHECK:STDERR:            ^
# CHECK:STDERR:
d = {1: 2, 3}
