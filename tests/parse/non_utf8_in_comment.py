x = 1  # café
