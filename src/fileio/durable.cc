#include "fileio/durable.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace databox::fileio {
namespace {

//! Opens `path` with `flags` and fsyncs it; `what` is "file" or "folder", for messages.
Status OpenAndSync(std::string_view path, int flags, std::string_view what) {
  const std::string name(path);
  auto failed = [&](std::string_view step, int err) {
    return MakeError(err == ENOENT ? ErrorKind::kNotFound : ErrorKind::kIo,
                     "could not " + std::string(step) + " " + std::string(what) + " '" + name +
                         "': " + std::strerror(err) +
                         "; check that it exists, is accessible to this user and that the disk "
                         "is healthy");
  };
  const int fd = ::open(name.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return failed("open", errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return failed("fsync", err);
  return Ok();
}

}  // namespace

Status SyncFile(std::string_view path) { return OpenAndSync(path, O_RDONLY, "file"); }

Status SyncFolder(std::string_view dir) {
  return OpenAndSync(dir, O_RDONLY | O_DIRECTORY, "folder");
}

}  // namespace databox::fileio
