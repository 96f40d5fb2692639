x = 1
y = 2
# CHECK:STDERR: fail_crlf_error_line.py:[[@LINE+4]]:5: error: unmatched ')' [unmatched-bracket]
# CHECK:STDERR: z = )
# CHECK:STDERR:     ^
# CHECK:STDERR:
z = )
