#include "sources/usfws/usfws_detail.h"

#include <gtest/gtest.h>

#include "sources/usfws/test_util.h"

namespace databox::source {
namespace {

using testing::UsfwsFixture;

DetailFields ParseDetail(const std::string& html) {
  auto fields = ParseDetailPage(html);
  EXPECT_TRUE(fields.has_value()) << fields.error().ToString();
  return fields.value_or(DetailFields{});
}

TEST(UsfwsDetailTest, ReadsAPublicDomainPage) {
  const DetailFields d = ParseDetail(UsfwsFixture("media_perched.html"));
  EXPECT_EQ(d.status, DetailStatus::kOk);
  EXPECT_EQ(d.title, "Rufous hummingbird perched");  // the overlay title, collapsed
  EXPECT_EQ(d.caption, "A male rufous hummingbird rests on a twig.");
  EXPECT_EQ(d.alt_text, "Rufous hummingbird perched on a twig");  // not the logo's
  EXPECT_EQ(d.creator, "Jane Observer");
  EXPECT_EQ(d.license, "Public Domain");
  EXPECT_EQ(d.license_url, std::nullopt);
  EXPECT_EQ(d.created_text, "06/21/2024 Date Shot/Created");
  EXPECT_EQ(d.published_at, "2024-06-21");
  EXPECT_EQ(d.media_type, "Image");
  EXPECT_EQ(d.mime_type, "image/jpeg");
  EXPECT_EQ(d.medium_url,
            "https://www.fws.gov/sites/default/files/styles/max_650x650/public/"
            "rufous-perched.jpg?itok=d");
  EXPECT_EQ(d.medium_width, 650);
  EXPECT_EQ(d.medium_height, 406);
  EXPECT_EQ(d.original_url, "https://www.fws.gov/sites/default/files/images/rufous-perched.jpg");
  EXPECT_EQ(d.original_width, 1600);
  EXPECT_EQ(d.original_height, 1000);
  EXPECT_EQ(d.scientific_name_tags_json, "[\"Selasphorus rufus\",\"Trochilidae x\"]");
  EXPECT_EQ(d.species_tag_urls_json,
            "[\"https://www.fws.gov/species/rufous-hummingbird-selasphorus-rufus\","
            "\"https://www.fws.gov/species/hummingbirds\"]");
  EXPECT_EQ(d.subject_tags_json, "[\"Birds\",\"Pollinators & nectar\",\"Caf\\u00e9 birds\"]");
}

TEST(UsfwsDetailTest, MediumFallbackCreatorParagraphAndLicenceLink) {
  const DetailFields d = ParseDetail(UsfwsFixture("media_flight.html"));
  EXPECT_EQ(d.status, DetailStatus::kOk);
  EXPECT_EQ(d.title, "Rufous in flight");  // no overlay: field--name-name, not the outer <h1>
  // The widest non-WebP source at most 992 wide; of two at 768 the earlier.
  EXPECT_EQ(d.medium_url, "https://www.fws.gov/styles/scale_width_768/rufous-flight.png?itok=3");
  EXPECT_EQ(d.medium_width, 768);
  EXPECT_EQ(d.medium_height, 512);
  EXPECT_EQ(d.mime_type, "image/png");
  EXPECT_EQ(d.alt_text, "A rufous hummingbird hovers");
  EXPECT_EQ(d.creator, "Sam Birder");
  EXPECT_EQ(d.created_text, "02/30/2023 Date Shot/Created");
  EXPECT_EQ(d.published_at, std::nullopt);  // February 30th
  EXPECT_EQ(d.license, "CC BY-NC 4.0");
  EXPECT_EQ(d.license_url, "https://creativecommons.org/licenses/by-nc/4.0/");
  EXPECT_EQ(d.media_type, std::nullopt);
  EXPECT_EQ(d.caption, std::nullopt);
  EXPECT_EQ(d.scientific_name_tags_json, "[]");
  EXPECT_EQ(d.species_tag_urls_json, "[]");
  EXPECT_EQ(d.subject_tags_json, "[]");
}

TEST(UsfwsDetailTest, RightsStatuses) {
  const std::string field = "<div class='field--name-field-creative-commons-license'>";
  EXPECT_EQ(ParseDetail("<p>no licence</p>").status, DetailStatus::kMissingRights);
  const DetailFields empty = ParseDetail(field + "<div class='field--item'> </div></div>");
  EXPECT_EQ(empty.status, DetailStatus::kMissingRights);
  EXPECT_EQ(empty.license, std::nullopt);
  EXPECT_EQ(empty.license_url, std::nullopt);

  const DetailFields two =
      ParseDetail(field +
                  "<div class='field--item'>CC BY 2.0</div>"
                  "<div class='field--item'><a href='/licence'>Caf&eacute;</a> "
                  "<a href='https://x.example/l'>l</a></div></div>");
  EXPECT_EQ(two.status, DetailStatus::kAmbiguousRights);
  EXPECT_EQ(two.license, "[\"CC BY 2.0\",\"Caf\\u00e9 l\"]");
  EXPECT_EQ(two.license_url, "[\"https://www.fws.gov/licence\",\"https://x.example/l\"]");

  const DetailFields two_links = ParseDetail(field +
                                             "<div class='field--item'>CC0 <a href='/a'>a</a> "
                                             "<a href='/b'>b</a></div></div>");
  EXPECT_EQ(two_links.status, DetailStatus::kAmbiguousRights);
  EXPECT_EQ(two_links.license, "[\"CC0 a b\"]");
  EXPECT_EQ(two_links.license_url, "[\"https://www.fws.gov/a\",\"https://www.fws.gov/b\"]");
}

TEST(UsfwsDetailTest, CreatorLabelIsDroppedAndEmptyIsNull) {
  EXPECT_EQ(ParseDetail("<div class='image-credit'><div>Photo By/Credit</div></div>").creator,
            std::nullopt);
  EXPECT_EQ(ParseDetail("<div class='image-credit'>Photo By/Credit <b>Kim</b></div>").creator,
            "Kim");
}

TEST(UsfwsDetailTest, TitleFallsBackToTheFirstHeading) {
  EXPECT_EQ(ParseDetail("<h1> Big  title </h1><h1>second</h1>").title, "Big title");
  EXPECT_EQ(ParseDetail("<p>none</p>").title, std::nullopt);
}

TEST(UsfwsDetailTest, ByteOrderMarkIsAllowedOtherBytesAbort) {
  EXPECT_EQ(ParseDetail("\xEF\xBB\xBF<div class='media-type'>Image</div>").media_type, "Image");
  auto bad = ParseDetailPage("<p>caf\xE9</p>");  // Latin-1
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind, ErrorKind::kData);
}

TEST(UsfwsDetailTest, SafeUrls) {
  EXPECT_TRUE(IsSafeDetailUrl("https://www.fws.gov/media/berylline-hummingbird-0"));
  EXPECT_TRUE(IsSafeDetailUrl("https://WWW.FWS.GOV/media/a"));
  EXPECT_FALSE(IsSafeDetailUrl("http://www.fws.gov/media/a"));
  EXPECT_FALSE(IsSafeDetailUrl("https://www.fws.gov:443/media/a"));
  EXPECT_FALSE(IsSafeDetailUrl("https://user@www.fws.gov/media/a"));
  EXPECT_FALSE(IsSafeDetailUrl("https://fws.gov/media/a"));
  EXPECT_FALSE(IsSafeDetailUrl("https://www.fws.gov/media/a?x=1"));
  EXPECT_FALSE(IsSafeDetailUrl("https://www.fws.gov/media/a#top"));
  EXPECT_FALSE(IsSafeDetailUrl("https://www.fws.gov/media/A"));
  EXPECT_FALSE(IsSafeDetailUrl("https://www.fws.gov/media/-a"));
  EXPECT_FALSE(IsSafeDetailUrl("https://www.fws.gov/media/a/b"));
  EXPECT_FALSE(IsSafeDetailUrl("https://www.fws.gov/media/"));
  EXPECT_FALSE(IsSafeDetailUrl("https://www.fws.gov/species/a"));
  EXPECT_FALSE(IsSafeDetailUrl("https://partners.example.org/media/a"));
}

TEST(UsfwsDetailTest, CreatedDatesAndMimeTypes) {
  EXPECT_EQ(CreatedDate("08/29/2021 Date Shot/Created"), "2021-08-29");
  EXPECT_EQ(CreatedDate("shot 02/29/2024, edited 03/01/2024"), "2024-02-29");
  EXPECT_EQ(CreatedDate("02/29/2023"), std::nullopt);
  EXPECT_EQ(CreatedDate("13/01/2023"), std::nullopt);
  EXPECT_EQ(CreatedDate("123/01/2023"), std::nullopt);
  EXPECT_EQ(CreatedDate("no date"), std::nullopt);
  EXPECT_EQ(MimeTypeOfUrl("https://www.fws.gov/a/b.JPEG?itok=x"), "image/jpeg");
  EXPECT_EQ(MimeTypeOfUrl("https://www.fws.gov/a/b.png"), "image/png");
  EXPECT_EQ(MimeTypeOfUrl("https://www.fws.gov/a/b.tif"), "image/tiff");
  EXPECT_EQ(MimeTypeOfUrl("https://www.fws.gov/a.png/b"), std::nullopt);
  EXPECT_EQ(MimeTypeOfUrl("https://www.fws.gov/a/b.pdf"), std::nullopt);
}

}  // namespace
}  // namespace databox::source
