# CHECK:STDERR: fail_import_trailing_comma.py:[[@LINE+4]]:16: error: trailing comma not allowed without surrounding parentheses [syntax-error]
# CHECK:STDERR: from x import a,
# CHECK:STDERR:                ^
# CHECK:STDERR:
from x import a,
