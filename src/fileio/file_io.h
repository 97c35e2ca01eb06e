// FileIO: the byte store behind Iceberg tables. A location is a local path (absolute, or a
// file:// URI) or an object-store URI (s3://bucket/key). Implementations live in fileio/local
// and fileio/s3; RoutingFileIO (routing_file_io.h) picks one by scheme.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::fileio {

//! One object found by FileIO::List.
struct FileInfo {
  std::string location;  //!< full location, in the same form as the listed prefix
  uint64_t size = 0;     //!< bytes
  //! Last modification, milliseconds since the Unix epoch; nullopt when the store did not say.
  std::optional<int64_t> modified_ms;
};

//! One object for FileIO::WriteNewBatch.
struct NewObject {
  std::string location;
  std::string bytes;
};

//! An object's bytes and the tag of that version of it (FileIO::ReadTagged).
struct TaggedObject {
  std::string bytes;
  std::string tag;  //!< opaque; compare only with another tag of the same location and store
};

//! Reads and writes whole objects. Every method is safe to call from several threads.
class FileIO {
 public:
  virtual ~FileIO() = default;

  //! The whole object; kNotFound if it does not exist.
  virtual Result<std::string> Read(std::string_view location) = 0;
  //! Up to `length` bytes starting at `offset` (fewer at the end of the object).
  virtual Result<std::string> ReadRange(std::string_view location, uint64_t offset,
                                        uint64_t length) = 0;
  //! Object size in bytes; kNotFound if it does not exist.
  virtual Result<uint64_t> Size(std::string_view location) = 0;
  //! Whether the object exists.
  virtual Result<bool> Exists(std::string_view location) = 0;
  //! Creates the object atomically; kAlreadyExists if it exists (never overwrites).
  //! Iceberg metadata files are written with this.
  virtual Status WriteNew(std::string_view location, std::string_view bytes) = 0;
  //! WriteNew of each object in order; on success every one is durable. Stops at the first
  //! failure (objects before it stay written). A store may share work between the objects
  //! (LocalFileIO syncs each folder once instead of once per file).
  virtual Status WriteNewBatch(std::span<const NewObject> objects) {
    for (const auto& object : objects)
      DATABOX_RETURN_IF_ERROR(WriteNew(object.location, object.bytes));
    return Ok();
  }
  //! Creates or atomically replaces the object.
  virtual Status Write(std::string_view location, std::string_view bytes) = 0;
  //! The object and the tag of its version (S3: its ETag; local: the SHA-256 of its bytes);
  //! kNotFound if it does not exist.
  virtual Result<TaggedObject> ReadTagged(std::string_view location);
  //! Replaces the object with `bytes` only while its version is still `tag` (from ReadTagged):
  //! compare-and-swap for a pointer that several writers may move. kConflict when another
  //! writer changed or removed it first; nothing is written then. S3: PUT with If-Match;
  //! local: under flock(2) of the object's folder, compared and then renamed over. A store that
  //! cannot do it answers kInternal.
  virtual Status ReplaceIfTag(std::string_view location, std::string_view bytes,
                              std::string_view tag);
  //! Copies the local file `local_path` to `location` (create or replace).
  virtual Status UploadFile(std::string_view local_path, std::string_view location) = 0;
  //! Deletes the object; kNotFound if it does not exist.
  virtual Status Delete(std::string_view location) = 0;
  //! Every object whose location starts with `prefix` (recursively), sorted by location.
  virtual Result<std::vector<FileInfo>> List(std::string_view prefix) = 0;
  //! Removes the folders at and under the folder `prefix` that hold no object, deepest first (a
  //! failed load's new table leaves none behind). A store without folders has nothing to do.
  virtual Status RemoveEmptyFolders(std::string_view prefix) {
    (void)prefix;
    return Ok();
  }
  //! List, plus the temporary files a store uses while writing (LocalFileIO's
  //! ".databox-tmp-<pid>-<name>-XXXXXX", before ".<name>.databox-tmp-XXXXXX"; a killed writer
  //! leaves them behind). For maintenance.
  virtual Result<std::vector<FileInfo>> ListWithTemporaryFiles(std::string_view prefix) {
    return List(prefix);
  }
};

}  // namespace databox::fileio
