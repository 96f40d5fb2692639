// The remote tiers behind the local store: a local miss asks each usable
// remote in order and writes a verified entry back; a put (or share) uploads
// blobs, then the record, to each usable read-write remote. A remote fault is
// counted and logged, never returned.
#include "cache/store.h"

#include <algorithm>
#include <set>

#include "cache/store_internal.h"

namespace cache {

using namespace detail;

std::string describeSignature(RecordSignature signature) {
  switch (signature) {
    case RecordSignature::Unsigned:
      return "it is not signed";
    case RecordSignature::Bad:
      return "its signature does not verify";
    case RecordSignature::OtherKey:
      return "it is signed by another key";
    case RecordSignature::Good:
      break;
  }
  return "its signature is good";
}

void Store::remoteFault(Remote& remote, const std::string& message) {
  ++remoteErrors_;
  log(LogLevel::Info, "cache: remote " + remote.spec().text + ": " + message);
}

std::optional<std::vector<NamedOutput>> Store::getRemote(Remote& remote, const Key& key) {
  auto failed = [&](const RemoteFetch& f, const std::string& what) {
    remoteFault(remote, what + ": " + f.error + "; not used again by this process");
  };
  RecordSignature signature = RecordSignature::Unsigned;
  RemoteFetch recordFetch = remote.get(RemoteObject::Record, key.digest, kMaxRecordFileBytes, &signature);
  if (recordFetch.status == RemoteFetch::Status::Failed) {
    failed(recordFetch, "record " + key.hex());
    return std::nullopt;
  }
  if (recordFetch.status == RemoteFetch::Status::Missing) {
    ++remoteMisses_;
    log(LogLevel::Debug, "cache: remote " + remote.spec().text + ": miss " + key.hex());
    return std::nullopt;
  }
  // With a key, nothing unverified is used (docs/CACHE.md, "Trusted writers").
  if (remote.requiresSignature() && signature != RecordSignature::Good) {
    remoteFault(remote, "record " + key.hex() + " ignored: " + describeSignature(signature));
    return std::nullopt;
  }
  std::string why;
  std::optional<ActionRecord> record = decodeRecord(recordFetch.bytes, key, &why);
  if (!record) {
    remoteFault(remote, "damaged record " + key.hex() + " ignored: " + why);
    return std::nullopt;
  }
  // A record is trusted for nothing: what it asks us to download is bounded.
  std::uint64_t total = 0;
  for (const OutputRef& ref : record->outputs) total += std::min(ref.size, kMaxBlobFileBytes);
  if (total > kMaxBlobFileBytes) {
    remoteFault(remote, "record " + key.hex() + " ignored: its outputs claim " +
                            formatSize(total));
    return std::nullopt;
  }
  // Every blob verified (a local copy, or fetched and checked) before any
  // byte is used or written back. The missing ones are asked for at once.
  std::vector<std::optional<std::string>> contents(record->outputs.size());
  std::vector<size_t> wanted;
  std::vector<Digest> digests;
  std::vector<std::uint64_t> limits;
  for (size_t i = 0; i < record->outputs.size(); ++i) {
    const OutputRef& ref = record->outputs[i];
    if (std::optional<std::string> local = getBlob(ref.digest); local && local->size() == ref.size) {
      contents[i] = std::move(*local);
      continue;
    }
    wanted.push_back(i);
    digests.push_back(ref.digest);
    limits.push_back(std::min(kMaxBlobFileBytes, ref.size + kEntryHeaderBytes));
  }
  std::vector<RemoteFetch> blobs = remote.getMany(RemoteObject::Blob, digests, limits);
  std::vector<std::pair<Digest, std::string>> fetched;
  for (size_t k = 0; k < wanted.size(); ++k) {
    const OutputRef& ref = record->outputs[wanted[k]];
    RemoteFetch& blob = blobs[k];
    if (blob.status == RemoteFetch::Status::Failed) {
      failed(blob, "blob " + ref.digest.hex());
      return std::nullopt;
    }
    if (blob.status == RemoteFetch::Status::Missing) {
      remoteFault(remote, "record " + key.hex() + " names blob " + ref.digest.hex() +
                              " that the remote lacks");
      return std::nullopt;
    }
    std::optional<std::string_view> content = decodeBlob(blob.bytes, ref.digest, &why);
    if (!content || content->size() != ref.size) {
      remoteFault(remote, "damaged blob " + ref.digest.hex() + " ignored: " +
                              (content ? "wrong size for output `" + ref.name + "`" : why));
      return std::nullopt;
    }
    contents[wanted[k]] = std::string(*content);
    fetched.emplace_back(ref.digest, std::move(blob.bytes));
  }
  std::vector<NamedOutput> outputs;
  for (size_t i = 0; i < record->outputs.size(); ++i) {
    outputs.push_back(NamedOutput{record->outputs[i].name, std::move(*contents[i])});
  }
  // Written back as a put would: blobs first, then the record. A failure
  // (a read-only folder) still serves the hit.
  bool stored = true;
  for (const auto& [digest, file] : fetched) {
    std::string path = entryPath(options_.root, kBlobDir, digest);
    if (!writeEntryFile(path, file)) {
      stored = false;
      break;
    }
    bytesDelta_ += static_cast<std::int64_t>(file.size());
  }
  if (stored &&
      writeEntryFile(entryPath(options_.root, kRecordDir, key.digest), recordFetch.bytes)) {
    bytesDelta_ += static_cast<std::int64_t>(recordFetch.bytes.size());
  }
  return outputs;
}

std::optional<std::vector<NamedOutput>> Store::getFromRemotes(const Key& key, GetInfo* info) {
  for (const std::unique_ptr<Remote>& remote : remotes_) {
    if (!remote->usable()) continue;
    if (std::optional<std::vector<NamedOutput>> outputs = getRemote(*remote, key)) {
      ++remoteHits_;
      log(LogLevel::Debug, "cache: remote hit " + key.hex() + " from " + remote->spec().text);
      if (info) info->remote = remote->spec().text;
      if (options_.autoGc && options_.maxSize != 0 && sizeEstimate() > options_.maxSize) {
        collect(options_.maxSize, /*lockTimeoutMs=*/0, &key);
      }
      return outputs;
    }
  }
  return std::nullopt;
}

void Store::upload(const Key& key, const std::vector<std::pair<Digest, std::string>>& blobFiles,
                   const std::string& recordFile, const std::vector<Remote*>& to) {
  for (Remote* remote : to) {
    if (remote->spec().readOnly || !remote->usable()) continue;
    std::string error;
    bool ok = true;
    for (const auto& [digest, file] : blobFiles) {
      if (!remote->put(RemoteObject::Blob, digest, file, &error)) {
        ok = false;
        break;
      }
    }
    if (ok) ok = remote->put(RemoteObject::Record, key.digest, recordFile, &error);
    if (!ok) {
      remoteFault(*remote, "upload of " + key.hex() + " failed: " + error +
                               "; not used again by this process");
      continue;
    }
    ++remoteWrites_;
    log(LogLevel::Debug, "cache: remote " + remote->spec().text + ": stored " + key.hex());
  }
}

void Store::uploadToWritable(const ActionRecord& record,
                             const std::vector<NamedOutput>& outputs) {
  std::vector<Remote*> writable;
  for (const std::unique_ptr<Remote>& r : remotes_) {
    if (!r->spec().readOnly && r->usable()) writable.push_back(r.get());
  }
  if (!writable.empty()) {
    std::vector<std::pair<Digest, std::string>> blobFiles;
    std::set<Digest> seen;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Digest& d = record.outputs[i].digest;
      if (seen.insert(d).second) blobFiles.emplace_back(d, encodeBlob(outputs[i].bytes, &d));
    }
    upload(record.key, blobFiles, encodeRecord(record), writable);
  }
}

