// A load package: everything one source load leaves on disk, so that a load that died after
// extraction can finish with `databox run S --resume` without fetching again.
// Layout and states are documented in docs/load_package.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

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
    int removed = 0;      //!< packages removed by the retention rule
  };
  //! Call under the source's lock (no other load of `source` runs): a package still
  //! "extracting" or "extracted" was left by a load that died, and is marked failed
  //! ("interrupted"; one whose extraction finished stays resumable). Then all but the newest
  //! `keep` packages (0: none) are removed, never the one `--resume` would take.
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
