#include "catalog/rest/storage_credentials.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "common/redact.h"

namespace databox::catalog::rest {
namespace {

bool IsSecretKey(std::string_view key) {
  return key.find("secret") != std::string_view::npos ||
         key.find("token") != std::string_view::npos || key.find("sas") != std::string_view::npos;
}

std::optional<int64_t> ParseMillis(const std::map<std::string, std::string>& config) {
  for (const char* key : {"s3.session-token-expires-at-ms", "expiration-time"}) {
    auto it = config.find(key);
    if (it == config.end()) continue;
    int64_t value = 0;
    auto [end, ec] =
        std::from_chars(it->second.data(), it->second.data() + it->second.size(), value);
    if (ec == std::errc() && end == it->second.data() + it->second.size()) return value;
  }
  return std::nullopt;
}

std::map<std::string, std::string> SecretAwareStringMap(const nlohmann::json& object) {
  std::map<std::string, std::string> out;
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items()) {
    if (!value.is_string()) continue;
    if (IsSecretKey(key)) RegisterSecret(value.get<std::string>());
    out[key] = value.get<std::string>();
  }
  return out;
}

}  // namespace

std::vector<StorageCredential> ParseStorageCredentials(const nlohmann::json& load_result,
                                                       std::string_view table_location) {
  std::vector<StorageCredential> out;
  if (!load_result.is_object()) return out;
  if (auto it = load_result.find("storage-credentials");
      it != load_result.end() && it->is_array()) {
    for (const auto& entry : *it) {
      if (!entry.is_object() || !entry.contains("prefix") || !entry["prefix"].is_string()) continue;
      StorageCredential credential;
      credential.prefix = entry["prefix"].get<std::string>();
      credential.config = SecretAwareStringMap(entry.value("config", nlohmann::json::object()));
      credential.expires_at_ms = ParseMillis(credential.config);
      out.push_back(std::move(credential));
    }
  }
  if (auto it = load_result.find("config"); it != load_result.end() && it->is_object()) {
    auto config = SecretAwareStringMap(*it);
    if (config.contains("s3.access-key-id")) {
      StorageCredential credential;
      credential.prefix = std::string(table_location);
      for (auto& [key, value] : config) {
        if (key.starts_with("s3.") || key.starts_with("client.") || key == "expiration-time") {
          credential.config[key] = value;
        }
      }
      credential.expires_at_ms = ParseMillis(credential.config);
      out.push_back(std::move(credential));
    }
  }
  return out;
}

const StorageCredential* FindCredential(const std::vector<StorageCredential>& credentials,
                                        std::string_view location) {
  const StorageCredential* best = nullptr;
  for (const auto& credential : credentials) {
    if (!location.starts_with(credential.prefix)) continue;
    if (best == nullptr || credential.prefix.size() > best->prefix.size()) best = &credential;
  }
  return best;
}

}  // namespace databox::catalog::rest
