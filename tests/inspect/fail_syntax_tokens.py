# ARGS: --diag-kinds inspect %s --emit tokens,ast
"""A syntax error: the diagnostic, no tree, status 1."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def broken(x):
    # CHECK:STDERR: fail_syntax_tokens.py:[[@LINE+4]]:12: error: invalid syntax [invalid-syntax]
    # CHECK:STDERR:     x[0] = = 1
    # CHECK:STDERR:            ^
    # CHECK:STDERR:
    x[0] = = 1
# CHECK:STDOUT: 2,0-2,56:           STRING         '"""A syntax error: the diagnostic, no tree, status 1."""'
# CHECK:STDOUT: 2,56-2,57:          NEWLINE        '\n'
# CHECK:STDOUT: 3,0-3,4:            NAME           'from'
# CHECK:STDOUT: 3,5-3,10:           NAME           'numba'
# CHECK:STDOUT: 3,11-3,17:          NAME           'import'
# CHECK:STDOUT: 3,18-3,22:          NAME           'cuda'
# CHECK:STDOUT: 3,22-3,23:          NEWLINE        '\n'
# CHECK:STDOUT: 6,0-6,1:            OP             '@'
# CHECK:STDOUT: 6,1-6,5:            NAME           'cuda'
# CHECK:STDOUT: 6,5-6,6:            OP             '.'
# CHECK:STDOUT: 6,6-6,9:            NAME           'jit'
# CHECK:STDOUT: 6,9-6,10:           OP             '('
# CHECK:STDOUT: 6,10-6,30:          STRING         '"void(float32[::1])"'
# CHECK:STDOUT: 6,30-6,31:          OP             ')'
# CHECK:STDOUT: 6,31-6,32:          NEWLINE        '\n'
# CHECK:STDOUT: 7,0-7,3:            NAME           'def'
# CHECK:STDOUT: 7,4-7,10:           NAME           'broken'
# CHECK:STDOUT: 7,10-7,11:          OP             '('
# CHECK:STDOUT: 7,11-7,12:          NAME           'x'
# CHECK:STDOUT: 7,12-7,13:          OP             ')'
# CHECK:STDOUT: 7,13-7,14:          OP             ':'
# CHECK:STDOUT: 7,14-7,15:          NEWLINE        '\n'
# CHECK:STDOUT: 12,0-12,4:          INDENT         '    '
# CHECK:STDOUT: 12,4-12,5:          NAME           'x'
# CHECK:STDOUT: 12,5-12,6:          OP             '['
# CHECK:STDOUT: 12,6-12,7:          NUMBER         '0'
# CHECK:STDOUT: 12,7-12,8:          OP             ']'
# CHECK:STDOUT: 12,9-12,10:         OP             '='
# CHECK:STDOUT: 12,11-12,12:        OP             '='
# CHECK:STDOUT: 12,13-12,14:        NUMBER         '1'
# CHECK:STDOUT: 12,14-12,15:        NEWLINE        '\n'
# CHECK:STDOUT: 46,0-46,0:          DEDENT         ''
# CHECK:STDOUT: 46,0-46,0:          ENDMARKER      ''
