#include "common/error.h"

#include "common/enum_names.h"

namespace databox {

namespace {

constexpr EnumNames<ErrorKind, 10> kErrorKindNames{
    {{ErrorKind::kConfig, "config"},
     {ErrorKind::kNetwork, "network"},
     {ErrorKind::kAuth, "auth"},
     {ErrorKind::kConflict, "conflict"},
     {ErrorKind::kCommitStateUnknown, "commit-state-unknown"},
     {ErrorKind::kData, "data"},
     {ErrorKind::kNotFound, "not-found"},
     {ErrorKind::kAlreadyExists, "already-exists"},
     {ErrorKind::kIo, "io"},
     {ErrorKind::kInternal, "internal"}}};
static_assert(DistinctNames(kErrorKindNames));

}  // namespace

std::string_view ErrorKindName(ErrorKind kind) { return NameOf(kErrorKindNames, kind, "internal"); }

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
