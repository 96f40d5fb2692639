# ARGS: cache verify --remote redis://127.0.0.1:1/0
# EXIT: 2
"""`pykc cache verify --remote` without a key to check against."""
# CHECK:STDERR: pykc: error: --remote redis://127.0.0.1:1/0: `pykc cache verify --remote` needs the public key: add `|verify-key=PATH`
