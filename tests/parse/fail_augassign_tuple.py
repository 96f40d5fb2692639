# CHECK:STDERR: fail_augassign_tuple.py:[[@LINE+4]]:1: error: 'tuple' is an illegal expression for augmented assignment [syntax-error]
# CHECK:STDERR: (a, b) += 1
# CHECK:STDERR: ^~~~~~
# CHECK:STDERR:
(a, b) += 1
