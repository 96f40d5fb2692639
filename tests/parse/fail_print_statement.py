# CHECK:STDERR: fail_print_statement.py:[[@LINE+4]]:1: error: Missing parentheses in call to 'print'. Did you mean print(...)? [syntax-error]
# CHECK:STDERR: print 'hello'
# CHECK:STDERR: ^~~~~~~~~~~~~
# CHECK:STDERR:
print 'hello'
