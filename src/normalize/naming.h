// dlt's default `snake_case` naming convention (dlt 1.x), reimplemented from its documented rules.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace databox::normalize {

//! Joins nested names: `geometry` + `type` -> `geometry__type`; tables: `taxonomy__banding_codes`.
inline constexpr std::string_view kPathSeparator = "__";
//! The name dlt gives an empty (or blank) object key.
inline constexpr std::string_view kEmptyKeyName = "_empty";

//! One identifier in snake_case: trims spaces; maps `+`,`*` -> `x`, `-` -> `_`, `@` -> `a`,
//! `|` -> `l`; every run of other characters outside [A-Za-z0-9_] -> one `_`; splits words at
//! case changes (`camelCase` -> `camel_case`, `gbifID` -> `gbif_id`, `HTTPServer` ->
//! `http_server`); lower-cases; prefixes `_` to a leading digit; replaces each trailing `_` with
//! `x`; collapses runs of `_`. Longer than `max_length` -> shortened with a hash tag (see
//! ShortenIdentifier). A blank identifier yields kEmptyKeyName.
std::string NormalizeIdentifier(std::string_view identifier,
                                std::optional<std::size_t> max_length = std::nullopt);

//! A path such as `a__b`: split at `__`, each part normalized, rejoined, then the whole shortened.
//! dlt normalizes object keys this way, so a key containing `__` keeps its separators.
std::string NormalizePath(std::string_view path,
                          std::optional<std::size_t> max_length = std::nullopt);

//! Joins already-normalized fragments with `__` (blank ones dropped) and shortens the result.
std::string ShortenFragments(const std::vector<std::string>& fragments,
                             std::optional<std::size_t> max_length = std::nullopt);

//! If `normalized` is longer than `max_length`: keeps its head and tail around a 6-character tag
//! derived from SHAKE-128 of `original` (lower-cased base64, `/`->`a`, `+`->`b`), exactly
//! `max_length` long. Otherwise returns `normalized` unchanged.
std::string ShortenIdentifier(std::string_view normalized, std::string_view original,
                              std::optional<std::size_t> max_length);

}  // namespace databox::normalize
