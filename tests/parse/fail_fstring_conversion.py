# CHECK:STDERR: fail_fstring_conversion.py:[[@LINE+4]]:10: error: f-string: invalid conversion character 'z': expected 's', 'r', or 'a' [fstring-error]
# CHECK:STDERR: x = f'{x!z}'
# CHECK:STDERR:          ^
# CHECK:STDERR:
x = f'{x!z}'
