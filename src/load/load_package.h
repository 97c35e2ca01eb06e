// A load package: everything one source load leaves on disk, so that a load that died after
// extraction can finish with `databox run S --resume` without fetching again.
// Layout and states are documented in docs/load_package.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"

namespace databox::load {

//! Where a package is in its life.
enum class PackageState {
  kExtracting,  //!< pages are being fetched; not resumable
  kExtracted,   //!< every resource's pages are on disk; normalize + commit may (re)run
  kCommitted,   //!< the catalog accepted the commit
  kFailed,      //!< the load failed; `error` says where (resumable if extraction finished)
};

std::string_view PackageStateName(PackageState state);

//! Root of a project's load packages: <state_dir>/loads.
std::filesystem::path LoadsDir(const std::filesystem::path& state_dir);

//! The one rule `databox run SOURCE --resume` follows, fed a source's packages newest first: it
//! takes the newest package whose extraction finished, unless a committed package is newer.
//! FindResumable, Settle (which never removes that package) and ListPackages all ask it.
class ResumeRule {
 public:
  //! Feeds the next (older) package; true for the package --resume takes (at most one).
  bool Takes(PackageState state, bool extracted);

 private:
  bool decided_ = false;  //!< the package was found, or a committed one ended the search
};

//! One package as `databox loads` lists it.
struct PackageSummary {
  std::string source;
  std::string load_id;
  PackageState state = PackageState::kFailed;
  bool extracted = false;    //!< its extraction finished at some point
  bool resumable = false;    //!< `databox run SOURCE --resume` would take it (ResumeRule)
  std::string error;         //!< why it failed (kFailed), as package.json records it
  std::string created_at;    //!< ISO 8601 UTC, from the load id (a time)
  std::string changed_at;    //!< ISO 8601 UTC, when package.json was last written
  std::uintmax_t bytes = 0;  //!< its files' size on disk
};

//! The sources that have a folder in `loads_dir`, sorted by name.
std::vector<std::string> PackageSources(const std::filesystem::path& loads_dir);

//! The packages of `source`, newest first (none when it has no folder). A package folder whose
//! package.json cannot be read is left out.
std::vector<PackageSummary> ListPackages(const std::filesystem::path& loads_dir,
                                         const std::string& source);

//! Removes the package `load_id` of `source`; call under the source's lock (no load of it
//! runs). kNotFound naming the closest existing id when there is no such package.
Status RemovePackage(const std::filesystem::path& loads_dir, const std::string& source,
                     const std::string& load_id);

//! Why a package a load stopped writing failed: "interrupted (<cause>) ...", saying whether
//! `databox run SOURCE --resume` finishes it (extraction finished) or not.
std::string InterruptedError(const std::string& source, std::string_view cause, bool extracted);

class LoadPackage {
 public:
  //! Creates <loads_dir>/<source>/<load_id>/ in state kExtracting.
  static Result<LoadPackage> Create(const std::filesystem::path& loads_dir,
                                    const std::string& source, const std::string& load_id);
  //! The newest package of `source` whose extraction finished and that was not committed;
  //! kNotFound (with what to do instead) when there is none.
  static Result<LoadPackage> FindResumable(const std::filesystem::path& loads_dir,
                                           const std::string& source);

  const std::string& load_id() const { return load_id_; }
  const std::filesystem::path& dir() const { return dir_; }
  //! Raw pages, one sub-folder per resource (see docs/sources.md).
  std::filesystem::path extract_dir() const { return dir_ / "extract"; }
  PackageState state() const { return state_; }
  //! True when the extraction had finished (resumable after a failure).
  bool extracted() const { return extracted_; }

  //! What Settle did.
  struct Settled {
    int interrupted = 0;  //!< packages an earlier load left unfinished, now marked failed
    int removed = 0;      //!< packages removed (retention, or a folder without a state)
  };
  //! Call under the source's lock (no other load of `source` runs): a package still
  //! "extracting" or "extracted" was left by a load that died, and is marked failed
  //! ("interrupted"; one whose extraction finished stays resumable); a package folder without
  //! a package.json (a load died or met a full disk before recording its first state) is
  //! removed. Then all but the newest `keep` packages (0: none) are removed, never the one
  //! `--resume` would take, which counts as one of the `keep` (with `keep` 0 it stays alone).
  static Result<Settled> Settle(const std::filesystem::path& loads_dir, const std::string& source,
                                int keep);

  //! Records a new state in package.json (written atomically); `error` for kFailed.
  Status SetState(PackageState state, const std::string& error = "");

 private:
  LoadPackage(std::filesystem::path dir, std::string source, std::string load_id)
      : dir_(std::move(dir)), source_(std::move(source)), load_id_(std::move(load_id)) {}
  static Result<LoadPackage> Read(const std::filesystem::path& dir);

  std::filesystem::path dir_;
  std::string source_;
  std::string load_id_;
  PackageState state_ = PackageState::kExtracting;
  bool extracted_ = false;  //!< extraction finished at some point
};

}  // namespace databox::load
