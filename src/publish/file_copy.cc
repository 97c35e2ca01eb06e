#include "publish/file_copy.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "common/failpoint.h"
#include "fileio/durable.h"
#include "fileio/fd.h"
#include "fileio/location.h"

namespace databox::publish {
namespace {

constexpr uint64_t kChunkBytes = uint64_t{16} << 20;

//! Downloads `location` into the local file `path` in chunks.
Status Download(fileio::FileIO& io, const std::string& location, uint64_t size,
                const std::string& path) {
  fileio::Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (fd.get() < 0) return MakeError(ErrorKind::kIo, "cannot create the scratch file " + path);
  for (uint64_t offset = 0; offset < size; offset += kChunkBytes) {
    DATABOX_ASSIGN_OR_RETURN(std::string bytes, io.ReadRange(location, offset, kChunkBytes));
    if (bytes.empty()) break;
    DATABOX_RETURN_IF_ERROR(fileio::WriteAllToFd(fd.get(), bytes, path));
  }
  if (fd.Close() != 0) return MakeError(ErrorKind::kIo, "cannot write the scratch file " + path);
  return Ok();
}

Status CopyOne(fileio::FileIO& source_io, fileio::FileIO& target_io, const FileCopy& copy,
               const std::filesystem::path& scratch, size_t index) {
  auto scheme = fileio::SchemeOf(copy.source);
  if (scheme && *scheme == fileio::Scheme::kLocal) {
    DATABOX_ASSIGN_OR_RETURN(std::string path, fileio::LocalPathOf(copy.source));
    DATABOX_RETURN_IF_ERROR(target_io.UploadFile(path, copy.target));
  } else {
    const std::string path = (scratch / ("copy-" + std::to_string(index))).string();
    Status done = Download(source_io, copy.source, copy.size, path);
    if (done) done = target_io.UploadFile(path, copy.target);
    ::unlink(path.c_str());
    DATABOX_RETURN_IF_ERROR(done);
  }
  DATABOX_ASSIGN_OR_RETURN(uint64_t written, target_io.Size(copy.target));
  if (written != copy.size) {
    return MakeError(ErrorKind::kData, copy.target + " holds " + std::to_string(written) +
                                           " bytes after the copy of " + copy.source + ", not " +
                                           std::to_string(copy.size));
  }
  Failpoint("publish-after-file");
  return Ok();
}

}  // namespace

Result<bool> AlreadyAtTarget(fileio::FileIO& target_io, const FileCopy& copy) {
  auto size = target_io.Size(copy.target);
  if (!size) {
    if (size.error().kind == ErrorKind::kNotFound) return false;
    return std::unexpected(size.error());
  }
  return *size == copy.size;
}

Result<CopyStats> CopyFiles(fileio::FileIO& source_io, fileio::FileIO& target_io,
                            std::span<const FileCopy> copies, const std::filesystem::path& scratch,
                            int threads, const ProgressFn& progress) {
  CopyStats stats;
  CopyProgress state;
  state.files_total = copies.size();
  for (const FileCopy& copy : copies) state.bytes_total += copy.size;
  std::mutex mutex;  // guards stats, state, first_error and the progress callback
  std::optional<Error> first_error;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < copies.size(); i = next++) {
      {
        std::lock_guard lock(mutex);
        if (first_error) return;
      }
      const FileCopy& copy = copies[i];
      auto present = AlreadyAtTarget(target_io, copy);
      Status done = present ? Ok() : Status(std::unexpected(present.error()));
      if (present && !*present) done = CopyOne(source_io, target_io, copy, scratch, i);
      std::lock_guard lock(mutex);
      if (!done) {
        if (!first_error) first_error = done.error();
        return;
      }
      (*present ? stats.files_present : stats.files_copied) += 1;
      (*present ? stats.bytes_present : stats.bytes_copied) += copy.size;
      state.files_done += 1;
      state.bytes_done += copy.size;
      if (progress) progress(state);
    }
  };
  std::vector<std::thread> pool;
  const int n = std::max(1, std::min<int>(threads, static_cast<int>(copies.size())));
  for (int t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  if (first_error) return std::unexpected(*first_error);
  return stats;
}

}  // namespace databox::publish
