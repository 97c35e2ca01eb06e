#include "platform/storage.h"

#include "fileio/local/local_file_io.h"
#include "fileio/routing_file_io.h"
#include "fileio/s3/s3_file_io.h"
#include "platform/duckdb_s3_access.h"
#include "platform/s3_settings.h"

namespace databox::platform {
namespace {

//! No key in the registry and none in the environment: only vended credentials can sign.
bool NoStaticKeys(const registry::S3Settings& s3) {
  return s3.access_key_id.empty() && s3.secret_access_key.empty() &&
         fileio::s3::GetEnv("DATABOX_AWS_ACCESS_KEY_ID").value_or("").empty() &&
         fileio::s3::GetEnv("DATABOX_AWS_SECRET_ACCESS_KEY").value_or("").empty();
}

}  // namespace

Result<Storage> OpenStorage(const registry::WarehouseSettings& warehouse,
                            bool catalog_vends_credentials) {
  auto routing = std::make_shared<fileio::RoutingFileIO>();
  routing->Register(fileio::Scheme::kLocal, std::make_shared<fileio::LocalFileIO>());
  Storage storage;
  storage.file_io = routing;
  if (!warehouse.is_s3) return storage;
  std::shared_ptr<fileio::s3::CredentialsProvider> credentials;
  if (!catalog_vends_credentials || !NoStaticKeys(warehouse.s3)) {
    DATABOX_ASSIGN_OR_RETURN(credentials, S3CredentialsFromSettings(warehouse.s3));
  }
  fileio::s3::S3Options options = S3OptionsFromSettings(warehouse.s3);
  if (catalog_vends_credentials) {
    storage.table_credentials = std::make_shared<TableCredentials>(credentials);
    storage.warehouse_wide_access = credentials != nullptr;
    credentials = storage.table_credentials;
  }
  DATABOX_ASSIGN_OR_RETURN(auto s3, fileio::s3::S3FileIO::Make(options, credentials));
  routing->Register(fileio::Scheme::kS3, std::shared_ptr<fileio::FileIO>(std::move(s3)));
  storage.duckdb_s3 = std::make_shared<S3DuckDbAccess>(std::move(options), std::move(credentials),
                                                       storage.table_credentials);
  return storage;
}

}  // namespace databox::platform
