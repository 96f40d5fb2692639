match x:
    # CHECK:STDERR: fail_pattern_order.py:[[@LINE+4]]:17: error: positional patterns follow keyword patterns [syntax-error]
    # CHECK:STDERR:     case C(a=1, b):
    # CHECK:STDERR:                 ^
    # CHECK:STDERR:
    case C(a=1, b):
        pass
