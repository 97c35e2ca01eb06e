#include "fileio/routing_file_io.h"

#include <utility>

namespace databox::fileio {

void RoutingFileIO::Register(Scheme scheme, std::shared_ptr<FileIO> io) {
  stores_[scheme] = std::move(io);
}

Result<FileIO*> RoutingFileIO::For(std::string_view location) const {
  DATABOX_ASSIGN_OR_RETURN(Scheme scheme, SchemeOf(location));
  auto it = stores_.find(scheme);
  if (it == stores_.end() || it->second == nullptr) {
    return MakeError(ErrorKind::kConfig, "no file store is configured for location '" +
                                             std::string(location) +
                                             "'; configure storage for its scheme");
  }
  return it->second.get();
}

Result<std::string> RoutingFileIO::Read(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->Read(location);
}

Result<std::string> RoutingFileIO::ReadRange(std::string_view location, uint64_t offset,
                                             uint64_t length) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->ReadRange(location, offset, length);
}

Result<uint64_t> RoutingFileIO::Size(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->Size(location);
}

Result<bool> RoutingFileIO::Exists(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->Exists(location);
}

Status RoutingFileIO::WriteNew(std::string_view location, std::string_view bytes) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->WriteNew(location, bytes);
}

Result<TaggedObject> RoutingFileIO::ReadTagged(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->ReadTagged(location);
}

Status RoutingFileIO::ReplaceIfTag(std::string_view location, std::string_view bytes,
                                   std::string_view tag) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->ReplaceIfTag(location, bytes, tag);
}

Status RoutingFileIO::WriteNewBatch(std::span<const NewObject> objects) {
  size_t start = 0;
  while (start < objects.size()) {
    DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(objects[start].location));
    size_t end = start + 1;
    while (end < objects.size()) {
      auto next = For(objects[end].location);
      if (!next || *next != io) break;
      ++end;
    }
    DATABOX_RETURN_IF_ERROR(io->WriteNewBatch(objects.subspan(start, end - start)));
    start = end;
  }
  return Ok();
}

Status RoutingFileIO::Write(std::string_view location, std::string_view bytes) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->Write(location, bytes);
}

Status RoutingFileIO::UploadFile(std::string_view local_path, std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->UploadFile(local_path, location);
}

Status RoutingFileIO::Delete(std::string_view location) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->Delete(location);
}

Result<std::vector<FileInfo>> RoutingFileIO::List(std::string_view prefix) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(prefix));
  return io->List(prefix);
}

Result<std::vector<FileInfo>> RoutingFileIO::ListWithTemporaryFiles(std::string_view prefix) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(prefix));
  return io->ListWithTemporaryFiles(prefix);
}

Status RoutingFileIO::RemoveEmptyFolders(std::string_view prefix) {
  DATABOX_ASSIGN_OR_RETURN(FileIO * io, For(prefix));
  return io->RemoveEmptyFolders(prefix);
}

}  // namespace databox::fileio
