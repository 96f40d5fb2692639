# CHECK:STDERR: fail_annotate_list.py:[[@LINE+4]]:1: error: only single target (not list) can be annotated [syntax-error]
# CHECK:STDERR: [a]: int
# CHECK:STDERR: ^~~
# CHECK:STDERR:
[a]: int
