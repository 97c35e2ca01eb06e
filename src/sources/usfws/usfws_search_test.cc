#include "sources/usfws/usfws_search.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sources/usfws/test_util.h"

namespace databox::source {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RecordingTiming;
using testing::ScriptedSite;
using testing::SearchBody;
using testing::UsfwsFixture;

const Target kSearchedRufhum{"rufhum", "Rufous Hummingbird", "Selasphorus rufus", 1};

TEST(UsfwsQueriesTest, ThreeSearchesWithEncodedSortedParameters) {
  const auto queries =
      QueriesFor(Target{"berhum", "Berylline Hummingbird", "Amazilia beryllina", 1});
  ASSERT_EQ(queries.size(), 3u);
  EXPECT_EQ(queries[0].label, "species_facet");
  EXPECT_EQ(queries[1].label, "exact_common_name");
  EXPECT_EQ(queries[2].label, "exact_scientific_name");
  // The URLs of the acceptance recording, byte for byte.
  EXPECT_EQ(PageUrl(queries[0], 0),
            "https://www.fws.gov/fws_search/search_images?%24orderby=field_document_publication_"
            "date+desc&%24skip=0&%24top=100&species=%5B%22Berylline+Hummingbird%22%5D");
  EXPECT_EQ(PageUrl(queries[1], 0),
            "https://www.fws.gov/fws_search/global_search?%24keywords=%22Berylline+Hummingbird%22&"
            "%24orderby=search_api_relevance+desc&%24skip=0&%24top=100&type=%5B%22Image%22%5D");
  EXPECT_EQ(PageUrl(queries[2], 200),
            "https://www.fws.gov/fws_search/global_search?%24keywords=%22Amazilia+beryllina%22&"
            "%24orderby=search_api_relevance+desc&%24skip=200&%24top=100&type=%5B%22Image%22%5D");
  const auto accented = QueriesFor(Target{"x", "Pi\xC3\xB1on Jay", "Gymnorhinus", 1});
  EXPECT_THAT(PageUrl(accented[0], 0), HasSubstr("species=%5B%22Pi%5Cu00f1on+Jay%22%5D"));
}

TEST(UsfwsSearchPageTest, ShapeAndFacetRules) {
  const SearchQuery facet = QueriesFor(kSearchedRufhum)[0];
  const SearchQuery global = QueriesFor(kSearchedRufhum)[1];
  auto error_of = [](const std::string& body, const SearchQuery& q) {
    auto page = ParseSearchPage(body, q, "where");
    EXPECT_FALSE(page.has_value()) << body;
    return page ? "" : page.error().message;
  };
  EXPECT_THAT(error_of("not json", facet), HasSubstr("is not JSON"));
  EXPECT_THAT(error_of("[]", facet), HasSubstr("not a JSON object"));
  EXPECT_THAT(error_of(R"({"_meta":{"total":0}})", facet), HasSubstr("no array 'list'"));
  EXPECT_THAT(error_of(R"({"list":[]})", facet), HasSubstr("no object '_meta'"));
  EXPECT_THAT(error_of(R"({"list":[],"_meta":{"total":1.5}})", facet), HasSubstr("integer"));
  EXPECT_THAT(error_of(R"({"list":[],"_meta":{"total":-1}})", facet), HasSubstr(">= 0"));
  EXPECT_THAT(error_of(SearchBody(1, {"<div></div>"}, "species", "Other Bird"), facet),
              HasSubstr("does not confirm the filter"));
  EXPECT_THAT(error_of(SearchBody(1, {"<div></div>"}, "type", "Image"), facet),
              HasSubstr("_meta.facets.species"));
  EXPECT_THAT(error_of(R"({"list":["a"],"_meta":{"total":1,"facets":{"type":[{"filter":"Image",)"
                       R"("count":2}]}}})",
                       global),
              HasSubstr("does not confirm"));
  EXPECT_THAT(error_of(R"({"list":[7],"_meta":{"total":1,"facets":{"type":[{"filter":"Image",)"
                       R"("count":1}]}}})",
                       global),
              HasSubstr("not an HTML string"));
  auto empty = ParseSearchPage(R"({"list":[],"_meta":{"total":0}})", facet, "where");
  ASSERT_TRUE(empty.has_value());  // no facet needed when nothing was found
  EXPECT_EQ(empty->total, 0);
}

class UsfwsSearchTargetTest : public ::testing::Test {
 protected:
  std::string Url(int query, int64_t offset) {
    return PageUrl(QueriesFor(kSearchedRufhum)[query], offset);
  }
  void ScriptEmpty(int query) {
    site_.Add(Url(query, 0), 200, R"({"list":[],"_meta":{"total":0}})");
  }
  Result<std::vector<Candidate>> Search(int max_images = 500) {
    UsfwsFetcher fetcher(site_, RequestPolicy{.max_attempts = 2, .user_agent = "test"}, timing_);
    return SearchTarget(fetcher, kSearchedRufhum, max_images);
  }
  std::string AbortOf(int max_images = 500) {
    auto got = Search(max_images);
    EXPECT_FALSE(got.has_value());
    return got ? "" : got.error().message;
  }
  ScriptedSite site_;
  RecordingTiming timing_;
};

TEST_F(UsfwsSearchTargetTest, PagesUntilTotalAndMergesByPageUrl) {
  const std::string perched = UsfwsFixture("card_perched.html");
  const std::string flight = UsfwsFixture("card_flight.html");
  // species_facet: 2 results over two pages (the site may send fewer than $top).
  site_.Add(Url(0, 0), 200, SearchBody(2, {perched}, "species", "Rufous Hummingbird"));
  site_.Add(Url(0, 1), 200, SearchBody(2, {flight}, "species", "Rufous Hummingbird"));
  site_.Add(Url(1, 0), 200, SearchBody(1, {perched}, "type", "Image"));
  ScriptEmpty(2);
  auto got = Search();
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].card.media_id, "rufous-hummingbird-perched");
  EXPECT_EQ((*got)[0].labels, (std::set<std::string>{"exact_common_name", "species_facet"}));
  EXPECT_EQ((*got)[0].endpoints, (std::set<std::string>{std::string(kGlobalSearchEndpoint),
                                                        std::string(kSearchImagesEndpoint)}));
  EXPECT_EQ((*got)[1].card.media_id, "rufous-hummingbird-flight");
  EXPECT_EQ((*got)[1].labels, std::set<std::string>{"species_facet"});
  EXPECT_EQ(site_.requests().size(), 4u);
}

TEST_F(UsfwsSearchTargetTest, FirstCardWins) {
  std::string other_title = UsfwsFixture("card_perched.html");
  other_title.replace(other_title.find("Rufous hummingbird &amp; twig"), 28, "Second title");
  site_.Add(Url(0, 0), 200,
            SearchBody(1, {UsfwsFixture("card_perched.html")}, "species", "Rufous Hummingbird"));
  site_.Add(Url(1, 0), 200, SearchBody(1, {other_title}, "type", "Image"));
  ScriptEmpty(2);
  auto got = Search();
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ((*got)[0].card.title, "Rufous hummingbird & twig");
}

TEST_F(UsfwsSearchTargetTest, TotalOverTheCapAborts) {
  site_.Add(Url(0, 0), 200, SearchBody(501, {"<div></div>"}, "species", "Rufous Hummingbird"));
  const std::string message = AbortOf();
  EXPECT_THAT(message, HasSubstr("usfws target 'rufhum', search species_facet"));
  EXPECT_THAT(message, HasSubstr("total 501 is over max_images_per_target = 500"));
  EXPECT_THAT(message, Not(HasSubstr("fws.gov")));
}

TEST_F(UsfwsSearchTargetTest, AShortLaterPageAborts) {
  site_.Add(Url(0, 0), 200,
            SearchBody(3, {"<p>1</p>", "<p>2</p>"}, "species", "Rufous Hummingbird"));
  site_.Add(Url(0, 2), 200, SearchBody(3, {}, "species", "Rufous Hummingbird"));
  EXPECT_THAT(AbortOf(), HasSubstr("an empty page after 2 of 3 results"));
}

TEST_F(UsfwsSearchTargetTest, TotalChangingBetweenPagesAborts) {
  site_.Add(Url(0, 0), 200, SearchBody(3, {"<p>1</p>"}, "species", "Rufous Hummingbird"));
  site_.Add(Url(0, 1), 200, SearchBody(4, {"<p>2</p>"}, "species", "Rufous Hummingbird"));
  EXPECT_THAT(AbortOf(), HasSubstr("total changed from 3 to 4 between pages"));
}

TEST_F(UsfwsSearchTargetTest, MoreCardsThanTotalAborts) {
  ScriptEmpty(0);
  site_.Add(Url(1, 0), 200, SearchBody(1, {"<p>1</p>", "<p>2</p>"}, "type", "Image"));
  EXPECT_THAT(AbortOf(), HasSubstr("more results than the total of 1"));
}

TEST_F(UsfwsSearchTargetTest, MoreDistinctImagesThanTheCapAborts) {
  const std::string a = "<div class='field--name-name'><a href='/media/a'>a</a></div>";
  const std::string b = "<div class='field--name-name'><a href='/media/b'>b</a></div>";
  site_.Add(Url(0, 0), 200, SearchBody(1, {a}, "species", "Rufous Hummingbird"));
  site_.Add(Url(1, 0), 200, SearchBody(1, {b}, "type", "Image"));
  ScriptEmpty(2);
  EXPECT_THAT(AbortOf(/*max_images=*/1), HasSubstr("more than max_images_per_target = 1"));
}

TEST_F(UsfwsSearchTargetTest, AFailedRequestAbortsWithoutTheUrl) {
  site_.Add(Url(0, 0), 404, "not here");
  const std::string message = AbortOf();
  EXPECT_THAT(message, HasSubstr("request failed after 1 attempt(s): HTTP 404"));
  EXPECT_THAT(message, Not(HasSubstr("fws.gov")));
  EXPECT_THAT(message, Not(HasSubstr("not here")));
}

}  // namespace
}  // namespace databox::source
