#include "source/signed_url.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

namespace databox::source {
namespace {

constexpr std::array<std::string_view, 6> kPresignedKeys = {
    "X-Amz-Algorithm", "X-Amz-Credential",    "X-Amz-Date",
    "X-Amz-Expires",   "X-Amz-SignedHeaders", "X-Amz-Signature",
};
constexpr std::size_t kMaxQuotedKey = 40;

std::string QuotedKey(std::string_view key) {
  return "'" + std::string(key.substr(0, kMaxQuotedKey)) +
         (key.size() > kMaxQuotedKey ? "...'" : "'");
}

//! Empty when `value` is a whole number of seconds in 1..kMaxPresignedExpiresSeconds.
std::string ExpiresProblem(std::string_view value) {
  int seconds = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  const bool whole = ec == std::errc() && ptr == value.data() + value.size() &&
                     std::ranges::all_of(value, [](char c) { return c >= '0' && c <= '9'; });
  if (whole && seconds >= 1 && seconds <= kMaxPresignedExpiresSeconds) return "";
  return "X-Amz-Expires is '" + std::string(value.substr(0, kMaxQuotedKey)) + "', expected 1.." +
         std::to_string(kMaxPresignedExpiresSeconds) + " seconds";
}

}  // namespace

std::string PresignedUrlProblem(std::string_view location, std::string_view expected_url) {
  if (location.find('#') != std::string_view::npos) return "the URL has a fragment";
  const std::size_t q = location.find('?');
  if (location.substr(0, q) != expected_url) return "the URL is not " + std::string(expected_url);
  if (q == std::string_view::npos || q + 1 == location.size()) {
    return "the URL has no signed query (expected the keys X-Amz-Algorithm, X-Amz-Credential, "
           "X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders, X-Amz-Signature)";
  }
  std::array<int, kPresignedKeys.size()> seen{};
  std::string_view query = location.substr(q + 1);
  while (true) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const std::size_t eq = pair.find('=');
    const std::string_view key = pair.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : pair.substr(eq + 1);
    const auto known = std::ranges::find(kPresignedKeys, key);
    if (known == kPresignedKeys.end()) {
      return "the signed query has the unexpected key " + QuotedKey(key);
    }
    const std::size_t index = static_cast<std::size_t>(known - kPresignedKeys.begin());
    if (++seen[index] > 1) return "the signed query has " + std::string(key) + " twice";
    if (value.empty()) return "the signed query has " + std::string(key) + " without a value";
    if (key == "X-Amz-Expires") {
      if (std::string problem = ExpiresProblem(value); !problem.empty()) return problem;
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  std::string missing;
  for (std::size_t i = 0; i < kPresignedKeys.size(); ++i) {
    if (seen[i] == 0) missing += (missing.empty() ? "" : ", ") + std::string(kPresignedKeys[i]);
  }
  if (!missing.empty()) return "the signed query lacks " + missing;
  return "";
}

}  // namespace databox::source
