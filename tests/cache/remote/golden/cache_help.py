# ARGS: cache --help
"""`pykc cache --help`: remote URLs, attributes, credentials, keygen and verify --remote."""
# CHECK:STDOUT: Manage the kernel cache.
# CHECK:STDOUT:
# CHECK:STDOUT: The cache lives in --cache-dir, else $PYKC_CACHE_DIR, else
# CHECK:STDOUT: $XDG_CACHE_HOME/pykc, else ~/.cache/pykc. Its size limit is --max-size,
# CHECK:STDOUT: else $PYKC_CACHE_MAXSIZE, else 2G (K, M, G, T are powers of 1024; 0 means
# CHECK:STDOUT: no limit); least recently used entries go first. See docs/CACHE.md.
# CHECK:STDOUT:
# CHECK:STDOUT: Examples:
# CHECK:STDOUT:   pykc cache stats                  what is in the cache, hit counts
# CHECK:STDOUT:   pykc cache ls                     one line per entry, newest first
# CHECK:STDOUT:   pykc cache verify --fix           check every digest, drop damaged entries
# CHECK:STDOUT:   pykc cache gc --max-size 500M     shrink the cache to 500 MiB
# CHECK:STDOUT:   pykc cache export ci-cache.pykc   the whole cache as one file (CI artifact)
# CHECK:STDOUT:   pykc cache import ci-cache.pykc   add that file's entries to this cache
# CHECK:STDOUT:
# CHECK:STDOUT: Remote storage (populate; `pykc compile` too): --remote URL, repeatable,
# CHECK:STDOUT: else $PYKC_REMOTE_STORAGE (URLs separated by spaces):
# CHECK:STDOUT:   http[s]://HOST[:PORT][/PREFIX]  GET/PUT PREFIX/ac/KEY and PREFIX/cas/DIGEST
# CHECK:STDOUT:                                   (nginx WebDAV, bazel-remote, S3 gateways)
# CHECK:STDOUT:   redis[s]://HOST[:PORT][/DB]     GET/SET pykc:ac:KEY and pykc:cas:DIGEST
# CHECK:STDOUT: each followed by optional |ATTRIBUTE items: read-write (remotes are only
# CHECK:STDOUT: read unless marked so), connect-timeout=MS (500), operation-timeout=MS
# CHECK:STDOUT: (5000), layout=bazel (HTTP: blobs under ac/), ca-file=PATH,
# CHECK:STDOUT: client-cert=PATH, client-key=PATH (TLS; certificates are always
# CHECK:STDOUT: verified), netrc=PATH (`machine HOST login USER password PASS`: basic
# CHECK:STDOUT: auth, Redis ACL), header-file=PATH (HTTP `Name: value` lines),
# CHECK:STDOUT: signing-key=PATH (sign records on upload), verify-key=PATH (use only
# CHECK:STDOUT: records signed by that key). Secrets come from files or from
# CHECK:STDOUT: $PYKC_REMOTE_TOKEN (bearer token, Redis password), $PYKC_REMOTE_NETRC,
# CHECK:STDOUT: never from the URL, and are never printed.
# CHECK:STDOUT: A local miss asks the remotes in order; what they send is verified by
# CHECK:STDOUT: digest (and signature) and copied into the folder. A remote that fails is
# CHECK:STDOUT: skipped for the rest of the process; a remote never fails a compile.
# CHECK:STDOUT:   pykc cache populate kernels/ --arch sm_90 --shard 2/4 \
# CHECK:STDOUT:       --remote 'https://cache:8443/pykc|read-write|signing-key=ci.key'
# CHECK:STDOUT:   pykc cache keygen ci             write ci.key and ci.pub
# CHECK:STDOUT:   pykc cache verify --remote 'redis://cache|verify-key=ci.pub'
# CHECK:STDOUT: Usage: pykc cache [OPTIONS] SUBCOMMAND
# CHECK:STDOUT:
# CHECK:STDOUT: Options:
# CHECK:STDOUT:   -h,--help                   Print this help message and exit
# CHECK:STDOUT:   --cache-dir TEXT            The cache folder (overrides $PYKC_CACHE_DIR and the defaults)
# CHECK:STDOUT:   --remote TEXT ...           Remote storage URL for populate (repeatable; overrides
# CHECK:STDOUT:                               $PYKC_REMOTE_STORAGE); see above
# CHECK:STDOUT:   --no-remote                 Use no remote storage (ignore $PYKC_REMOTE_STORAGE)
# CHECK:STDOUT:
# CHECK:STDOUT: Subcommands:
# CHECK:STDOUT:   populate                    Compile every kernel x signature of every .py file under PATHS (folders
# CHECK:STDOUT:                               recursively, in sorted order) for each --arch into the cache, as
# CHECK:STDOUT:                               `pykc compile FILE --arch ARCH` with the same -O, --use-fast-math,
# CHECK:STDOUT:                               --maxrregcount, --lineinfo, -D, --link, -I, --nvrtc-option and --lto
# CHECK:STDOUT:                               would, so that those compiles then hit. Files without kernels are
# CHECK:STDOUT:                               skipped. Untyped kernels take signatures from --spec, a JSON file that
# CHECK:STDOUT:                               may also set any of those options per file (lists add to the command
# CHECK:STDOUT:                               line's, the rest replace them; a list of objects compiles the file once
# CHECK:STDOUT:                               per object):
# CHECK:STDOUT:                                 {"kernels/axpy.py": {"sigs": ["axpy(float32[::1])"], "defines": ["N=4"],
# CHECK:STDOUT:                                                      "opt": 2, "use_fast_math": true, "link": ["ops.cu"]}}
# CHECK:STDOUT:                               Fields: sigs, defines, opt, use_fast_math, lineinfo, maxrregcount, link,
# CHECK:STDOUT:                               include_dirs, nvrtc_options, lto (paths as on the command line). Keys:
# CHECK:STDOUT:                               the path as found, or relative to the spec file's folder, or the file
# CHECK:STDOUT:                               name. A progress bar on a terminal, then one summary line.
# CHECK:STDOUT:                               Exit 1 when a file has source errors, 3 on environment failures.
# CHECK:STDOUT:                               --shard I/N takes every N-th job, from the I-th on, of the whole list
# CHECK:STDOUT:                               sorted by (file, spec entry, arch): N machines of a CI matrix run
# CHECK:STDOUT:                               1/N ... N/N with the same PATHS and --remote, and together fill the
# CHECK:STDOUT:                               remote. See docs/CACHE.md.
# CHECK:STDOUT:                                 pykc cache populate kernels/ --arch sm_80,sm_90 -j 2
# CHECK:STDOUT:   stats                       Print the cache folder, its entries and size, and the hit, miss, write,
# CHECK:STDOUT:                               eviction and error counters (kept in <cache>/stats).
# CHECK:STDOUT:                                 pykc cache stats --json
# CHECK:STDOUT:   ls                          List the entries, most recently used first: key, size (record and
# CHECK:STDOUT:                               blobs), last use (UTC), output names. `!` after the size marks an
# CHECK:STDOUT:                               entry with missing blobs (it will miss; gc removes it).
# CHECK:STDOUT:   show                        Print one entry: its key, last use and each output's name, size and
# CHECK:STDOUT:                               BLAKE3 digest. KEY may be abbreviated to a unique prefix (4+ hex digits).
# CHECK:STDOUT:                                 pykc cache show 3fa9c1
# CHECK:STDOUT:   verify                      Read every record and blob and check its digest. Prints each problem;
# CHECK:STDOUT:                               exits with 3 when there is any (0 with --fix once they are removed).
# CHECK:STDOUT:                               Files whose names are not entries are reported and never removed.
# CHECK:STDOUT:                               With --remote URL (which must have `|verify-key=PATH`), checks instead
# CHECK:STDOUT:                               that every record on that remote is signed by the key (Redis: every
# CHECK:STDOUT:                               pykc:ac:* key; HTTP, which cannot list: the records of the local
# CHECK:STDOUT:                               folder) and prints each record that is not.
# CHECK:STDOUT:                                 pykc cache verify --remote 'https://cache/pykc|verify-key=ci.pub'
# CHECK:STDOUT:   keygen                      Make an Ed25519 key pair for signing remote records: PREFIX.key (the
# CHECK:STDOUT:                               secret, mode 0600: `|signing-key=PREFIX.key` on the builders' remote)
# CHECK:STDOUT:                               and PREFIX.pub (`|verify-key=PREFIX.pub` on every reader's). Never
# CHECK:STDOUT:                               overwrites. See docs/CACHE.md, "Trusted writers".
# CHECK:STDOUT:                                 pykc cache keygen ci-signing
# CHECK:STDOUT:   gc                          Evict least recently used entries until the cache fits in 90% of the
# CHECK:STDOUT:                               size limit; also removes damaged records, leftover temp files and
# CHECK:STDOUT:                               blobs no entry needs.
# CHECK:STDOUT:                                 pykc cache gc --max-size 1G
# CHECK:STDOUT:   clear                       Remove every entry (files that are not entries are left alone)
# CHECK:STDOUT:   export                      Write every intact entry into one archive file, for instance to keep a
# CHECK:STDOUT:                               CI job's cache as an artifact. Same entries, same bytes.
# CHECK:STDOUT:                                 pykc cache export build/kernel-cache.pykc
# CHECK:STDOUT:   import                      Add the entries of an archive written by `pykc cache export`. The whole
# CHECK:STDOUT:                               archive is verified first; if any byte is wrong nothing is imported.
# CHECK:STDOUT:                                 pykc cache import build/kernel-cache.pykc
# CHECK:STDOUT:
