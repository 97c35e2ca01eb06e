// An owned POSIX file descriptor: closed when it goes out of scope, or earlier by Close(), which
// reports what close(2) says (it can report a deferred write error, so a writer checks it).
#pragma once

namespace databox::fileio {

//! Owns one file descriptor (or none: a negative value, as a failed open(2) returns).
//! Not copyable; the descriptor is closed at most once.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();

  //! The descriptor, negative when there is none (check after opening).
  int get() const { return fd_; }
  //! Closes now; 0, or the errno of a failed close(2). Afterwards get() is -1.
  int Close();

 private:
  int fd_;  //!< -1 once closed
};

}  // namespace databox::fileio
