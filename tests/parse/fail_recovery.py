def f(x):
    # CHECK:STDERR: fail_recovery.py:[[@LINE+4]]:8: error: invalid syntax. Maybe you meant '==' or ':=' instead of '='? [invalid-syntax]
    # CHECK:STDERR:     if x = 1:
    # CHECK:STDERR:        ^~~~~
    # CHECK:STDERR:
    if x = 1:
        return 2
    else:
        return 3

class C:
    # CHECK:STDERR: fail_recovery.py:[[@LINE+4]]:16: error: expected ':' [expected-token]
    # CHECK:STDERR:     def m(self)
    # CHECK:STDERR:                ^
    # CHECK:STDERR:
    def m(self)
        pass
    def n(self):
        # CHECK:STDERR: fail_recovery.py:[[@LINE+4]]:24: error: invalid syntax [invalid-syntax]
        # CHECK:STDERR:         return self.x +
        # CHECK:STDERR:                        ^
        # CHECK:STDERR:
        return self.x +

print("ok")
# CHECK:STDERR: fail_recovery.py:[[@LINE+4]]:19: error: expected ':' [expected-token]
# CHECK:STDERR: for i in range(3) print(i)
# CHECK:STDERR:                   ^~~~~
# CHECK:STDERR:
for i in range(3) print(i)
# CHECK:STDERR: fail_recovery.py:[[@LINE+4]]:5: error: '[' was never closed [unclosed-bracket]
# CHECK:STDERR: x = [1, 2
# CHECK:STDERR:     ^
# CHECK:STDERR:
x = [1, 2
y = 3
