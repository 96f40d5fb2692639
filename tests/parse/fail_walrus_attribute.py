# CHECK:STDERR: fail_walrus_attribute.py:[[@LINE+4]]:2: error: cannot use assignment expressions with attribute [syntax-error]
# CHECK:STDERR: (a.b := 1)
# CHECK:STDERR:  ^~~
# CHECK:STDERR:
(a.b := 1)
