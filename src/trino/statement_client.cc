#include "trino/statement_client.h"

#include <nlohmann/json.hpp>

namespace databox::trino {
namespace {

//! Statements databox runs are small DDL: a few seconds each; a query that keeps returning a
//! nextUri this many times is reported rather than followed forever.
constexpr int kMaxPolls = 100'000;

http::Headers TrinoHeaders(const StatementOptions& options) {
  return {{"X-Trino-User", options.user}, {"X-Trino-Source", options.source}};
}

//! One page of the protocol: the error it reports, else the next URI ("" when finished).
Result<std::string> NextUri(const http::Response& response, const std::string& what) {
  if (!response.ok()) {
    return MakeError(ErrorKind::kNetwork,
                     what + ": Trino answered HTTP " + std::to_string(response.status));
  }
  auto page = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (!page.is_object()) return MakeError(ErrorKind::kData, what + ": Trino's answer is not JSON");
  if (auto error = page.find("error"); error != page.end() && error->is_object()) {
    std::string name = error->value("errorName", "");
    std::string message = error->value("message", "the statement failed");
    return MakeError(ErrorKind::kData,
                     what + ": Trino: " + (name.empty() ? "" : name + ": ") + message);
  }
  if (auto next = page.find("nextUri"); next != page.end() && next->is_string()) {
    return next->get<std::string>();
  }
  return std::string();
}

}  // namespace

Status StatementClient::Execute(const std::string& sql) {
  const std::string what = "Trino at " + options_.uri;
  http::Request request;
  request.method = http::Method::kPost;
  request.url = options_.uri + "/v1/statement";
  request.headers = TrinoHeaders(options_);
  request.headers.Set("Content-Type", "text/plain; charset=utf-8");
  request.body = sql;
  request.allow_error_status = true;
  auto response = http_.Send(std::move(request));
  if (!response) return std::unexpected(response.error().WithContext(what));
  DATABOX_ASSIGN_OR_RETURN(std::string next, NextUri(*response, what));
  for (int polls = 0; !next.empty(); ++polls) {
    if (polls == kMaxPolls) {
      return MakeError(ErrorKind::kNetwork, what + ": the statement did not finish");
    }
    auto page = http_.Get(next, TrinoHeaders(options_));
    if (!page) return std::unexpected(page.error().WithContext(what));
    DATABOX_ASSIGN_OR_RETURN(next, NextUri(*page, what));
  }
  return {};
}

Status StatementClient::CheckReady() {
  const std::string what = "Trino at " + options_.uri;
  auto response = http_.Get(options_.uri + "/v1/info", TrinoHeaders(options_));
  if (!response) return std::unexpected(response.error().WithContext(what));
  auto info = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (!info.is_object()) return MakeError(ErrorKind::kNetwork, what + ": /v1/info is not JSON");
  if (info.value("starting", false)) {
    return MakeError(ErrorKind::kNetwork, what + " is still starting");
  }
  return {};
}

}  // namespace databox::trino
