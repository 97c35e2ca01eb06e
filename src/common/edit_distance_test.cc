#include "common/edit_distance.h"

#include <gtest/gtest.h>

namespace databox {
namespace {

TEST(EditDistanceTest, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("same", "same"), 0u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);  // the textbook example
  EXPECT_EQ(EditDistance("flaw", "lawn"), 2u);
  EXPECT_EQ(EditDistance("page_size", "pagesize"), 1u);
  EXPECT_EQ(EditDistance("ab", "ba"), 2u);  // no transpositions: two substitutions
}

TEST(EditDistanceTest, ClosestNameIsTheNearestWithinTheLimit) {
  const std::vector<std::string> names = {"noaa", "usgs", "avonet"};
  EXPECT_EQ(ClosestName("noa", names, 2), "noaa");
  EXPECT_EQ(ClosestName("usgs", names, 0), "usgs");
  EXPECT_EQ(ClosestName("avonte", names, 2), "avonet");
  EXPECT_EQ(ClosestName("weather", names, 2), std::nullopt);
  EXPECT_EQ(ClosestName("x", {}, 5), std::nullopt);
}

}  // namespace
}  // namespace databox
