// The FileIO defaults of the tagged read and the compare-and-swap replace.
#include "fileio/file_io.h"

#include "common/sha256.h"

namespace databox::fileio {

Result<TaggedObject> FileIO::ReadTagged(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(std::string bytes, Read(location));
  std::string tag = Sha256Hex(bytes);
  return TaggedObject{std::move(bytes), std::move(tag)};
}

Status FileIO::ReplaceIfTag(std::string_view location, std::string_view bytes,
                            std::string_view tag) {
  (void)bytes;
  (void)tag;
  return MakeError(ErrorKind::kInternal, "this store cannot replace '" + std::string(location) +
                                             "' conditionally (compare-and-swap)");
}

}  // namespace databox::fileio
