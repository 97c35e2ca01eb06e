// LocalFileIO: FileIO over the local file system, with crash-safe publication.
//
// Every write goes to a temporary file in the destination folder
// (".databox-tmp-<pid>-<name>-XXXXXX"; the first write into a folder removes those of dead
// processes, fileio/leftovers.h), is fsync'ed, then published: WriteNew with link(2), which fails
// if the destination exists, so a metadata file is never overwritten; Write/UploadFile with
// rename(2), which replaces atomically. The folder is fsync'ed after publication. Missing parent
// folders are created. Readers never see a partial file. List skips temporary files and reports
// modification times.
#pragma once

#include "fileio/file_io.h"

namespace databox::fileio {

class LocalFileIO final : public FileIO {
 public:
  LocalFileIO() = default;

  Result<std::string> Read(std::string_view location) override;
  Result<std::string> ReadRange(std::string_view location, uint64_t offset,
                                uint64_t length) override;
  Result<uint64_t> Size(std::string_view location) override;
  Result<bool> Exists(std::string_view location) override;
  Status WriteNew(std::string_view location, std::string_view bytes) override;
  //! Every file fsync'ed and linked, then each folder fsync'ed once.
  Status WriteNewBatch(std::span<const NewObject> objects) override;
  Status Write(std::string_view location, std::string_view bytes) override;
  Status ReplaceIfTag(std::string_view location, std::string_view bytes,
                      std::string_view tag) override;
  Status UploadFile(std::string_view local_path, std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<FileInfo>> List(std::string_view prefix) override;
  Result<std::vector<FileInfo>> ListWithTemporaryFiles(std::string_view prefix) override;
  Status RemoveEmptyFolders(std::string_view prefix) override;

 private:
  Result<std::vector<FileInfo>> ListFiles(std::string_view prefix, bool with_temporary);
};

}  // namespace databox::fileio
