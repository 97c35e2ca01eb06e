// The registry's [project.warehouse.s3] settings and the environment, as the plain options and
// credentials S3FileIO takes (fileio/s3 never sees the registry).
//
// Environment: DATABOX_S3_ENDPOINT, DATABOX_AWS_REGION, DATABOX_AWS_ACCESS_KEY_ID,
// DATABOX_AWS_SECRET_ACCESS_KEY, DATABOX_AWS_SESSION_TOKEN. Settings win; the environment fills
// what they leave empty (endpoint, credentials). The registry always has a region (default
// us-east-1), so DATABOX_AWS_REGION only applies without settings (S3OptionsFromEnv).
#pragma once

#include <memory>

#include "common/error.h"
#include "fileio/s3/credentials.h"
#include "fileio/s3/s3_file_io.h"
#include "registry/model.h"

namespace databox::platform {

//! Endpoint, region and addressing from the registry, the endpoint from DATABOX_S3_ENDPOINT
//! when the registry names none.
fileio::s3::S3Options S3OptionsFromSettings(const registry::S3Settings& settings,
                                            const fileio::s3::EnvLookup& env = fileio::s3::GetEnv);
//! Endpoint and region from the environment only (region defaults to us-east-1); path-style
//! whenever a custom endpoint is set, as S3-compatible stores expect.
fileio::s3::S3Options S3OptionsFromEnv(const fileio::s3::EnvLookup& env = fileio::s3::GetEnv);

//! Fixed credentials from the registry's secrets, else from the environment. kConfig naming
//! the unresolved variable when neither has a complete pair. Registers them with the redactor.
Result<std::shared_ptr<fileio::s3::CredentialsProvider>> S3CredentialsFromSettings(
    const registry::S3Settings& settings, const fileio::s3::EnvLookup& env = fileio::s3::GetEnv);

}  // namespace databox::platform
