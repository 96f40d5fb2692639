x = 1
# CHECK:STDERR: fail_non_utf8.py:[[@LINE+4]]:5: error: (unicode error) 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte [invalid-encoding]
# CHECK:STDERR: y = '?'
# CHECK:STDERR:     ^
# CHECK:STDERR:
y = 'ÿ'
