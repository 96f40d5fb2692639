# CHECK:STDERR: fail_invalid_hex.py:[[@LINE+4]]:5: error: invalid hexadecimal literal [invalid-number]
# CHECK:STDERR: x = 0xg
# CHECK:STDERR:     ^~~
# CHECK:STDERR:
x = 0xg
