#include "fileio/durable.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

namespace databox::fileio {
namespace {

namespace fs = std::filesystem;

std::unexpected<Error> Failed(std::string_view step, std::string_view what, std::string_view name,
                              int err) {
  return MakeError(err == ENOENT ? ErrorKind::kNotFound : ErrorKind::kIo,
                   "could not " + std::string(step) + " " + std::string(what) + " '" +
                       std::string(name) + "': " + std::strerror(err) +
                       "; check that it exists, is accessible to this user and that the disk "
                       "is healthy");
}

//! Opens `path` with `flags` and fsyncs it; `what` is "file" or "folder", for messages.
Status OpenAndSync(std::string_view path, int flags, std::string_view what) {
  const std::string name(path);
  const int fd = ::open(name.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return Failed("open", what, name, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return Failed("fsync", what, name, err);
  return Ok();
}

//! The folder holding `path` ("." for a bare name).
fs::path FolderOf(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

//! Writes all of `bytes` to a new `path` (truncating) and fsyncs it.
Status WriteAndSync(const std::string& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return Failed("create", "file", path, errno);
  Status done = WriteAllToFd(fd, bytes, path);
  if (done && ::fsync(fd) != 0) done = Failed("fsync", "file", path, errno);
  // close(2) can report a deferred write error.
  if (::close(fd) != 0 && done) done = Failed("close", "file", path, errno);
  return done;
}

//! Renames `from` to `to` and fsyncs the folder of `to`.
Status RenameAndSyncFolder(const fs::path& from, const fs::path& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    const int err = errno;
    return MakeError(err == ENOENT ? ErrorKind::kNotFound : ErrorKind::kIo,
                     "could not rename '" + from.string() + "' to '" + to.string() +
                         "': " + std::strerror(err) +
                         "; check that the folder exists and is writable by this user");
  }
  return SyncFolder(FolderOf(to).native());
}

}  // namespace

Status SyncFile(std::string_view path) { return OpenAndSync(path, O_RDONLY, "file"); }

Status SyncFolder(std::string_view dir) {
  return OpenAndSync(dir, O_RDONLY | O_DIRECTORY, "folder");
}

Status CreateFoldersDurably(const fs::path& dir) {
  fs::path target = dir;
  if (!target.has_filename() && target.has_parent_path()) target = target.parent_path();  // "a/b/"
  // The folders that do not exist yet, deepest first.
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = target; !p.empty() && !fs::exists(p, ec) && !ec; p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  fs::create_directories(target, ec);
  if (ec || !fs::is_directory(target, ec)) {
    return MakeError(ErrorKind::kIo,
                     "could not create folder '" + target.string() + "': " +
                         (ec ? ec.message() : std::string("a file of that name is in the way")) +
                         "; check the path and that this user may write there");
  }
  for (const fs::path& created : missing) {
    DATABOX_RETURN_IF_ERROR(SyncFolder(FolderOf(created).native()));
  }
  return Ok();
}

Status RenameDurably(const fs::path& from, const fs::path& to) {
  DATABOX_RETURN_IF_ERROR(SyncFile(from.native()));
  return RenameAndSyncFolder(from, to);
}

Status WriteAllToFd(int fd, std::string_view bytes, std::string_view path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Failed("write", "file", path, errno);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Ok();
}

Status WriteFileDurably(const fs::path& path, std::string_view bytes) {
  const std::string tmp = path.native() + ".tmp";
  Status done = WriteAndSync(tmp, bytes);
  if (done) done = RenameAndSyncFolder(tmp, path);
  if (!done) ::unlink(tmp.c_str());
  return done;
}

}  // namespace databox::fileio
