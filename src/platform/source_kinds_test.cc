// The registration of the source kinds: every kind the example project uses has its Kind, no
// two kinds own the same option of `databox run`, and registering again changes nothing.
#include "platform/source_kinds.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "common/test_paths.h"
#include "registry/registry.h"
#include "source/kinds.h"

namespace databox::platform {
namespace {

TEST(SourceKindsTest, EveryKindOfTheExampleProjectIsRegistered) {
  RegisterSourceKinds();
  auto registry = registry::LoadRegistry(std::filesystem::path(test_paths::SourceDir()) /
                                         "examples" / "databox" / "databox.toml");
  ASSERT_TRUE(registry) << registry.error().message;
  std::set<registry::SourceKind> seen;
  for (const registry::Source& source : registry->sources) {
    const source::Kind& kind = source::KindOf(source);
    EXPECT_EQ(kind.id(), source.kind) << source.name;
    bool registered = false;
    for (const source::Kind* k : source::RegisteredKinds()) registered |= k == &kind;
    EXPECT_TRUE(registered) << source.name << ": kind " << registry::ToString(source.kind);
    seen.insert(source.kind);
  }
  EXPECT_EQ(seen.size(), source::RegisteredKinds().size());
}

TEST(SourceKindsTest, OptionsOfDataboxRunBelongToOneKindEach) {
  std::set<std::string> names = {"resume", "limit", "record"};  // databox run's own
  for (const source::Kind* kind : SourceKinds()) {
    for (const source::RunOption& option : kind->RunOptions()) {
      EXPECT_TRUE(names.insert(option.name).second) << "--" << option.name << " twice";
      EXPECT_FALSE(option.help.empty()) << "--" << option.name;
    }
    if (!kind->RunOptions().empty()) {
      EXPECT_FALSE(kind->ForeignOptionsMessage().empty());
    }
  }
}

TEST(SourceKindsTest, RegisteringAgainChangesNothing) {
  const auto before = SourceKinds();
  RegisterSourceKinds();
  EXPECT_EQ(SourceKinds(), before);
}

}  // namespace
}  // namespace databox::platform
