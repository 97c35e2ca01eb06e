#include "common/edit_distance.h"

#include <algorithm>
#include <vector>

namespace databox {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> ClosestName(std::string_view name,
                                       const std::vector<std::string>& candidates,
                                       std::size_t max_distance) {
  std::optional<std::string> closest;
  std::size_t closest_distance = max_distance + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = EditDistance(name, candidate);
    if (distance < closest_distance) {
      closest = candidate;
      closest_distance = distance;
    }
  }
  return closest;
}

std::optional<std::string> LikelyMeant(std::string_view name,
                                       const std::vector<std::string>& candidates) {
  return ClosestName(name, candidates, std::max<std::size_t>(2, name.size() / 3));
}

std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates) {
  const std::optional<std::string> meant = LikelyMeant(name, candidates);
  return meant ? " (did you mean '" + *meant + "'?)" : "";
}

}  // namespace databox
