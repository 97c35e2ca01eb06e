#include "load/load_package.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>
#include <vector>

#include "common/clock.h"
#include "common/edit_distance.h"
#include "common/enum_names.h"
#include "fileio/durable.h"

namespace databox::load {
namespace fs = std::filesystem;

namespace {

constexpr EnumNames<PackageState, 4> kPackageStateNames{{{PackageState::kExtracting, "extracting"},
                                                         {PackageState::kExtracted, "extracted"},
                                                         {PackageState::kCommitted, "committed"},
                                                         {PackageState::kFailed, "failed"}}};
static_assert(DistinctNames(kPackageStateNames));

}  // namespace

std::string_view PackageStateName(PackageState state) {
  return NameOf(kPackageStateNames, state, "failed");
}

std::filesystem::path LoadsDir(const std::filesystem::path& state_dir) {
  return state_dir / "loads";
}

namespace {

constexpr const char* kStateFile = "package.json";
//! Edits within which an unknown load id is taken for a typo of an existing one.
constexpr std::size_t kLoadIdTypos = 3;

std::optional<PackageState> ParseState(std::string_view name) {
  return ValueOf(kPackageStateNames, name);
}

//! The package folders of one source, newest first. Load ids are times (seconds with a
//! fraction) and sort as numbers; a folder whose name is not one is not a package.
std::vector<fs::path> PackagesNewestFirst(const fs::path& root) {
  std::vector<std::pair<double, fs::path>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (!entry.is_directory(ec)) continue;
    const std::string name = entry.path().filename().string();
    double id = 0;
    const auto [end, parsed] = std::from_chars(name.data(), name.data() + name.size(), id);
    if (parsed != std::errc() || end != name.data() + name.size()) continue;
    found.emplace_back(id, entry.path());
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a > b; });
  std::vector<fs::path> dirs;
  for (auto& [id, dir] : found) dirs.push_back(std::move(dir));
  return dirs;
}

//! The files' size under `dir`.
std::uintmax_t SizeOnDisk(const fs::path& dir) {
  std::uintmax_t bytes = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec)) {
      const std::uintmax_t size = it->file_size(size_ec);
      if (!size_ec) bytes += size;
    }
  }
  return bytes;
}

//! The time a load id names (seconds since the epoch with a fraction), as ISO 8601 UTC.
std::string LoadIdTime(const std::string& load_id) {
  double seconds = 0;  // a folder name PackagesNewestFirst parsed already
  (void)std::from_chars(load_id.data(), load_id.data() + load_id.size(), seconds);
  return IsoAt(std::chrono::system_clock::time_point(
      std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000))));
}

//! When `file` was last written, as ISO 8601 UTC ("" when it cannot be read).
std::string ChangedAt(const fs::path& file) {
  std::error_code ec;
  const fs::file_time_type written = fs::last_write_time(file, ec);
  if (ec) return "";
  return IsoAt(std::chrono::file_clock::to_sys(written));
}

//! Removes a package folder with all it holds.
Status RemovePackageFolder(const fs::path& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) {
    return MakeError(ErrorKind::kIo,
                     "cannot remove the old load package " + dir.string() + ": " + ec.message());
  }
  return Ok();
}

}  // namespace

bool ResumeRule::Takes(PackageState state, bool extracted) {
  if (decided_) return false;
  if (state == PackageState::kCommitted) {
    decided_ = true;  // nothing older than a committed package is resumed
    return false;
  }
  decided_ = extracted;
  return extracted;
}

std::string InterruptedError(const std::string& source, std::string_view cause, bool extracted) {
  const std::string head = "interrupted (" + std::string(cause) + ")";
  if (!extracted) return head + " before its extraction finished";
  return head + " after its extraction, before the commit (`databox run " + source +
         " --resume` finishes it)";
}

std::vector<std::string> PackageSources(const fs::path& loads_dir) {
  std::vector<std::string> sources;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(loads_dir, ec)) {
    if (entry.is_directory(ec)) sources.push_back(entry.path().filename().string());
  }
  std::sort(sources.begin(), sources.end());
  return sources;
}

std::vector<PackageSummary> ListPackages(const fs::path& loads_dir, const std::string& source) {
  std::vector<PackageSummary> listed;
  ResumeRule rule;
  for (const fs::path& dir : PackagesNewestFirst(loads_dir / source)) {
    std::ifstream in(dir / kStateFile);
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object() || !doc.contains("state") || !doc["state"].is_string()) continue;
    const auto state = ParseState(doc["state"].get<std::string>());
    if (!state) continue;
    PackageSummary summary;
    summary.source = source;
    summary.load_id = dir.filename().string();
    summary.state = *state;
    summary.extracted = doc.value("extracted", false);
    summary.resumable = rule.Takes(summary.state, summary.extracted);
    summary.error =
        doc.contains("error") && doc["error"].is_string() ? doc["error"].get<std::string>() : "";
    summary.created_at = LoadIdTime(summary.load_id);
    summary.changed_at = ChangedAt(dir / kStateFile);
    summary.bytes = SizeOnDisk(dir);
    listed.push_back(std::move(summary));
  }
  return listed;
}