void Store::share(const Key& key, const std::vector<NamedOutput>& outputs) {
  std::vector<Remote*> lacking;
  for (const std::unique_ptr<Remote>& remote : remotes_) {
    if (remote->spec().readOnly || !remote->usable()) continue;
    RecordSignature signature = RecordSignature::Unsigned;
    RemoteFetch f = remote->get(RemoteObject::Record, key.digest, kMaxRecordFileBytes, &signature);
    if (f.status == RemoteFetch::Status::Failed) {
      remoteFault(*remote, "record " + key.hex() + ": " + f.error +
                               "; not used again by this process");
      continue;
    }
    // A damaged record is replaced as well, and so is one without a good
    // signature where this writer signs.
    if (f.status == RemoteFetch::Status::Found && decodeRecord(f.bytes, key, nullptr) &&
        (!remote->signs() || signature == RecordSignature::Good)) {
      continue;
    }
    lacking.push_back(remote.get());
  }
  if (lacking.empty()) return;
  ActionRecord record{key, {}};
  std::vector<std::pair<Digest, std::string>> blobFiles;
  std::set<Digest> seen;
  for (const NamedOutput& o : outputs) {
    Digest d = Digest::of(o.bytes);
    record.outputs.push_back(OutputRef{o.name, d, o.bytes.size()});
    if (seen.insert(d).second) blobFiles.emplace_back(d, encodeBlob(o.bytes, &d));
  }
  upload(key, blobFiles, encodeRecord(record), lacking);
}

}  // namespace cache
