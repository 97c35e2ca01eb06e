// The rest_json kind: `--limit` lowers every resource's max_records and never raises one, and
// `--record` applies.
#include "source/rest_json_kind.h"

#include <gtest/gtest.h>

namespace databox::source {
namespace {

TEST(RestJsonKindTest, ACapLowersEveryResourcesMaxRecordsAndRaisesNone) {
  registry::Source source;
  source.resources.resize(3);
  source.resources[1].pagination.max_records = 2;
  source.resources[2].pagination.max_records = 50;
  const RestJsonKind kind;
  kind.CapRecords(source, 5);
  EXPECT_EQ(source.resources[0].pagination.max_records, 5);
  EXPECT_EQ(source.resources[1].pagination.max_records, 2);
  EXPECT_EQ(source.resources[2].pagination.max_records, 5);
  EXPECT_TRUE(kind.RecordsResponses());
  EXPECT_TRUE(kind.RunOptions().empty());
}

}  // namespace
}  // namespace databox::source
