#include "platform/storage.h"

#include "fileio/local/local_file_io.h"
#include "fileio/routing_file_io.h"
#include "fileio/s3/s3_file_io.h"
#include "platform/duckdb_s3_access.h"
#include "platform/s3_settings.h"

namespace databox::platform {

Result<Storage> OpenStorage(const registry::WarehouseSettings& warehouse) {
  auto routing = std::make_shared<fileio::RoutingFileIO>();
  routing->Register(fileio::Scheme::kLocal, std::make_shared<fileio::LocalFileIO>());
  Storage storage;
  storage.file_io = routing;
  if (!warehouse.is_s3) return storage;
  DATABOX_ASSIGN_OR_RETURN(auto credentials, S3CredentialsFromSettings(warehouse.s3));
  fileio::s3::S3Options options = S3OptionsFromSettings(warehouse.s3);
  DATABOX_ASSIGN_OR_RETURN(auto s3, fileio::s3::S3FileIO::Make(options, credentials));
  routing->Register(fileio::Scheme::kS3, std::shared_ptr<fileio::FileIO>(std::move(s3)));
  storage.duckdb_s3 = std::make_shared<S3DuckDbAccess>(std::move(options), std::move(credentials));
  return storage;
}

}  // namespace databox::platform
