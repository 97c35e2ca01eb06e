#include "platform/publish_target.h"

#include <filesystem>

#include "fileio/local/local_file_io.h"
#include "fileio/s3/s3_file_io.h"
#include "platform/duckdb_s3_access.h"
#include "platform/s3_settings.h"

namespace databox::platform {
namespace {

std::string WithoutTrailingSlash(std::string text) {
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

Result<PublishStorage> OpenS3(const registry::Registry& registry, const std::string& root) {
  registry::S3Settings none;
  const registry::S3Settings& settings = registry.publish ? registry.publish->s3 : none;
  const bool configured = !settings.endpoint.empty() || !settings.access_key_id.empty();
  fileio::s3::S3Options options = configured ? S3OptionsFromSettings(settings) : S3OptionsFromEnv();
  auto credentials = S3CredentialsFromSettings(settings);
  if (!credentials) {
    return std::unexpected(credentials.error().WithContext("publish target " + root));
  }
  DATABOX_ASSIGN_OR_RETURN(auto s3, fileio::s3::S3FileIO::Make(options, *credentials));
  PublishStorage storage;
  storage.io = std::shared_ptr<fileio::FileIO>(std::move(s3));
  storage.root = root;
  DATABOX_ASSIGN_OR_RETURN(load::DuckDbS3Access access,
                           S3DuckDbAccess(std::move(options), *credentials).Get());
  access.scope = root + "/";
  storage.duckdb_s3 = std::move(access);
  return storage;
}

}  // namespace

Result<PublishStorage> OpenPublishStorage(const registry::Registry& registry,
                                          const std::optional<std::string>& to) {
  std::string root = to.value_or(registry.publish ? registry.publish->to : "");
  if (root.empty()) {
    return MakeError(ErrorKind::kConfig,
                     "no publish target: pass --to s3://bucket/prefix or --to FOLDER, or set "
                     "[publish] to = ... in the registry (docs/publish.md)");
  }
  root = WithoutTrailingSlash(std::move(root));
  if (root.starts_with("s3://")) {
    if (root.size() <= 5 || root[5] == '/') {
      return MakeError(ErrorKind::kConfig, "publish target " + root + " has no bucket");
    }
    return OpenS3(registry, root);
  }
  if (root.starts_with("file://")) root = root.substr(7);
  if (root.find("://") != std::string::npos) {
    return MakeError(ErrorKind::kConfig, "publish target " + root +
                                             " is neither s3://bucket/prefix nor a local folder");
  }
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(root, ec).lexically_normal();
  if (ec) return MakeError(ErrorKind::kConfig, "publish target " + root + ": " + ec.message());
  PublishStorage storage;
  storage.io = std::make_shared<fileio::LocalFileIO>();
  storage.root = WithoutTrailingSlash(absolute.string());
  if (storage.root == "/") {
    return MakeError(ErrorKind::kConfig, "publish target / is the filesystem root");
  }
  if (std::filesystem::exists(storage.root, ec) &&
      !std::filesystem::is_directory(storage.root, ec)) {
    return MakeError(ErrorKind::kConfig, "publish target " + storage.root + " is not a folder");
  }
  return storage;
}

}  // namespace databox::platform
