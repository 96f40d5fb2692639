// `pykc cache`: manage the content-addressed kernel cache (docs/CACHE.md).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "cache/store.h"
#include "driver/codegen_flags.h"
#include "cli/codegen_options.h"
#include "cli/cache_trust.h"
#include "cli/command.h"
#include "cli/populate.h"
#include "driver/compile_unit.h"
#include "cli/invocation.h"

namespace cli {

using namespace driver;
namespace {

constexpr const char* kCacheHelp =
    "Manage the kernel cache.\n"
    "\n"
    "The cache lives in --cache-dir, else $PYKC_CACHE_DIR, else\n"
    "$XDG_CACHE_HOME/pykc, else ~/.cache/pykc. Its size limit is --max-size,\n"
    "else $PYKC_CACHE_MAXSIZE, else 2G (K, M, G, T are powers of 1024; 0 means\n"
    "no limit); least recently used entries go first. See docs/CACHE.md.\n"
    "\n"
    "Examples:\n"
    "  pykc cache stats                  what is in the cache, hit counts\n"
    "  pykc cache ls                     one line per entry, newest first\n"
    "  pykc cache verify --fix           check every digest, drop damaged entries\n"
    "  pykc cache gc --max-size 500M     shrink the cache to 500 MiB\n"
    "  pykc cache export ci-cache.pykc   the whole cache as one file (CI artifact)\n"
    "  pykc cache import ci-cache.pykc   add that file's entries to this cache\n"
    "\n"
    "Remote storage (populate; `pykc compile` too): --remote URL, repeatable,\n"
    "else $PYKC_REMOTE_STORAGE (URLs separated by spaces):\n"
    "  http[s]://HOST[:PORT][/PREFIX]  GET/PUT PREFIX/ac/KEY and PREFIX/cas/DIGEST\n"
    "                                  (nginx WebDAV, bazel-remote, S3 gateways)\n"
    "  redis[s]://HOST[:PORT][/DB]     GET/SET pykc:ac:KEY and pykc:cas:DIGEST\n"
    "each followed by optional |ATTRIBUTE items: read-write (remotes are only\n"
    "read unless marked so), connect-timeout=MS (500), operation-timeout=MS\n"
    "(5000), layout=bazel (HTTP: blobs under ac/), ca-file=PATH,\n"
    "client-cert=PATH, client-key=PATH (TLS; certificates are always\n"
    "verified), netrc=PATH (`machine HOST login USER password PASS`: basic\n"
    "auth, Redis ACL), header-file=PATH (HTTP `Name: value` lines),\n"
    "signing-key=PATH (sign records on upload), verify-key=PATH (use only\n"
    "records signed by that key). Secrets come from files or from\n"
    "$PYKC_REMOTE_TOKEN (bearer token, Redis password), $PYKC_REMOTE_NETRC,\n"
    "never from the URL, and are never printed.\n"
    "A local miss asks the remotes in order; what they send is verified by\n"
    "digest (and signature) and copied into the folder. A remote that fails is\n"
    "skipped for the rest of the process; a remote never fails a compile.\n"
    "  pykc cache populate kernels/ --arch sm_90 --shard 2/4 \\\n"
    "      --remote 'https://cache:8443/pykc|read-write|signing-key=ci.key'\n"
    "  pykc cache keygen ci             write ci.key and ci.pub\n"
    "  pykc cache verify --remote 'redis://cache|verify-key=ci.pub'";

std::optional<std::string> lookupEnv(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (!value) return std::nullopt;
  return std::string(value);
}

// `1 entry`, `2 entries`.
std::string count(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string isoTime(std::int64_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

class CacheCommand final : public Command {
public:
  explicit CacheCommand(CLI::App& app) {
    CLI::App* sub = app.add_subcommand("cache", kCacheHelp);
    sub->require_subcommand(1);
    sub->add_option("--cache-dir", cacheDir_,
                    "The cache folder (overrides $PYKC_CACHE_DIR and the defaults)");
    sub->add_option("--remote", remotes_,
                    "Remote storage URL for populate (repeatable; overrides\n"
                    "$PYKC_REMOTE_STORAGE); see above")
        // One URL per --remote (not every argument after it: PATHS may follow).
        ->allow_extra_args(false);
    sub->add_flag("--no-remote", noRemote_, "Use no remote storage (ignore $PYKC_REMOTE_STORAGE)");

    populate_ = sub->add_subcommand(
        "populate",
        "Compile every kernel x signature of every .py file under PATHS (folders\n"
        "recursively, in sorted order) for each --arch into the cache, as\n"
        "`pykc compile FILE --arch ARCH` with the same -O, --use-fast-math,\n"
        "--maxrregcount, --lineinfo, -D, --link, -I, --nvrtc-option and --lto\n"
        "would, so that those compiles then hit. Files without kernels are\n"
        "skipped. Untyped kernels take signatures from --spec, a JSON file that\n"
        "may also set any of those options per file (lists add to the command\n"
        "line's, the rest replace them; a list of objects compiles the file once\n"
        "per object):\n"
        "  {\"kernels/axpy.py\": {\"sigs\": [\"axpy(float32[::1])\"], \"defines\": [\"N=4\"],\n"
        "                       \"opt\": 2, \"use_fast_math\": true, \"link\": [\"ops.cu\"]}}\n"
        "Fields: sigs, defines, opt, use_fast_math, lineinfo, maxrregcount, link,\n"
        "include_dirs, nvrtc_options, lto (paths as on the command line). Keys:\n"
        "the path as found, or relative to the spec file's folder, or the file\n"
        "name. A progress bar on a terminal, then one summary line.\n"
        "Exit 1 when a file has source errors, 3 on environment failures.\n"
        "--shard I/N takes every N-th job, from the I-th on, of the whole list\n"
        "sorted by (file, spec entry, arch): N machines of a CI matrix run\n"
        "1/N ... N/N with the same PATHS and --remote, and together fill the\n"
        "remote. See docs/CACHE.md.\n"
        "  pykc cache populate kernels/ --arch sm_80,sm_90 -j 2");
    populate_->add_option("PATHS", paths_, "Files or folders")->required();
    populate_->add_option("--arch", archs_, "GPU architectures, comma separated")
        ->delimiter(',')
        ->required();
    populate_->add_option("--spec", spec_, "JSON file: signatures and codegen options per file");
    populate_->add_flag("--per-instance", perInstance_,
                        "One cache entry per kernel instance (kernel x signature x Constants)\n"
                        "instead of one per file: the entries that `pykc compile --kernel K\n"
                        "--sig ...`, the C API and the JIT ask for one kernel at a time");
    populate_->add_option("-j,--jobs", jobs_, "Parallel jobs (default: hardware threads)")
        ->check(CLI::Range(0, 1024));
    populate_->add_option("--shard", shard_, "Only shard I of N (1 <= I <= N), e.g. 2/4");
    // The same codegen options as `pykc compile`, for every file.
    addCodegenFlags(*populate_, codegen_);

    stats_ = sub->add_subcommand(
        "stats",
        "Print the cache folder, its entries and size, and the hit, miss, write,\n"
        "eviction and error counters (kept in <cache>/stats).\n"
        "  pykc cache stats --json");
    stats_->add_flag("--json", json_, "Print one JSON object");
    stats_->add_flag("--zero", zero_, "Reset the counters to zero afterwards");

    ls_ = sub->add_subcommand(
        "ls",
        "List the entries, most recently used first: key, size (record and\n"
        "blobs), last use (UTC), output names. `!` after the size marks an\n"
        "entry with missing blobs (it will miss; gc removes it).");
    ls_->add_flag("--json", json_, "Print a JSON array");

    show_ = sub->add_subcommand(
        "show",
        "Print one entry: its key, last use and each output's name, size and\n"
        "BLAKE3 digest. KEY may be abbreviated to a unique prefix (4+ hex digits).\n"
        "  pykc cache show 3fa9c1");
    show_->add_option("KEY", key_, "The action key or a unique prefix of it")->required();

    verify_ = sub->add_subcommand(
        "verify",
        "Read every record and blob and check its digest. Prints each problem;\n"
        "exits with 3 when there is any (0 with --fix once they are removed).\n"
        "Files whose names are not entries are reported and never removed.\n"
        "With --remote URL (which must have `|verify-key=PATH`), checks instead\n"
        "that every record on that remote is signed by the key (Redis: every\n"
        "pykc:ac:* key; HTTP, which cannot list: the records of the local\n"
        "folder) and prints each record that is not.\n"
        "  pykc cache verify --remote 'https://cache/pykc|verify-key=ci.pub'");
    verify_->add_flag("--fix", fix_, "Remove damaged entries and records whose blobs are gone");

    keygen_ = sub->add_subcommand(
        "keygen",
        "Make an Ed25519 key pair for signing remote records: PREFIX.key (the\n"
        "secret, mode 0600: `|signing-key=PREFIX.key` on the builders' remote)\n"
        "and PREFIX.pub (`|verify-key=PREFIX.pub` on every reader's). Never\n"
        "overwrites. See docs/CACHE.md, \"Trusted writers\".\n"
        "  pykc cache keygen ci-signing");
    keygen_->add_option("PREFIX", file_, "Path of the key files, without .key/.pub")->required();

    gc_ = sub->add_subcommand(
        "gc",
        "Evict least recently used entries until the cache fits in 90% of the\n"
        "size limit; also removes damaged records, leftover temp files and\n"
        "blobs no entry needs.\n"
        "  pykc cache gc --max-size 1G");
    gc_->add_option("--max-size", maxSize_,
                    "Size limit, e.g. 500M or 2G (default: $PYKC_CACHE_MAXSIZE, else 2G)");

    clear_ = sub->add_subcommand(
        "clear", "Remove every entry (files that are not entries are left alone)");

    export_ = sub->add_subcommand(
        "export",
        "Write every intact entry into one archive file, for instance to keep a\n"
        "CI job's cache as an artifact. Same entries, same bytes.\n"
        "  pykc cache export build/kernel-cache.pykc");
    export_->add_option("FILE", file_, "The archive to write")->required();

    import_ = sub->add_subcommand(
        "import",
        "Add the entries of an archive written by `pykc cache export`. The whole\n"
        "archive is verified first; if any byte is wrong nothing is imported.\n"
        "  pykc cache import build/kernel-cache.pykc");
    import_->add_option("FILE", file_, "The archive to read")->required();

    for (CLI::App* s : {populate_, stats_, ls_, show_, verify_, keygen_, gc_, clear_, export_, import_}) {
      // `pykc cache stats --cache-dir X` works as well as `pykc cache --cache-dir X stats`.
      s->fallthrough();
    }
  }

  int run(Invocation& inv) override {
    if (populate_->parsed()) {
      PopulateOptions populate;
      if (!shard_.empty()) {
        std::string why;
        std::optional<Shard> shard = parseShard(shard_, &why);
        if (!shard) {
          std::fprintf(inv.err, "pykc: error: --shard %s: %s\n", shard_.c_str(), why.c_str());
          return kExitUsage;
        }
        populate.shard = *shard;
      }
      std::optional<std::vector<cache::RemoteSpec>> remotes =
          resolveRemotes(remotes_, noRemote_, inv);
      if (!remotes) return kExitUsage;
      std::optional<cache::StoreOptions> options =
          cacheStoreOptions(cacheDir_, logSink(inv), std::move(*remotes));
      if (!options) {
        std::fprintf(inv.err,
                     "pykc: error: no cache folder: set PYKC_CACHE_DIR or HOME, or pass "
                     "--cache-dir\n");
        return kExitEnvironment;
      }
      populate.paths = paths_;
      populate.archs = archs_;
      populate.specFile = spec_;
      populate.codegen = withEnvironmentPythonPath(codegen_);
      populate.jobs = jobs_;
      populate.perInstance = perInstance_;
      cache::Store store(std::move(*options));
      return runPopulate(inv, store, populate);
    }
    if (keygen_->parsed()) return runKeygen(inv, file_);
    std::optional<std::string> dir =
        cacheDir_.empty() ? cache::resolveCacheDir(lookupEnv) : std::optional(cacheDir_);
    if (!dir) {
      std::fprintf(inv.err,
                   "pykc: error: no cache folder: set PYKC_CACHE_DIR or HOME, or pass "
                   "--cache-dir\n");
      return kExitEnvironment;
    }
    std::uint64_t maxSize = cache::kDefaultMaxSize;
    std::string sizeText = maxSize_;
    std::string sizeSource = "--max-size";
    if (sizeText.empty()) {
      sizeText = lookupEnv("PYKC_CACHE_MAXSIZE").value_or("");
      sizeSource = "PYKC_CACHE_MAXSIZE";
    }
    if (!sizeText.empty()) {
      std::optional<std::uint64_t> parsed = cache::parseSize(sizeText);
      if (!parsed) {
        std::fprintf(inv.err,
                     "pykc: error: %s: `%s` is not a size (examples: 500M, 2G, 0 for no "
                     "limit)\n",
                     sizeSource.c_str(), sizeText.c_str());
        return kExitUsage;
      }
      maxSize = *parsed;
    }

    cache::StoreOptions options;
    options.root = *dir;
    options.maxSize = maxSize;
    std::shared_ptr<spdlog::logger> log = inv.log;
    options.log = [log](cache::LogLevel level, std::string_view message) {
      if (!log) return;
      spdlog::level::level_enum l = level == cache::LogLevel::Warning ? spdlog::level::warn
                                    : level == cache::LogLevel::Info  ? spdlog::level::info
                                                                      : spdlog::level::debug;
      log->log(l, "{}", message);
    };
    cache::Store store(std::move(options));

    if (stats_->parsed()) return runStats(inv, store);
    if (ls_->parsed()) return runLs(inv, store);
    if (show_->parsed()) return runShow(inv, store);
    if (verify_->parsed() && !remotes_.empty()) {
      std::optional<std::vector<cache::RemoteSpec>> remotes = resolveRemotes(remotes_, false, inv);
      if (!remotes) return kExitUsage;
      return runVerifyRemote(inv, store, *remotes);
    }
    if (verify_->parsed()) return runVerify(inv, store);
    if (gc_->parsed()) return runGc(inv, store);
    if (clear_->parsed()) return runClear(inv, store);
    if (export_->parsed()) return runExport(inv, store);
    if (import_->parsed()) return runImport(inv, store);
    return kExitUsage;
  }

private:
  int runStats(Invocation& inv, cache::Store& store) {
    cache::Usage usage = store.usage();
    cache::Counters c = store.counters();
    // A remote hit is a hit: the compile was saved.
    std::uint64_t lookups = c.hits + c.remoteHits + c.misses;
    if (json_) {
      nlohmann::ordered_json j;
      j["cache_dir"] = store.root();
      j["records"] = usage.records;
      j["blobs"] = usage.blobs;
      j["bytes"] = usage.bytes;
      j["max_size"] = store.options().maxSize;
      j["hits"] = c.hits;
      j["misses"] = c.misses;
      j["writes"] = c.writes;
      j["evictions"] = c.evictions;
      j["errors"] = c.errors;
      j["remote_hits"] = c.remoteHits;
      j["remote_misses"] = c.remoteMisses;
      j["remote_errors"] = c.remoteErrors;
      j["remote_writes"] = c.remoteWrites;
      j["temp_files"] = usage.tempFiles;
      j["foreign_files"] = usage.foreignFiles;
      std::fprintf(inv.out, "%s\n", j.dump(2).c_str());
    } else {
      std::string limit = store.options().maxSize == 0
                              ? std::string("no limit")
                              : "limit " + cache::formatSize(store.options().maxSize);
      std::fprintf(inv.out, "cache directory  %s\n", store.root().c_str());
      std::fprintf(inv.out, "entries          %llu (%llu blobs)\n",
                   static_cast<unsigned long long>(usage.records),
                   static_cast<unsigned long long>(usage.blobs));
      std::fprintf(inv.out, "size             %s (%s)\n", cache::formatSize(usage.bytes).c_str(),
                   limit.c_str());
      auto line = [&](const char* name, std::uint64_t v) {
        std::fprintf(inv.out, "%-17s%llu\n", name, static_cast<unsigned long long>(v));
      };
      line("hits", c.hits);
      bool remote = c.remoteHits || c.remoteMisses || c.remoteErrors || c.remoteWrites;
      if (remote) line("remote hits", c.remoteHits);
      line("misses", c.misses);
      if (lookups != 0) {
        std::fprintf(inv.out, "hit rate         %.1f%%\n",
                     100.0 * static_cast<double>(c.hits + c.remoteHits) /
                         static_cast<double>(lookups));
      }
      line("writes", c.writes);
      line("evictions", c.evictions);
      line("errors", c.errors);
      if (remote) {
        line("remote misses", c.remoteMisses);
        line("remote errors", c.remoteErrors);
        line("remote writes", c.remoteWrites);
      }
      if (usage.tempFiles) line("temp files", usage.tempFiles);
      if (usage.foreignFiles) line("foreign files", usage.foreignFiles);
    }
    if (zero_ && !store.zeroStats()) {
      std::fprintf(inv.err, "pykc: error: cannot reset the counters in `%s`\n",
                   store.root().c_str());
      return kExitEnvironment;
    }
    return kExitOk;
  }

  int runLs(Invocation& inv, cache::Store& store) {
    std::vector<cache::EntryInfo> entries = store.list();
    if (json_) {
      nlohmann::ordered_json j = nlohmann::ordered_json::array();
      for (const cache::EntryInfo& e : entries) {
        nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
        for (const cache::OutputRef& o : e.outputs) {
          outputs.push_back({{"name", o.name}, {"size", o.size}, {"digest", o.digest.hex()}});
        }
        j.push_back({{"key", e.key.hex()},
                     {"bytes", e.bytes},
                     {"last_use", isoTime(e.lastUse)},
                     {"complete", e.missingBlobs == 0},
                     {"outputs", outputs}});
      }
      std::fprintf(inv.out, "%s\n", j.dump(2).c_str());
      return kExitOk;
    }
    for (const cache::EntryInfo& e : entries) {
      std::string names;
      for (const cache::OutputRef& o : e.outputs) {
        if (!names.empty()) names += ", ";
        names += o.name;
      }
      std::fprintf(inv.out, "%s  %10s%s  %s  %s\n", e.key.hex().c_str(),
                   cache::formatSize(e.bytes).c_str(), e.missingBlobs ? "!" : " ",
                   isoTime(e.lastUse).c_str(), names.c_str());
    }
    return kExitOk;
  }

  int runShow(Invocation& inv, cache::Store& store) {
    std::string why;
    std::optional<cache::EntryInfo> e = store.find(key_, &why);
    if (!e) {
      std::fprintf(inv.err, "pykc: error: %s\n", why.c_str());
      return kExitEnvironment;
    }
    std::fprintf(inv.out, "key       %s\n", e->key.hex().c_str());
    std::fprintf(inv.out, "last use  %s\n", isoTime(e->lastUse).c_str());
    std::fprintf(inv.out, "size      %s\n", cache::formatSize(e->bytes).c_str());
    std::fprintf(inv.out, "outputs   %zu\n", e->outputs.size());
    for (const cache::OutputRef& o : e->outputs) {
      std::optional<std::string> blob = store.getBlob(o.digest);
      const char* state = !blob ? "  (missing or damaged)" : "";
      std::fprintf(inv.out, "  %-20s %10s  blake3 %s%s\n", o.name.c_str(),
                   cache::formatSize(o.size).c_str(), o.digest.hex().c_str(), state);
    }
    return kExitOk;
  }

  int runVerify(Invocation& inv, cache::Store& store) {
    cache::VerifyReport r = store.verify(fix_);
    for (const std::string& p : r.problems) std::fprintf(inv.out, "%s\n", p.c_str());
    std::fprintf(inv.out, "checked %llu intact records and %llu intact blobs",
                 static_cast<unsigned long long>(r.recordsOk),
                 static_cast<unsigned long long>(r.blobsOk));
    if (r.orphanBlobs) {
      std::fprintf(inv.out, " (%llu not used by any record)",
                   static_cast<unsigned long long>(r.orphanBlobs));
    }
    if (r.problems.empty()) {
      std::fprintf(inv.out, ": no problems\n");
      return kExitOk;
    }
    std::fprintf(inv.out, ": %zu problems", r.problems.size());
    if (fix_) {
      std::fprintf(inv.out, ", %llu entries removed\n", static_cast<unsigned long long>(r.removed));
      return kExitOk;
    }
    std::fprintf(inv.out, "\n");
    std::fprintf(inv.err,
                 "pykc: error: the cache has problems; `pykc cache verify --fix` removes the "
                 "damaged entries\n");
    return kExitEnvironment;
  }

  int runGc(Invocation& inv, cache::Store& store) {
    cache::GcReport r = store.gc(store.options().maxSize, /*lockTimeoutMs=*/10000);
    if (!r.ran) {
      std::fprintf(inv.err,
                   "pykc: error: another `pykc` has been collecting garbage in `%s` for 10 s; "
                   "try again later\n",
                   store.root().c_str());
      return kExitEnvironment;
    }
    std::string limit = store.options().maxSize == 0
                            ? std::string("no limit")
                            : "limit " + cache::formatSize(store.options().maxSize);
    std::fprintf(inv.out, "evicted %s (%s), removed %s\n",
                 count(r.recordsEvicted, "entry", "entries").c_str(),
                 count(r.blobsRemoved, "blob", "blobs").c_str(),
                 count(r.junkRemoved, "damaged or stale file", "damaged or stale files").c_str());
    std::fprintf(inv.out, "size %s -> %s (%s)\n", cache::formatSize(r.bytesBefore).c_str(),
                 cache::formatSize(r.bytesAfter).c_str(), limit.c_str());
    return kExitOk;
  }

  int runClear(Invocation& inv, cache::Store& store) {
    cache::ClearReport r = store.clear();
    std::fprintf(inv.out, "removed %s from %s\n", count(r.filesRemoved, "file", "files").c_str(),
                 store.root().c_str());
    if (r.failures) {
      std::fprintf(inv.err, "pykc: error: %llu files could not be removed\n",
                   static_cast<unsigned long long>(r.failures));
      return kExitEnvironment;
    }
    return kExitOk;
  }

  int runExport(Invocation& inv, cache::Store& store) {
    cache::ArchiveReport r = store.exportArchive(file_);
    if (!r.ok) {
      std::fprintf(inv.err, "pykc: error: %s\n", r.error.c_str());
      return kExitEnvironment;
    }
    std::fprintf(inv.out, "exported %s and %s (%s) to %s\n",
                 count(r.records, "entry", "entries").c_str(),
                 count(r.blobs, "blob", "blobs").c_str(), cache::formatSize(r.bytes).c_str(),
                 file_.c_str());
    if (r.skipped) {
      std::fprintf(inv.out, "skipped %llu damaged or incomplete entries\n",
                   static_cast<unsigned long long>(r.skipped));
    }
    return kExitOk;
  }

  int runImport(Invocation& inv, cache::Store& store) {
    cache::ArchiveReport r = store.importArchive(file_);
    if (!r.ok) {
      std::fprintf(inv.err, "pykc: error: %s\n", r.error.c_str());
      return kExitEnvironment;
    }
    std::fprintf(inv.out, "imported %s and %s (%s) into %s\n",
                 count(r.records, "entry", "entries").c_str(),
                 count(r.blobs, "blob", "blobs").c_str(), cache::formatSize(r.bytes).c_str(),
                 store.root().c_str());
    return kExitOk;
  }

  CLI::App* populate_ = nullptr;
  CLI::App* stats_ = nullptr;
  CLI::App* ls_ = nullptr;
  CLI::App* show_ = nullptr;
  CLI::App* verify_ = nullptr;
  CLI::App* keygen_ = nullptr;
  CLI::App* gc_ = nullptr;
  CLI::App* clear_ = nullptr;
  CLI::App* export_ = nullptr;
  CLI::App* import_ = nullptr;

  std::string cacheDir_;
  std::string maxSize_;
  std::string key_;
  std::string file_;
  bool json_ = false;
  bool zero_ = false;
  bool fix_ = false;
  std::vector<std::string> paths_;
  std::vector<std::string> archs_;
  std::string spec_;
  int jobs_ = 0;
  bool perInstance_ = false;
  std::string shard_;
  CodegenFlags codegen_;
  std::vector<std::string> remotes_;
  bool noRemote_ = false;
};

}  // namespace

std::unique_ptr<Command> addCacheCommand(CLI::App& app) {
  return std::make_unique<CacheCommand>(app);
}

}  // namespace cli
