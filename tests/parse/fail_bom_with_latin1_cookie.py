# -*- coding: latin-1 -*-
x = 1
# CHECK:STDERR: fail_bom_with_latin1_cookie.py: error: encoding problem: iso-8859-1 with BOM [encoding-with-bom]
# CHECK:STDERR:
