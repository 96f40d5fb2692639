try:
    pass
except* A:
    pass
# CHECK:STDERR: fail_except_star_mix.py:[[@LINE+4]]:1: error: cannot have both 'except' and 'except*' on the same 'try' [syntax-error]
# CHECK:STDERR: except B:
# CHECK:STDERR: ^~~~~~
# CHECK:STDERR:
except B:
    pass
