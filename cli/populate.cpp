#include "cli/populate.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>

#include "cli/command.h"
#include "cli/invocation.h"
#include "driver/compile_unit.h"
#include "driver/driver.h"
#include "driver/thread_budget.h"

namespace cli {

using namespace driver;

std::optional<std::vector<cache::RemoteSpec>> resolveRemotes(const std::vector<std::string>& flags,
                                                             bool noRemote, Invocation& inv) {
  std::vector<cache::RemoteSpec> out;
  std::string why;
  // --remote values are checked even when --no-remote or --no-cache drops them.
  if (!flags.empty()) {
    for (const std::string& flag : flags) {
      std::vector<std::string> items = cache::splitRemoteList(flag);
      if (items.empty()) {
        std::fprintf(inv.err, "pykc: error: --remote: an empty URL\n");
        return std::nullopt;
      }
      for (const std::string& item : items) {
        std::optional<cache::RemoteSpec> spec = cache::parseRemote(item, &why);
        if (!spec) {
          std::fprintf(inv.err, "pykc: error: --remote %s: %s\n", cache::redactRemote(item).c_str(), why.c_str());
          return std::nullopt;
        }
        out.push_back(std::move(*spec));
      }
    }
    if (noRemote) out.clear();
    return out;
  }
  if (noRemote) return out;
  const char* env = std::getenv("PYKC_REMOTE_STORAGE");
  if (!env) return out;
  for (const std::string& item : cache::splitRemoteList(env)) {
    std::optional<cache::RemoteSpec> spec = cache::parseRemote(item, &why);
    if (!spec) {
      if (inv.log) inv.log->warn("PYKC_REMOTE_STORAGE: `{}`: {}; left out", cache::redactRemote(item), why);
      continue;
    }
    out.push_back(std::move(*spec));
  }
  return out;
}

std::optional<Shard> parseShard(std::string_view text, std::string* why) {
  size_t slash = text.find('/');
  Shard shard;
  auto number = [](std::string_view t, unsigned& out) {
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return !t.empty() && ec == std::errc() && p == t.data() + t.size();
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), shard.index) ||
      !number(text.substr(slash + 1), shard.count)) {
    *why = "expected I/N, e.g. 2/4";
    return std::nullopt;
  }
  if (shard.count < 1 || shard.count > 100000 || shard.index < 1 || shard.index > shard.count) {
    *why = "expected 1 <= I <= N (N at most 100000)";
    return std::nullopt;
  }
  return shard;
}

namespace {

// One way to compile a file: its signatures and codegen flags.
struct SpecEntry {
  std::vector<std::string> sigs;
  // The command line's flags, with the spec's fields for the file applied.
  CodegenFlags codegen;
  // Values of tile kernels' Constant parameters, `NAME=VALUE` (docs/TILE.md).
  std::vector<std::string> consts;
};

constexpr const char* kSpecFields =
    "sigs, defines, consts, opt, use_fast_math, lineinfo, maxrregcount, link, include_dirs, "
    "nvrtc_options, lto, alias_versioning";

// Applies the spec object `object` (for `name`) to `entry`, which holds the
// command line's flags: lists are appended to the command line's, the rest
// replace its values. false (with `error`) when a field is unknown or of the
// wrong type or range.
bool applySpecObject(const nlohmann::json& object, const std::string& where, SpecEntry& entry,
                     std::string& error) {
  auto fail = [&](const std::string& field, const char* what) {
    error = where + ": `" + field + "` must be " + what;
    return false;
  };
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string& field = it.key();
    const nlohmann::json& value = *it;
    std::vector<std::string>* list = field == "sigs"            ? &entry.sigs
                                     : field == "consts"        ? &entry.consts
                                     : field == "defines"       ? &entry.codegen.defines
                                     : field == "link"          ? &entry.codegen.links
                                     : field == "include_dirs"  ? &entry.codegen.includeDirs
                                     : field == "nvrtc_options" ? &entry.codegen.nvrtcOptions
                                                                : nullptr;
    bool* flag = field == "use_fast_math" ? &entry.codegen.fastMath
                 : field == "lineinfo"    ? &entry.codegen.lineInfo
                 : field == "lto"         ? &entry.codegen.lto
                                          : nullptr;
    if (list) {
      if (!value.is_array()) return fail(field, "a list of strings");
      for (const nlohmann::json& item : value) {
        if (!item.is_string()) return fail(field, "a list of strings");
        list->push_back(item.get<std::string>());
      }
    } else if (flag) {
      if (!value.is_boolean()) return fail(field, "true or false");
      *flag = value.get<bool>();
    } else if (field == "opt") {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 0 ||
          value.get<std::int64_t>() > 3) {
        return fail(field, "an integer from 0 to 3");
      }
      entry.codegen.optLevel = value.get<int>();
    } else if (field == "alias_versioning") {
      // `false` is --no-alias-versioning.
      if (!value.is_boolean()) return fail(field, "true or false");
      entry.codegen.noAliasVersioning = !value.get<bool>();
    } else if (field == "maxrregcount") {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 0 ||
          value.get<std::int64_t>() > 255) {
        return fail(field, "an integer from 0 to 255");
      }
      entry.codegen.maxRegisters = value.get<int>();
    } else {
      error = where + ": unknown field `" + field + "` (known: " + kSpecFields + ")";
      return false;
    }
  }
  return true;
}

