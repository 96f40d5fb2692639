# CHECK:STDERR: fail_invalid_character.py:[[@LINE+4]]:7: error: invalid character '€' (U+20AC) [invalid-character]
# CHECK:STDERR: x = 1 € 2
# CHECK:STDERR:       ^
# CHECK:STDERR:
x = 1 € 2
