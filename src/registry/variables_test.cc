// ${NAME} and ${NAME:-default} in non-secret values, and [variables] ranges.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "registry/env.h"
#include "registry/registry.h"

namespace databox::registry {
namespace {

using ::testing::HasSubstr;

//! A temporary folder holding one databox.toml.
class Config {
 public:
  explicit Config(const std::string& toml) {
    char pattern[] = "/tmp/variables_test_XXXXXX";
    dir_ = mkdtemp(pattern);
    std::ofstream(dir_ / "databox.toml") << toml;
  }
  ~Config() { std::filesystem::remove_all(dir_); }
  std::filesystem::path path() const { return dir_ / "databox.toml"; }

 private:
  std::filesystem::path dir_;
};

//! A registry whose source uses a knob for days_back, max_records and a query parameter.
std::string Knobbed(const std::string& variables = "") {
  return variables + R"(
[[source]]
name = "birds"
eligibility = "routine"
base_url = "https://example.org/api"
params = { back = "${BIRDS_BACK:-7}", fmt = "json" }

[source.window]
days_back = "${BIRDS_DAYS:-30}"

[[source.resource]]
name = "sightings"
path = "/obs/{start}"
pagination = { type = "offset_limit", page_size = 10, max_records = "${BIRDS_MAX:-20}" }
write_disposition = "append"
)";
}

EnvLookup EnvOf(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

TEST(EnvReferencesTest, FindsNamesDefaultsAndOffsets) {
  auto refs = FindEnvReferences("a${X}b${Y_2:-d e}c${Z:-}");
  ASSERT_TRUE(refs.has_value()) << refs.error().message;
  ASSERT_EQ(refs->size(), 3u);
  EXPECT_EQ((*refs)[0].name, "X");
  EXPECT_FALSE((*refs)[0].fallback.has_value());
  EXPECT_EQ((*refs)[0].begin, 1u);
  EXPECT_EQ((*refs)[0].end, 5u);
  EXPECT_EQ((*refs)[1].name, "Y_2");
  EXPECT_EQ((*refs)[1].fallback, "d e");
  EXPECT_EQ((*refs)[2].fallback, "");
  EXPECT_FALSE(FindEnvReferences("${unclosed").has_value());
  EXPECT_FALSE(FindEnvReferences("${1BAD}").has_value());
}

TEST(VariablesTest, DefaultsApplyWhenUnset) {
  Config config(Knobbed());
  auto registry = LoadRegistry(config.path(), {.env = EnvOf({})});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const Source& s = registry->sources.front();
  EXPECT_EQ(s.params.at("back"), "7");
  EXPECT_EQ(s.window->days_back, 30);
  EXPECT_EQ(s.resources.front().pagination.max_records, 20);
}

TEST(VariablesTest, EnvironmentOverridesDefaults) {
  Config config(Knobbed());
  auto registry =
      LoadRegistry(config.path(),
                   {.env = EnvOf({{"BIRDS_BACK", "3"}, {"BIRDS_DAYS", "4"}, {"BIRDS_MAX", "5"}})});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const Source& s = registry->sources.front();
  EXPECT_EQ(s.params.at("back"), "3");
  EXPECT_EQ(s.window->days_back, 4);
  EXPECT_EQ(s.resources.front().pagination.max_records, 5);
}

TEST(VariablesTest, NonNumberInNumericKeyNamesKeyVariableAndRange) {
  Config config(Knobbed());
  const ValidationReport report = Validate(config.path(), {.env = EnvOf({{"BIRDS_DAYS", "ten"}})});
  ASSERT_EQ(report.problems.size(), 1u) << report.ToString();
  const std::string text = report.problems.front().ToString();
  EXPECT_THAT(text, HasSubstr("'days_back' = 'ten' (from BIRDS_DAYS) is not an integer"));
  EXPECT_THAT(text, HasSubstr("use a value from 1 to"));
}

TEST(VariablesTest, OutOfRangeNumericKeyNamesKeyVariableAndRange) {
  Config config(Knobbed());
  const ValidationReport report = Validate(config.path(), {.env = EnvOf({{"BIRDS_MAX", "0"}})});
  ASSERT_EQ(report.problems.size(), 1u) << report.ToString();
  const std::string text = report.problems.front().ToString();
  EXPECT_THAT(text, HasSubstr("'max_records' = 0 (from BIRDS_MAX) is out of range"));
  EXPECT_THAT(text, HasSubstr("use a value from 1 to"));
}

TEST(VariablesTest, DeclaredRangeAppliesWhereverTheVariableIsUsed) {
  Config config(Knobbed("[variables]\nBIRDS_BACK = { min = 1, max = 30 }\n"));
  EXPECT_TRUE(Validate(config.path(), {.env = EnvOf({{"BIRDS_BACK", "30"}})}).ok());
  for (const std::string bad : {"31", "0", "3x", "-"}) {
    const ValidationReport report = Validate(config.path(), {.env = EnvOf({{"BIRDS_BACK", bad}})});
    ASSERT_EQ(report.problems.size(), 1u) << bad << ": " << report.ToString();
    const Problem& p = report.problems.front();
    EXPECT_THAT(p.message, HasSubstr("'params.back': variable BIRDS_BACK = '" + bad +
                                     "' is not an integer from 1 to 30"));
    EXPECT_EQ(p.line, 8);
  }
}

TEST(VariablesTest, UnsetVariableWithoutDefaultIsNamed) {
  std::string text = Knobbed();
  text.replace(text.find("${BIRDS_DAYS:-30}"), 17, "${BIRDS_DAYS}");
  Config config(text);
  const ValidationReport report = Validate(config.path(), {.env = EnvOf({})});
  ASSERT_EQ(report.problems.size(), 1u) << report.ToString();
  EXPECT_THAT(report.problems.front().message,
              HasSubstr("'days_back' uses variable BIRDS_DAYS, which is not set"));
  auto set = LoadRegistry(config.path(), {.env = EnvOf({{"BIRDS_DAYS", "2"}})});
  ASSERT_TRUE(set.has_value()) << set.error().message;
  EXPECT_EQ(set->sources.front().window->days_back, 2);
}

TEST(VariablesTest, EmbeddedReferencesInStringsResolve) {
  std::string text = Knobbed();
  text.replace(text.find("fmt = \"json\""), 12, "fmt = \"${FMT:-js}-${SUFFIX:-on}\"");
  Config config(text);
  auto registry = LoadRegistry(config.path(), {.env = EnvOf({{"SUFFIX", "ON"}})});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  EXPECT_EQ(registry->sources.front().params.at("fmt"), "js-ON");
}

TEST(VariablesTest, BadRangeDeclarationsAreProblems) {
  Config inverted(Knobbed("[variables]\nBIRDS_BACK = { min = 5, max = 1 }\n"));
  EXPECT_THAT(Validate(inverted.path(), {.env = EnvOf({})}).ToString(),
              HasSubstr("[variables] BIRDS_BACK: needs integers min <= max"));
  Config scalar(Knobbed("[variables]\nBIRDS_BACK = 3\n"));
  EXPECT_THAT(Validate(scalar.path(), {.env = EnvOf({})}).ToString(),
              HasSubstr("[variables] BIRDS_BACK must be a table"));
}

//! Knobbed() with a refinement of its resource switched by RELEASE (off by default).
std::string Refined(const std::string& reserve = "") {
  return Knobbed() + R"(primary_key = ["id"]

[source.resource.refine]
when = "${RELEASE:-false}"
params = { license = "CC_BY_4_0" }
)" + reserve;
}

TEST(VariablesTest, BooleanKnobSwitchesARefinement) {
  Config config(Refined("reserve = { params = { taxonKey = \"2476855\" }, cap = 50 }\n"));
  auto off = LoadRegistry(config.path(), {.env = EnvOf({})});
  ASSERT_TRUE(off.has_value()) << off.error().message;
  EXPECT_FALSE(off->sources.front().resources.front().refine.has_value());
  for (const std::string on : {"true", "1"}) {
    auto registry = LoadRegistry(config.path(), {.env = EnvOf({{"RELEASE", on}})});
    ASSERT_TRUE(registry.has_value()) << registry.error().message;
    const auto& refine = registry->sources.front().resources.front().refine;
    ASSERT_TRUE(refine.has_value()) << on;
    EXPECT_EQ(refine->params.at("license"), "CC_BY_4_0");
    ASSERT_TRUE(refine->reserve.has_value());
    EXPECT_EQ(refine->reserve->params.at("taxonKey"), "2476855");
    EXPECT_EQ(refine->reserve->cap, 50);
    EXPECT_EQ(refine->reserve->divisor, 10);     // default
    EXPECT_EQ(refine->reserve->min_total, 600);  // default
  }
  auto zero = LoadRegistry(config.path(), {.env = EnvOf({{"RELEASE", "0"}})});
  ASSERT_TRUE(zero.has_value()) << zero.error().message;
  EXPECT_FALSE(zero->sources.front().resources.front().refine.has_value());
}

TEST(VariablesTest, NonBooleanKnobNamesKeyAndVariable) {
  Config config(Refined());
  const ValidationReport report = Validate(config.path(), {.env = EnvOf({{"RELEASE", "maybe"}})});
  ASSERT_EQ(report.problems.size(), 1u) << report.ToString();
  const std::string text = report.problems.front().ToString();
  EXPECT_THAT(text, HasSubstr("'when' = 'maybe' (from RELEASE) is not a boolean"));
  EXPECT_THAT(text, HasSubstr("set RELEASE to true or false"));
}

TEST(VariablesTest, RefinementProblemsAreReportedEvenWhenOff) {
  Config no_when(Knobbed() + "[source.resource.refine]\nparams = { a = \"b\" }\n");
  EXPECT_THAT(Validate(no_when.path(), {.env = EnvOf({})}).ToString(),
              HasSubstr("missing required key 'when'"));
  Config bad_reserve(Refined("reserve = { params = {}, divisor = 0, extra = 1 }\n"));
  const std::string text = Validate(bad_reserve.path(), {.env = EnvOf({})}).ToString();
  EXPECT_THAT(text, HasSubstr("refine.reserve: the reserved query needs 'params'"));
  EXPECT_THAT(text, HasSubstr("'divisor' = 0 is out of range"));
  EXPECT_THAT(text, HasSubstr("unknown key 'extra'"));
  Config no_key(Knobbed() + "[source.resource.refine]\nwhen = false\n" +
                "reserve = { params = { taxonKey = \"1\" } }\n");
  EXPECT_THAT(Validate(no_key.path(), {.env = EnvOf({})}).ToString(),
              HasSubstr("a reserved query needs a primary_key"));
}

}  // namespace
}  // namespace databox::registry
