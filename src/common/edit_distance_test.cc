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

}  // namespace
}  // namespace databox
