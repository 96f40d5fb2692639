# CHECK:STDERR: fail_unicode_escape.py:[[@LINE+4]]:5: error: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-18: unknown Unicode character name [syntax-error]
# CHECK:STDERR: x = '\N{NOT A REAL NAME}'
# CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK:STDERR:
x = '\N{NOT A REAL NAME}'
