match x:
    # CHECK:STDERR: fail_complex_pattern.py:[[@LINE+4]]:14: error: imaginary number required in complex literal [syntax-error]
    # CHECK:STDERR:     case 1 + 1:
    # CHECK:STDERR:              ^
    # CHECK:STDERR:
    case 1 + 1:
        pass
