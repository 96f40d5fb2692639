if x:
        y = 1
	# CHECK:STDERR: fail_tabs_inconsistent.py:[[@LINE+4]]:1: error: inconsistent use of tabs and spaces in indentation [inconsistent-tabs]
	# CHECK:STDERR: 	z = 2
	# CHECK:STDERR: ^
	# CHECK:STDERR:
	z = 2