Status RemovePackage(const fs::path& loads_dir, const std::string& source,
                     const std::string& load_id) {
  std::vector<std::string> ids;
  for (const fs::path& dir : PackagesNewestFirst(loads_dir / source)) {
    if (dir.filename() != load_id) {
      ids.push_back(dir.filename().string());
      continue;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (ec) {
      return MakeError(ErrorKind::kIo,
                       "cannot remove the load package " + dir.string() + ": " + ec.message());
    }
    return Ok();
  }
  const std::string listed = " (`databox loads " + source + "` lists them)";
  const auto closest = ClosestName(load_id, ids, kLoadIdTypos);
  const std::string hint = ids.empty() ? "; it has no load packages"
                           : closest   ? "; did you mean " + *closest + "?" + listed
                                       : "; its newest is " + ids.front() + listed;
  return MakeError(ErrorKind::kNotFound,
                   "source " + source + " has no load package " + load_id + hint);
}

Result<LoadPackage::Settled> LoadPackage::Settle(const fs::path& loads_dir,
                                                 const std::string& source, int keep) {
  Settled settled;
  ResumeRule rule;
  std::vector<fs::path> others;  // newest first: the packages --resume would not take
  bool kept_resumable = false;
  for (const fs::path& dir : PackagesNewestFirst(loads_dir / source)) {
    auto package = Read(dir);
    if (!package && package.error().kind == ErrorKind::kNotFound) {
      // package.json is written atomically, so a folder without one is what a load left that
      // died (or met a full disk) between creating the folder and recording its first state:
      // nothing in it can be resumed, and no load of the source runs now.
      DATABOX_RETURN_IF_ERROR(RemovePackageFolder(dir));
      ++settled.removed;
      continue;
    }
    if (package && (package->state_ == PackageState::kExtracting ||
                    package->state_ == PackageState::kExtracted)) {
      const std::string why =
          InterruptedError(source, "the process loading it stopped", package->extracted_);
      DATABOX_RETURN_IF_ERROR(package->SetState(PackageState::kFailed, why));
      ++settled.interrupted;
    }
    if (package && rule.Takes(package->state_, package->extracted_)) {
      kept_resumable = true;
    } else {
      others.push_back(dir);
    }
  }
  // The one --resume would take always stays and counts against `keep`: the newest others fill
  // the rest, so a source never has more than `keep` (plus that one when `keep` is 0).
  const std::size_t room = static_cast<std::size_t>(std::max(0, keep - (kept_resumable ? 1 : 0)));
  for (std::size_t i = room; i < others.size(); ++i) {
    DATABOX_RETURN_IF_ERROR(RemovePackageFolder(others[i]));
    ++settled.removed;
  }
  return settled;
}

Result<LoadPackage> LoadPackage::Create(const fs::path& loads_dir, const std::string& source,
                                        const std::string& load_id) {
  const fs::path dir = loads_dir / source / load_id;
  if (Status created = fileio::CreateFoldersDurably(dir / "extract"); !created) {
    return std::unexpected(
        created.error().WithContext("cannot create load package " + dir.string()));
  }
  LoadPackage package(dir, source, load_id);
  if (Status recorded = package.SetState(PackageState::kExtracting); !recorded) {
    std::error_code ignored;  // best effort: the next load removes a folder without a state
    fs::remove_all(dir, ignored);
    return std::unexpected(recorded.error());
  }
  return package;
}

Result<LoadPackage> LoadPackage::Read(const fs::path& dir) {
  std::ifstream in(dir / kStateFile);
  if (!in)
    return MakeError(ErrorKind::kNotFound, "no " + std::string(kStateFile) + " in " + dir.string());
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("state") || !doc.contains("load_id") ||
      !doc.contains("source")) {
    return MakeError(ErrorKind::kData,
                     "load package " + dir.string() + ": unreadable " + std::string(kStateFile));
  }
  auto state = ParseState(doc["state"].get<std::string>());
  if (!state) {
    return MakeError(ErrorKind::kData, "load package " + dir.string() + ": unknown state");
  }
  LoadPackage package(dir, doc["source"].get<std::string>(), doc["load_id"].get<std::string>());
  package.state_ = *state;
  package.extracted_ = doc.value("extracted", false);
  return package;
}

Result<LoadPackage> LoadPackage::FindResumable(const fs::path& loads_dir,
                                               const std::string& source) {
  const fs::path root = loads_dir / source;
  ResumeRule rule;
  for (const fs::path& dir : PackagesNewestFirst(root)) {
    auto package = Read(dir);
    if (package && rule.Takes(package->state_, package->extracted_)) return package;
  }
  return MakeError(ErrorKind::kNotFound,
                   "source " + source + ": no load package to resume in " + root.string() +
                       " (the last load committed, or none finished extraction); run it without "
                       "--resume");
}

Status LoadPackage::SetState(PackageState state, const std::string& error) {
  state_ = state;
  if (state == PackageState::kExtracted) extracted_ = true;
  nlohmann::json doc = {{"load_id", load_id_},
                        {"source", source_},
                        {"state", PackageStateName(state)},
                        {"extracted", extracted_}};
  if (!error.empty()) doc["error"] = error;
  // `databox run --resume` trusts this file: after a crash it must be the old or the new state.
  return fileio::WriteFileDurably(dir_ / kStateFile, doc.dump(2) + "\n");
}

}  // namespace databox::load
