# CHECK:STDERR: fail_fstring_empty_expression.py:[[@LINE+4]]:8: error: f-string: valid expression required before '}' [fstring-error]
# CHECK:STDERR: x = f'{}'
# CHECK:STDERR:        ^
# CHECK:STDERR:
x = f'{}'
