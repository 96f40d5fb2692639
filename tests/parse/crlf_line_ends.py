if x:
    y = 1
else:
    y = 2
