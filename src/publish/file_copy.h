// Copying data files to the target once (docs/publish.md, "File identity"): a file whose target
// location already holds an object of the same size was copied by an earlier publish (target
// names are derived from the source location and size, layout.h) and is not copied again.
// Objects appear whole at the target (LocalFileIO renames a finished temporary file, S3 PUTs and
// multipart uploads complete atomically), so a killed copy leaves no partial file under a
// target name.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>

#include "common/error.h"
#include "fileio/file_io.h"

namespace databox::publish {

struct FileCopy {
  std::string source;  //!< location in the warehouse
  std::string target;  //!< location at the target
  uint64_t size = 0;   //!< bytes, as the manifest says
};

//! How far a copy is, for a progress display.
struct CopyProgress {
  uint64_t files_done = 0;
  uint64_t files_total = 0;
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;
};
using ProgressFn = std::function<void(const CopyProgress&)>;

struct CopyStats {
  uint64_t files_copied = 0;
  uint64_t bytes_copied = 0;
  uint64_t files_present = 0;  //!< already at the target
  uint64_t bytes_present = 0;
};

//! Whether `copy.target` already holds an object of `copy.size` bytes.
Result<bool> AlreadyAtTarget(fileio::FileIO& target_io, const FileCopy& copy);

//! Copies each file not yet at the target, on up to `threads` threads; a remote source is
//! staged in `scratch` (a local folder). Stops at the first failure (files copied before it stay:
//! a later publish finds them). Each copy is checked by its size at the target.
Result<CopyStats> CopyFiles(fileio::FileIO& source_io, fileio::FileIO& target_io,
                            std::span<const FileCopy> copies, const std::filesystem::path& scratch,
                            int threads, const ProgressFn& progress);

}  // namespace databox::publish
