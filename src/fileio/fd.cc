#include "fileio/fd.h"

#include <unistd.h>

#include <cerrno>

namespace databox::fileio {

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

int Fd::Close() {
  const int fd = fd_;
  fd_ = -1;
  return ::close(fd) == 0 ? 0 : errno;
}

}  // namespace databox::fileio
