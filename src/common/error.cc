#include "common/error.h"

namespace databox {

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kConfig:
      return "config";
    case ErrorKind::kNetwork:
      return "network";
    case ErrorKind::kAuth:
      return "auth";
    case ErrorKind::kConflict:
      return "conflict";
    case ErrorKind::kCommitStateUnknown:
      return "commit-state-unknown";
    case ErrorKind::kData:
      return "data";
    case ErrorKind::kNotFound:
      return "not-found";
    case ErrorKind::kAlreadyExists:
      return "already-exists";
    case ErrorKind::kIo:
      return "io";
    case ErrorKind::kInternal:
      return "internal";
  }
  return "internal";
}

std::string Error::ToString() const {
  std::string out(ErrorKindName(kind));
  out += ": ";
  out += message;
  return out;
}

Error Error::WithContext(std::string_view context) const {
  Error copy = *this;
  copy.message = std::string(context) + ": " + message;
  return copy;
}

}  // namespace databox