// Reads the --spec file: per file name, one entry or a list of them (the file
// is then compiled once per entry). false (with `error`) when unreadable or
// malformed.
bool loadSpec(const std::string& path, const CodegenFlags& commandLine,
              std::map<std::string, std::vector<SpecEntry>>& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read `" + path + "`";
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    error = "`" + path + "`: expected a JSON object: {\"file.py\": {\"sigs\": [...], \"defines\": [...]}}";
    return false;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string where = "`" + path + "`: `" + it.key() + "`";
    bool many = it->is_array();
    if (!it->is_object() && !(many && !it->empty())) {
      error = where + " must map to an object or a non-empty list of objects";
      return false;
    }
    std::vector<SpecEntry> entries;
    const nlohmann::json objects = many ? *it : nlohmann::json::array({*it});
    for (size_t k = 0; k < objects.size(); ++k) {
      std::string at = many ? where + "[" + std::to_string(k) + "]" : where;
      if (!objects[k].is_object()) {
        error = at + " must be an object";
        return false;
      }
      SpecEntry entry;
      entry.codegen = commandLine;
      if (!applySpecObject(objects[k], at, entry, error)) return false;
      entries.push_back(std::move(entry));
    }
    out.emplace(it.key(), std::move(entries));
  }
  return true;
}

enum class JobOutcome { Skipped, Hit, Compiled, SourceError, UsageError, EnvironmentError };

struct Job {
  std::string file;
  // Which of the file's spec entries (0 without a list).
  size_t variant = 0;
  std::string arch;
  const SpecEntry* spec = nullptr;
  JobOutcome outcome = JobOutcome::Skipped;
  // With Hit: a remote served it.
  bool remoteHit = false;
  // Rendered diagnostics and error lines, printed after the run.
  std::string messages;
};

// The outcome of one compile of a job (the whole file, or one instance).
JobOutcome outcomeOf(const Job& job, const driver::CompileRequest& request,
                     const driver::CompileResult& result, std::string& messages, bool& remote) {
  switch (result.exit) {
    case driver::ExitClass::Ok:
      if (!result.archs.empty() && !result.archs[0].remote.empty()) remote = true;
      return result.kernelCount == 0   ? JobOutcome::Skipped
             : result.archs[0].cacheHit ? JobOutcome::Hit
                                        : JobOutcome::Compiled;
    case driver::ExitClass::SourceErrors:
      messages += result.rendered;
      return JobOutcome::SourceError;
    case driver::ExitClass::Usage:
      messages += result.rendered;
      return JobOutcome::UsageError;
    case driver::ExitClass::Environment:
      if (!result.checked) {
        messages += result.rendered;
        return JobOutcome::EnvironmentError;
      }
      // After the front end: name the job the failure belongs to.
      for (const frontend::Diagnostic& d : result.diagnostics) {
        messages += frontend::renderDiagnostic(d, request.render);
      }
      for (const std::string& e : result.errors) {
        messages += "pykc: error: " + job.file + " for " + job.arch + ": " + e + "\n";
      }
      return JobOutcome::EnvironmentError;
  }
  return JobOutcome::EnvironmentError;
}

void runJob(Job& job, driver::Session& session, bool perInstance) {
  driver::CompileRequest request;
  request.path = job.file;
  request.archs = {job.arch};
  // Exactly what `pykc compile` makes of the same flags.
  request.codegen = job.spec->codegen;
  request.sigs = job.spec->sigs;
  request.consts = job.spec->consts;
  request.warnFloat64 = false;
  request.wantPtx = true;
  request.shareHits = true;
  request.skipEmpty = true;
  if (!perInstance) {
    job.outcome = outcomeOf(job, request, driver::compile(request, session), job.messages,
                            job.remoteHit);
    return;
  }
  // One unit per kernel instance: the instances first (the front end only).
  driver::CompileRequest list = request;
  list.stopAfter = driver::Stage::Check;
  driver::CompileResult instances = driver::compile(list, session);
  if (instances.exit != driver::ExitClass::Ok || instances.kernelCount == 0) {
    job.outcome = outcomeOf(job, list, instances, job.messages, job.remoteHit);
    return;
  }
  // Hit when every instance hit; the worst failure wins.
  job.outcome = JobOutcome::Hit;
  for (const driver::InstanceOutput& instance : instances.instances) {
    driver::CompileRequest one = request;
    one.instanceSymbols = {instance.symbol};
    JobOutcome o = outcomeOf(job, one, driver::compile(one, session), job.messages, job.remoteHit);
    if (static_cast<int>(o) > static_cast<int>(job.outcome)) job.outcome = o;
  }
}

}  // namespace

int runPopulate(Invocation& inv, cache::Store& store, const PopulateOptions& options) {
  auto start = std::chrono::steady_clock::now();
  std::vector<std::string> archs;
  if (std::optional<std::string> why = uniqueArchs(options.archs, archs)) {
    std::fprintf(inv.err, "pykc: error: %s\n", why->c_str());
    return kExitUsage;
  }
  if (std::optional<std::string> why = checkCodegenFlags(options.codegen)) {
    std::fprintf(inv.err, "pykc: error: %s\n", why->c_str());
    return kExitUsage;
  }
  std::map<std::string, std::vector<SpecEntry>> spec;
  if (!options.specFile.empty()) {
    std::string error;
    if (!loadSpec(options.specFile, options.codegen, spec, error)) {
      std::fprintf(inv.err, "pykc: error: --spec %s\n", error.c_str());
      return kExitUsage;
    }
  }
  namespace fs = std::filesystem;
  // The files: each PATH's .py files in sorted order, no file twice.
  std::vector<std::pair<std::string, std::string>> files;  // (file, the PATH it came from)
  for (const std::string& root : options.paths) {
    std::error_code ec;
    fs::file_status status = fs::status(root, ec);
    if (ec || !fs::exists(status)) {
      std::fprintf(inv.err, "pykc: error: `%s`: no such file or folder\n", root.c_str());
      return kExitEnvironment;
    }
    std::vector<std::string> found;
    if (fs::is_directory(status)) {
      fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
      for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code typeError;
        if (it->is_regular_file(typeError) && it->path().extension() == ".py") {
          found.push_back(it->path().string());
        }
      }
      if (ec) {
        std::fprintf(inv.err, "pykc: error: cannot list `%s`: %s\n", root.c_str(),
                     ec.message().c_str());
        return kExitEnvironment;
      }
      std::sort(found.begin(), found.end());
    } else {
      found.push_back(root);
    }
    for (std::string& f : found) {
      bool seen = std::any_of(files.begin(), files.end(), [&](const auto& p) { return p.first == f; });
      if (!seen) files.emplace_back(std::move(f), root);
    }
  }
  // The spec entry of a file: by the path as found, relative to the spec
  // file's folder, or by its name.
  fs::path specDir = fs::path(options.specFile).parent_path();
  // Files the spec does not name: the command line's flags.
  const std::vector<SpecEntry> commandLine{SpecEntry{{}, options.codegen, {}}};
  auto specFor = [&](const std::string& file) -> const std::vector<SpecEntry>& {
    std::vector<std::string> names{file};
    std::error_code ec;
    fs::path relative = fs::relative(file, specDir.empty() ? fs::path(".") : specDir, ec);
    if (!ec && !relative.empty()) names.push_back(relative.generic_string());
    names.push_back(fs::path(file).filename().string());
    for (const std::string& n : names) {
      if (auto it = spec.find(n); it != spec.end()) return it->second;
    }
    return commandLine;
  };
  std::vector<Job> all;
  for (const auto& [file, root] : files) {
    const std::vector<SpecEntry>& entries = specFor(file);
    for (size_t variant = 0; variant < entries.size(); ++variant) {
      for (const std::string& arch : archs) {
        Job job;
        job.file = file;
        job.variant = variant;
        job.arch = arch;
        job.spec = &entries[variant];
        all.push_back(std::move(job));
      }
    }
  }
  // The shard: ranks in the list sorted by (file, spec entry, arch), so that
  // every machine of a CI matrix, given the same paths, splits it the same way.
  std::vector<size_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(all[a].file, all[a].variant, all[a].arch) <
           std::tie(all[b].file, all[b].variant, all[b].arch);
  });
  std::vector<bool> mine(all.size());
  for (size_t rank = 0; rank < order.size(); ++rank) {
    mine[order[rank]] = rank % options.shard.count == options.shard.index - 1;
  }
  std::vector<Job> jobs;
  for (size_t i = 0; i < all.size(); ++i) {
    if (mine[i]) jobs.push_back(std::move(all[i]));
  }

  unsigned workers = options.jobs > 0 ? static_cast<unsigned>(options.jobs)
                                      : std::max(1u, std::thread::hardware_concurrency());
  workers = std::max<unsigned>(1, std::min<unsigned>(workers, static_cast<unsigned>(jobs.size())));
  std::atomic<size_t> next{0};
  std::mutex progressMutex;
  size_t done = 0;
  bool bar = isatty(fileno(inv.err)) != 0;
  auto progress = [&] {
    std::lock_guard<std::mutex> lock(progressMutex);
    ++done;
    if (!bar) return;
    constexpr size_t kWidth = 30;
    size_t filled = jobs.empty() ? kWidth : done * kWidth / jobs.size();
    std::fprintf(inv.err, "\r[%s%s] %zu/%zu", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, ' ').c_str(), done, jobs.size());
    std::fflush(inv.err);
  };
  // One budget for the whole command: each worker holds one thread of it;
  // one that runs out of jobs gives its thread back, for the kernel
  // partitions of the compiles still running.
  driver::SessionSettings settings;
  settings.threads = options.jobs > 0 ? static_cast<unsigned>(options.jobs) : 0;
  settings.log = logSink(inv);
  settings.store = &store;
  driver::Session session(std::move(settings));
  ThreadBudget& threadBudget = session.threads();
  unsigned spawned = threadBudget.acquire(workers - 1);
  auto work = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      runJob(jobs[i], session, options.perInstance);
      progress();
    }
    threadBudget.release(1);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < spawned; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  if (bar) std::fprintf(inv.err, "\r\033[K");

  size_t counted = 0, hits = 0, remoteHits = 0, compiled = 0, failed = 0;
  bool environment = false, usage = false;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Job& job = jobs[i];
    // A file's source errors are the same for every arch: print them once.
    bool repeated = i > 0 && jobs[i - 1].file == job.file && jobs[i - 1].messages == job.messages;
    if (!repeated) std::fwrite(job.messages.data(), 1, job.messages.size(), inv.err);
    switch (job.outcome) {
      case JobOutcome::Skipped:
        continue;
      case JobOutcome::Hit:
        ++hits;
        if (job.remoteHit) ++remoteHits;
        break;
      case JobOutcome::Compiled:
        ++compiled;
        break;
      case JobOutcome::SourceError:
        ++failed;
        break;
      case JobOutcome::UsageError:
        ++failed;
        usage = true;
        break;
      case JobOutcome::EnvironmentError:
        ++failed;
        environment = true;
        break;
    }
    ++counted;
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string shard;
  if (options.shard.count > 1) {
    shard = "shard " + std::to_string(options.shard.index) + "/" +
            std::to_string(options.shard.count) + ": ";
  }
  std::string remote;
  if (!store.options().remotes.empty()) remote = " (" + std::to_string(remoteHits) + " remote)";
  std::fprintf(inv.out, "populate: %s%zu jobs, %zu hits%s, %zu compiled, %zu failed, %.2f s\n",
               shard.c_str(), counted, hits, remote.c_str(), compiled, failed, seconds);
  if (failed == 0) return kExitOk;
  if (environment) return kExitEnvironment;
  return usage ? kExitUsage : kExitSourceErrors;
}

}  // namespace cli
