// Checked field access for the iceberg JSON readers (private to src/iceberg).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::iceberg::internal {

//! kData error "<what>: <problem>; check the metadata/request JSON".
std::unexpected<Error> JsonError(std::string_view what, std::string_view problem);

//! The member `key` of object `json`, or kData naming `what` and `key` when missing/null.
Result<const nlohmann::json*> Member(const nlohmann::json& json, std::string_view key,
                                     std::string_view what);
Result<int64_t> GetInt64(const nlohmann::json& json, std::string_view key, std::string_view what);
Result<int32_t> GetInt32(const nlohmann::json& json, std::string_view key, std::string_view what);
Result<std::string> GetString(const nlohmann::json& json, std::string_view key,
                              std::string_view what);
Result<bool> GetBool(const nlohmann::json& json, std::string_view key, std::string_view what);
//! nullopt when absent or null; error when present with the wrong type.
Result<std::optional<int64_t>> GetOptionalInt64(const nlohmann::json& json, std::string_view key,
                                                std::string_view what);
Result<std::optional<int32_t>> GetOptionalInt32(const nlohmann::json& json, std::string_view key,
                                                std::string_view what);
Result<std::optional<std::string>> GetOptionalString(const nlohmann::json& json,
                                                     std::string_view key, std::string_view what);
//! Checks `json` is an object (kData naming `what` otherwise).
Status ExpectObject(const nlohmann::json& json, std::string_view what);

}  // namespace databox::iceberg::internal
