#include "iceberg/metadata/metadata_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace databox::iceberg {
namespace {

using testing::MatchesRegex;

TEST(MetadataVersion, ParsesLeadingNumber) {
  EXPECT_EQ(MetadataVersion("s3://b/t/metadata/00012-0a1b.metadata.json"), 12);
  EXPECT_EQ(MetadataVersion("/t/metadata/00000-x.metadata.json"), 0);
  EXPECT_EQ(MetadataVersion("/t/metadata/v3.metadata.json"), std::nullopt);
  EXPECT_EQ(MetadataVersion("/t/metadata/abc-1.metadata.json"), std::nullopt);
}

TEST(NewMetadataLocation, NumbersVersionsInTheMetadataFolder) {
  TableMetadata m;
  m.location = "file:///w/ns/t/";
  std::string first = NewMetadataLocation(m, std::nullopt);
  EXPECT_THAT(first, MatchesRegex("file:///w/ns/t/metadata/00000-[0-9a-f-]{36}\\.metadata\\.json"));
  EXPECT_THAT(NewMetadataLocation(m, first), MatchesRegex(".*/metadata/00001-.*"));
  EXPECT_NE(NewMetadataLocation(m, first), NewMetadataLocation(m, first));

  m.properties["write.metadata.path"] = "s3://other/meta";
  m.metadata_log.resize(7);
  EXPECT_THAT(NewMetadataLocation(m, std::string("/x/v7.metadata.json")),
              MatchesRegex("s3://other/meta/00007-.*\\.metadata\\.json"));
}

}  // namespace
}  // namespace databox::iceberg
