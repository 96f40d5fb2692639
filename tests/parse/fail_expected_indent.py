def f():
# CHECK:STDERR: fail_expected_indent.py:[[@LINE+4]]:1: error: expected an indented block after function definition on line [[@LINE-1]] [expected-indent]
# CHECK:STDERR: return 1
# CHECK:STDERR: ^~~~~~
# CHECK:STDERR:
return 1
