# CHECK:STDERR: fail_mix_bytes.py:[[@LINE+4]]:5: error: cannot mix bytes and nonbytes literals [syntax-error]
# CHECK:STDERR: x = b'a' 'b'
# CHECK:STDERR:     ^~~~~~~~
# CHECK:STDERR:
x = b'a' 'b'
