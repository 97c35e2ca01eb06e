// RoutingFileIO: one FileIO over several stores, choosing the store by each location's scheme.
// This is the factory by scheme: the program registers the stores it configured (local, S3).
#pragma once

#include <map>
#include <memory>

#include "fileio/file_io.h"
#include "fileio/location.h"

namespace databox::fileio {

class RoutingFileIO final : public FileIO {
 public:
  RoutingFileIO() = default;

  //! Routes locations of `scheme` to `io` (replacing an earlier registration).
  void Register(Scheme scheme, std::shared_ptr<FileIO> io);
  //! The store for `location`; kConfig if its scheme is unknown or not registered.
  Result<FileIO*> For(std::string_view location) const;

  Result<std::string> Read(std::string_view location) override;
  Result<std::string> ReadRange(std::string_view location, uint64_t offset,
                                uint64_t length) override;
  Result<uint64_t> Size(std::string_view location) override;
  Result<bool> Exists(std::string_view location) override;
  Status WriteNew(std::string_view location, std::string_view bytes) override;
  //! One batch per store: consecutive objects of the same store go to it together.
  Status WriteNewBatch(std::span<const NewObject> objects) override;
  Status Write(std::string_view location, std::string_view bytes) override;
  Result<TaggedObject> ReadTagged(std::string_view location) override;
  Status ReplaceIfTag(std::string_view location, std::string_view bytes,
                      std::string_view tag) override;
  Status UploadFile(std::string_view local_path, std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<FileInfo>> List(std::string_view prefix) override;
  Result<std::vector<FileInfo>> ListWithTemporaryFiles(std::string_view prefix) override;
  Status RemoveEmptyFolders(std::string_view prefix) override;

 private:
  std::map<Scheme, std::shared_ptr<FileIO>> stores_;  //!< registered before use, then read-only
};

}  // namespace databox::fileio
