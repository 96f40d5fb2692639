# CHECK:STDERR: fail_bytes_nonascii.py:[[@LINE+4]]:5: error: bytes can only contain ASCII literal characters [syntax-error]
# CHECK:STDERR: x = b'café'
# CHECK:STDERR:     ^~~~~~~
# CHECK:STDERR:
x = b'café'
