# ARGS: --diag-kinds inspect %s::scale --emit tokens
"""`--emit tokens` of one kernel: only its lines, as `python -m tokenize`."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: 6,0-6,1:            OP             '@'
# CHECK:STDOUT: 6,1-6,5:            NAME           'cuda'
# CHECK:STDOUT: 6,5-6,6:            OP             '.'
# CHECK:STDOUT: 6,6-6,9:            NAME           'jit'
# CHECK:STDOUT: 6,9-6,10:           OP             '('
# CHECK:STDOUT: 6,10-6,39:          STRING         '"void(float32[::1], float32)"'
# CHECK:STDOUT: 6,39-6,40:          OP             ')'
# CHECK:STDOUT: 6,40-6,41:          NEWLINE        '\n'
# CHECK:STDOUT: 7,0-7,3:            NAME           'def'
# CHECK:STDOUT: 7,4-7,9:            NAME           'scale'
# CHECK:STDOUT: 7,9-7,10:           OP             '('
# CHECK:STDOUT: 7,10-7,11:          NAME           'x'
# CHECK:STDOUT: 7,11-7,12:          OP             ','
# CHECK:STDOUT: 7,13-7,14:          NAME           'a'
# CHECK:STDOUT: 7,14-7,15:          OP             ')'
# CHECK:STDOUT: 7,15-7,16:          OP             ':'
# CHECK:STDOUT: 7,16-7,17:          NEWLINE        '\n'
# CHECK:STDOUT: 8,0-8,4:            INDENT         '    '
# CHECK:STDOUT: 8,4-8,5:            NAME           'i'
# CHECK:STDOUT: 8,6-8,7:            OP             '='
# CHECK:STDOUT: 8,8-8,12:           NAME           'cuda'
# CHECK:STDOUT: 8,12-8,13:          OP             '.'
# CHECK:STDOUT: 8,13-8,17:          NAME           'grid'
# CHECK:STDOUT: 8,17-8,18:          OP             '('
# CHECK:STDOUT: 8,18-8,19:          NUMBER         '1'
# CHECK:STDOUT: 8,19-8,20:          OP             ')'
# CHECK:STDOUT: 8,20-8,21:          NEWLINE        '\n'
# CHECK:STDOUT: 9,4-9,6:            NAME           'if'
# CHECK:STDOUT: 9,7-9,8:            NAME           'i'
# CHECK:STDOUT: 9,9-9,10:           OP             '<'
# CHECK:STDOUT: 9,11-9,12:          NAME           'x'
# CHECK:STDOUT: 9,12-9,13:          OP             '.'
# CHECK:STDOUT: 9,13-9,17:          NAME           'size'
# CHECK:STDOUT: 9,17-9,18:          OP             ':'
# CHECK:STDOUT: 9,18-9,19:          NEWLINE        '\n'
# CHECK:STDOUT: 10,0-10,8:          INDENT         '        '
# CHECK:STDOUT: 10,8-10,9:          NAME           'x'
# CHECK:STDOUT: 10,9-10,10:         OP             '['
# CHECK:STDOUT: 10,10-10,11:        NAME           'i'
# CHECK:STDOUT: 10,11-10,12:        OP             ']'
# CHECK:STDOUT: 10,13-10,14:        OP             '='
# CHECK:STDOUT: 10,15-10,16:        NAME           'x'
# CHECK:STDOUT: 10,16-10,17:        OP             '['
# CHECK:STDOUT: 10,17-10,18:        NAME           'i'
# CHECK:STDOUT: 10,18-10,19:        OP             ']'
# CHECK:STDOUT: 10,20-10,21:        OP             '*'
# CHECK:STDOUT: 10,22-10,23:        NAME           'a'
# CHECK:STDOUT: 10,23-10,24:        NEWLINE        '\n'
