# -*- coding: klingon -*-
x = 1
# CHECK:STDERR: fail_cookie_unknown.py: error: unknown encoding: klingon [unknown-encoding]
# CHECK:STDERR:
