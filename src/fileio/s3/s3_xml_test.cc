#include "fileio/s3/s3_xml.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace databox::fileio::s3 {
namespace {

using ::testing::HasSubstr;

// Shaped like the ListObjectsV2 example in the S3 API reference, plus an escaped key.
constexpr std::string_view kListPage = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name>
  <Prefix>data/</Prefix>
  <KeyCount>2</KeyCount>
  <MaxKeys>1000</MaxKeys>
  <IsTruncated>true</IsTruncated>
  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
  <Contents>
    <Key>data/a&amp;b &lt;1&gt;.parquet</Key>
    <LastModified>2009-10-12T17:50:30.000Z</LastModified>
    <ETag>"fba9dede5f27731c9771645a39863328"</ETag>
    <Size>434234</Size>
    <StorageClass>STANDARD</StorageClass>
  </Contents>
  <Contents>
    <Key>data/caf&#xE9;/x&#47;y</Key>
    <Size>0</Size>
  </Contents>
</ListBucketResult>)";

TEST(S3XmlTest, ParsesListPageWithEscapedKeys) {
  Result<ListPage> page = ParseListObjectsV2(kListPage);
  ASSERT_TRUE(page) << page.error().ToString();
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "data/a&b <1>.parquet");
  EXPECT_EQ(page->objects[0].size, 434234u);
  EXPECT_EQ(page->objects[1].key, "data/caf\xc3\xa9/x/y");
  EXPECT_EQ(page->objects[1].size, 0u);
  EXPECT_EQ(page->objects[0].modified_ms, int64_t{1255369830000});  // date -u -d ... +%s
  EXPECT_EQ(page->objects[1].modified_ms, std::nullopt);
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(page->next_continuation_token, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
}

TEST(S3XmlTest, TimestampsAreUtcWithAnyFractionAndNothingElse) {
  EXPECT_EQ(ParseS3Timestamp("1970-01-01T00:00:00Z"), int64_t{0});
  EXPECT_EQ(ParseS3Timestamp("1970-01-01T00:00:01.5Z"), int64_t{1500});
  EXPECT_EQ(ParseS3Timestamp("2024-02-29T23:59:59.123456Z"), int64_t{1709251199123});
  EXPECT_EQ(ParseS3Timestamp("2024-02-30T00:00:00Z"), std::nullopt);
  EXPECT_EQ(ParseS3Timestamp("2024-01-01 00:00:00Z"), std::nullopt);
  EXPECT_EQ(ParseS3Timestamp("2024-01-01T00:00:00+01:00"), std::nullopt);
  EXPECT_EQ(ParseS3Timestamp("2024-01-01T00:00:00.Z"), std::nullopt);
  EXPECT_EQ(ParseS3Timestamp("Mon, 01 Jan 2024 00:00:00 GMT"), std::nullopt);
}

