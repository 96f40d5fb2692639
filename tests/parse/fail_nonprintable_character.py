# CHECK:STDERR: fail_nonprintable_character.py:[[@LINE+4]]:6: error: invalid non-printable character U+00A0 [invalid-character]
# CHECK:STDERR: x = 1 + 2
# CHECK:STDERR:      ^
# CHECK:STDERR:
x = 1 + 2
