# ARGS: cache verify --help
"""`pykc cache verify --help`: --remote."""
# CHECK:STDOUT: Read every record and blob and check its digest. Prints each problem;
# CHECK:STDOUT: exits with 3 when there is any (0 with --fix once they are removed).
# CHECK:STDOUT: Files whose names are not entries are reported and never removed.
# CHECK:STDOUT: With --remote URL (which must have `|verify-key=PATH`), checks instead
# CHECK:STDOUT: that every record on that remote is signed by the key (Redis: every
# CHECK:STDOUT: pykc:ac:* key; HTTP, which cannot list: the records of the local
# CHECK:STDOUT: folder) and prints each record that is not.
# CHECK:STDOUT:   pykc cache verify --remote 'https://cache/pykc|verify-key=ci.pub'
# CHECK:STDOUT: Usage: pykc cache verify [OPTIONS]
# CHECK:STDOUT:
# CHECK:STDOUT: Options:
# CHECK:STDOUT:   -h,--help                   Print this help message and exit
# CHECK:STDOUT:   --fix                       Remove damaged entries and records whose blobs are gone
# CHECK:STDOUT:
