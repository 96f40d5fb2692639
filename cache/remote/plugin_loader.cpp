// Finds and opens a remote plugin (cache/remote/plugin.h).
#include <dlfcn.h>

#include <string>
#include <vector>

#include "cache/remote/plugin.h"

namespace cache::remote {

const PluginApi* loadPlugin(RemoteProtocol protocol, std::string* error) {
  std::string file = pluginFile(protocol);
  std::vector<std::string> candidates;
  // Beside the object holding this code: bin/pykc finds ../lib/, and
  // lib/libpykc.so its own folder.
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&loadPlugin), &info) != 0 && info.dli_fname) {
    std::string self = info.dli_fname;
    size_t slash = self.rfind('/');
    std::string dir = slash == std::string::npos ? "." : self.substr(0, slash);
    candidates.push_back(dir + "/../lib/" + file);
    candidates.push_back(dir + "/" + file);
  }
#ifdef PYKC_REMOTE_PLUGIN_DIR
  candidates.push_back(std::string(PYKC_REMOTE_PLUGIN_DIR) + "/" + file);
#endif
  std::string failures;
  for (const std::string& candidate : candidates) {
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) {
      const char* why = ::dlerror();
      // Not there: try the next place quietly.
      if (why && std::string(why).find("No such file") != std::string::npos) continue;
      failures += std::string("; ") + (why ? why : candidate);
      continue;
    }
    ::dlerror();
    auto entry = reinterpret_cast<const PluginApi* (*)()>(::dlsym(handle, kPluginEntry));
    const PluginApi* api = entry ? entry() : nullptr;
    if (api && api->abi == kPluginAbi && api->specSize == sizeof(RemoteSpec)) return api;
    failures += "; " + candidate + " is of another pykc build";
  }
  *error = "remote storage needs " + file + ", which is not usable" +
           (failures.empty() ? std::string(" (not found beside pykc)") : failures);
  return nullptr;
}

}  // namespace cache::remote
