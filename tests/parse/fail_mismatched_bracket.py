x = [1,
     # CHECK:STDERR: fail_mismatched_bracket.py:[[@LINE+4]]:7: error: closing parenthesis ')' does not match opening parenthesis '[' on line [[@LINE-1]] [mismatched-bracket]
     # CHECK:STDERR:      2)
     # CHECK:STDERR:       ^
     # CHECK:STDERR:
     2)
