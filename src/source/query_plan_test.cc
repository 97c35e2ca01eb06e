#include "source/query_plan.h"

#include <gtest/gtest.h>

namespace databox::source {
namespace {

//! A resource whose refinement reserves min(300, max / 10) records for taxonKey 2476855 when
//! max_records >= 600 (the example's GBIF public release).
registry::Resource Refined(std::optional<int64_t> max_records) {
  registry::Resource r;
  r.name = "occurrences";
  r.primary_key = {"key"};
  r.pagination.max_records = max_records;
  r.refine = registry::Refinement{{{"license", "CC_BY_4_0"}},
                                  registry::ReservedQuery{{{"taxonKey", "2476855"}}, 10, 300, 600}};
  return r;
}

TEST(QueryPlanTest, ReservedShareIsATenthCappedAt300) {
  const auto thousand = PlanQueries(Refined(1000));
  ASSERT_EQ(thousand.size(), 2u);
  EXPECT_TRUE(thousand[0].params.empty());
  EXPECT_EQ(thousand[0].max_records, 900);
  EXPECT_EQ(thousand[1].params, (std::map<std::string, std::string>{{"taxonKey", "2476855"}}));
  EXPECT_EQ(thousand[1].max_records, 100);

  const auto five_thousand = PlanQueries(Refined(5000));
  ASSERT_EQ(five_thousand.size(), 2u);
  EXPECT_EQ(five_thousand[0].max_records, 4700);
  EXPECT_EQ(five_thousand[1].max_records, 300);

  const auto at_threshold = PlanQueries(Refined(600));
  ASSERT_EQ(at_threshold.size(), 2u);
  EXPECT_EQ(at_threshold[0].max_records, 540);
  EXPECT_EQ(at_threshold[1].max_records, 60);
}

TEST(QueryPlanTest, OneQueryBelowTheThresholdUnlimitedOrWithoutReserve) {
  for (const std::optional<int64_t> max :
       {std::optional<int64_t>(500), std::optional<int64_t>(599), std::optional<int64_t>()}) {
    const auto plan = PlanQueries(Refined(max));
    ASSERT_EQ(plan.size(), 1u) << max.value_or(-1);
    EXPECT_TRUE(plan[0].params.empty());
    EXPECT_EQ(plan[0].max_records, max);
  }
  registry::Resource off = Refined(1000);
  off.refine.reset();
  ASSERT_EQ(PlanQueries(off).size(), 1u);
  EXPECT_EQ(PlanQueries(off)[0].max_records, 1000);
  EXPECT_FALSE(DeduplicatesAcrossQueries(off));
  EXPECT_TRUE(DeduplicatesAcrossQueries(Refined(1000)));

  registry::Resource tiny_share = Refined(1000);
  tiny_share.refine->reserve->divisor = 2000;  // 1000 / 2000 = 0 records: nothing to reserve
  ASSERT_EQ(PlanQueries(tiny_share).size(), 1u);
  EXPECT_EQ(PlanQueries(tiny_share)[0].max_records, 1000);
}

}  // namespace
}  // namespace databox::source
