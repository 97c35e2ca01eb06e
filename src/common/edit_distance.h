// Levenshtein distance, for "did you mean" hints: the registry's unknown keys and the replay's
// unmatched requests name the closest known spelling.
#pragma once

#include <cstddef>
#include <string_view>

namespace databox {

//! The fewest single-byte insertions, deletions and substitutions that turn `a` into `b`.
//! O(|a|·|b|) time, O(|b|) memory.
std::size_t EditDistance(std::string_view a, std::string_view b);

}  // namespace databox