TEST(S3XmlTest, EmptyLastPage) {
  Result<ListPage> page = ParseListObjectsV2(
      "<ListBucketResult><Name>b</Name><Prefix>none/</Prefix><KeyCount>0</KeyCount>"
      "<IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(page);
  EXPECT_TRUE(page->objects.empty());
  EXPECT_FALSE(page->truncated);
}

TEST(S3XmlTest, RejectsMalformedListings) {
  EXPECT_EQ(ParseListObjectsV2("<html>proxy error</html>").error().kind, ErrorKind::kData);
  EXPECT_EQ(ParseListObjectsV2("<ListBucketResult><IsTruncated>true</IsTruncated>"
                               "</ListBucketResult>")
                .error()
                .kind,
            ErrorKind::kData);
  EXPECT_EQ(ParseListObjectsV2("<ListBucketResult><Contents><Key>k</Key><Size>12x</Size>"
                               "</Contents></ListBucketResult>")
                .error()
                .kind,
            ErrorKind::kData);
}

TEST(S3XmlTest, ResponsesThatAreNotWellFormedXmlAreDataErrors) {
  Result<ListPage> truncated = ParseListObjectsV2("<ListBucketResult><Contents><Key>k</Key>");
  ASSERT_FALSE(truncated);
  EXPECT_EQ(truncated.error().kind, ErrorKind::kData);
  EXPECT_THAT(truncated.error().message, HasSubstr("S3 listing response is not well-formed XML"));
  EXPECT_THAT(truncated.error().message, HasSubstr("line 1"));
  EXPECT_THAT(truncated.error().message, HasSubstr("S3-compatible service"));

  Result<std::string> id =
      ParseUploadId("<InitiateMultipartUploadResult><UploadId>x</Upload></Initiate>");
  ASSERT_FALSE(id);
  EXPECT_EQ(id.error().kind, ErrorKind::kData);
  EXPECT_THAT(id.error().message, HasSubstr("CreateMultipartUpload response is not well-formed"));

  // Error bodies from proxies and load balancers are often not XML: no S3 error, no failure.
  EXPECT_FALSE(ParseS3Error(""));
  EXPECT_FALSE(ParseS3Error("Service Unavailable"));
  EXPECT_FALSE(ParseS3Error("<html><body>502 Bad Gateway<hr></body></html>"));
}

TEST(S3XmlTest, ElementNamesMatchExactlyAndAttributesAreSkipped) {
  std::string_view xml = "<r><Keys>no</Keys><Key a=\"1\">yes</Key><KeyCount>3</KeyCount><Key/></r>";
  Result<std::vector<std::string>> keys = XmlTexts(xml, "Key");
  ASSERT_TRUE(keys) << keys.error().ToString();
  ASSERT_EQ(keys->size(), 2u);
  EXPECT_EQ((*keys)[0], "yes");
  EXPECT_EQ((*keys)[1], "");
}

TEST(S3XmlTest, UploadIdAndErrors) {
  Result<std::string> id = ParseUploadId(
      "<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key>"
      "<UploadId>VXBsb2FkIElE&amp;x</UploadId></InitiateMultipartUploadResult>");
  ASSERT_TRUE(id);
  EXPECT_EQ(*id, "VXBsb2FkIElE&x");
  EXPECT_EQ(ParseUploadId("<InitiateMultipartUploadResult/>").error().kind, ErrorKind::kData);

  std::optional<S3ErrorBody> error = ParseS3Error(
      "<?xml version=\"1.0\"?><Error><Code>SlowDown</Code><Message>Please reduce your request "
      "rate.</Message><RequestId>1</RequestId></Error>");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code, "SlowDown");
  EXPECT_EQ(error->message, "Please reduce your request rate.");
  EXPECT_FALSE(ParseS3Error("<CompleteMultipartUploadResult/>"));
}

TEST(S3XmlTest, TextDecodesCdataAndReferencesAndRefusesUnknownEntities) {
  EXPECT_EQ(XmlTexts("<v><![CDATA[a<b]]>&amp;&#65;</v>", "v").value(),
            std::vector<std::string>{"a<b&A"});
  EXPECT_EQ(XmlTexts("<v>&#x1F600;</v>", "v").value(),
            std::vector<std::string>{"\xF0\x9F\x98\x80"});
  // An undeclared entity is not well-formed XML (the hand-written scanner kept it as written).
  Result<std::vector<std::string>> bogus = XmlTexts("<v>&bogus;</v>", "v");
  ASSERT_FALSE(bogus);
  EXPECT_EQ(bogus.error().kind, ErrorKind::kData);
  EXPECT_THAT(bogus.error().message, HasSubstr("not well-formed XML"));
  EXPECT_THAT(bogus.error().message, HasSubstr("bogus"));
}

TEST(S3XmlTest, CompleteBodyListsPartsWithEscapedEtags) {
  std::string xml = CompleteMultipartUploadXml({{1, "\"e1\""}, {2, "\"e2\""}});
  EXPECT_EQ(xml,
            "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            "<Part><PartNumber>1</PartNumber><ETag>&quot;e1&quot;</ETag></Part>"
            "<Part><PartNumber>2</PartNumber><ETag>&quot;e2&quot;</ETag></Part>"
            "</CompleteMultipartUpload>");
}

}  // namespace
}  // namespace databox::fileio::s3
