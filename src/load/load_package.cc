#include "load/load_package.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>
#include <vector>

#include "fileio/durable.h"

namespace databox::load {
namespace fs = std::filesystem;

std::string_view PackageStateName(PackageState state) {
  switch (state) {
    case PackageState::kExtracting:
      return "extracting";
    case PackageState::kExtracted:
      return "extracted";
    case PackageState::kCommitted:
      return "committed";
    case PackageState::kFailed:
      return "failed";
  }
  return "failed";
}

namespace {

constexpr const char* kStateFile = "package.json";

std::optional<PackageState> ParseState(std::string_view name) {
  for (auto s : {PackageState::kExtracting, PackageState::kExtracted, PackageState::kCommitted,
                 PackageState::kFailed}) {
    if (PackageStateName(s) == name) return s;
  }
  return std::nullopt;
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

}  // namespace

Result<LoadPackage::Settled> LoadPackage::Settle(const fs::path& loads_dir,
                                                 const std::string& source, int keep) {
  Settled settled;
  bool resumable_seen = false;  // the newest resumable package: what --resume would take
  bool committed_seen = false;
  int kept = 0;
  for (const fs::path& dir : PackagesNewestFirst(loads_dir / source)) {
    auto package = Read(dir);
    if (package && (package->state_ == PackageState::kExtracting ||
                    package->state_ == PackageState::kExtracted)) {
      const std::string why =
          package->extracted_
              ? "interrupted after its extraction: the process loading it stopped before the "
                "commit (`databox run " +
                    source + " --resume` finishes it)"
              : "interrupted: the process loading it stopped before its extraction finished";
      DATABOX_RETURN_IF_ERROR(package->SetState(PackageState::kFailed, why));
      ++settled.interrupted;
    }
    const bool resumes = package && !committed_seen && !resumable_seen && package->extracted_ &&
                         package->state_ != PackageState::kCommitted;
    resumable_seen = resumable_seen || resumes;
    committed_seen = committed_seen || (package && package->state_ == PackageState::kCommitted);
    if (kept < keep || resumes) {
      ++kept;
      continue;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (ec) {
      return MakeError(ErrorKind::kIo,
                       "cannot remove the old load package " + dir.string() + ": " + ec.message());
    }
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
  DATABOX_RETURN_IF_ERROR(package.SetState(PackageState::kExtracting));
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
  for (const fs::path& dir : PackagesNewestFirst(root)) {
    auto package = Read(dir);
    if (!package) continue;
    if (package->state_ == PackageState::kCommitted) break;  // nothing newer to resume
    if (package->extracted_) return package;
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
