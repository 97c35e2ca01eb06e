// Levenshtein distance, for "did you mean" hints: the registry's unknown keys and the replay's
// unmatched requests name the closest known spelling.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace databox {

//! The fewest single-byte insertions, deletions and substitutions that turn `a` into `b`.
//! O(|a|·|b|) time, O(|b|) memory.
std::size_t EditDistance(std::string_view a, std::string_view b);

//! The candidate closest to `name` (the first of equally close ones) when it is at most
//! `max_distance` edits away; nullopt otherwise.
std::optional<std::string> ClosestName(std::string_view name,
                                       const std::vector<std::string>& candidates,
                                       std::size_t max_distance);

//! What a misspelt `name` most likely meant: the closest candidate within max(2, |name| / 3)
//! edits, the one rule of every "did you mean" (registry keys, columns, commands, sources);
//! nullopt when none is that close.
std::optional<std::string> LikelyMeant(std::string_view name,
                                       const std::vector<std::string>& candidates);

//! " (did you mean 'X'?)" with X = LikelyMeant(name, candidates); "" when none is that close.
std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace databox
