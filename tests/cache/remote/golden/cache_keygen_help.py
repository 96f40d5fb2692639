# ARGS: cache keygen --help
"""`pykc cache keygen --help`."""
# CHECK:STDOUT: Make an Ed25519 key pair for signing remote records: PREFIX.key (the
# CHECK:STDOUT: secret, mode 0600: `|signing-key=PREFIX.key` on the builders' remote)
# CHECK:STDOUT: and PREFIX.pub (`|verify-key=PREFIX.pub` on every reader's). Never
# CHECK:STDOUT: overwrites. See docs/CACHE.md, "Trusted writers".
# CHECK:STDOUT:   pykc cache keygen ci-signing
# CHECK:STDOUT: Usage: pykc cache keygen [OPTIONS] PREFIX
# CHECK:STDOUT:
# CHECK:STDOUT: Positionals:
# CHECK:STDOUT:   PREFIX TEXT REQUIRED        Path of the key files, without .key/.pub
# CHECK:STDOUT:
# CHECK:STDOUT: Options:
# CHECK:STDOUT:   -h,--help                   Print this help message and exit
# CHECK:STDOUT:
