// The kinds a program registers: a lookup finds the registered Kind, a kind registered twice is
// refused, and a kind nothing registered makes no Source and says why.
#include "source/kinds.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace databox::source {
namespace {

//! A Kind that only says which registry kind it is.
class NamedKind final : public Kind {
 public:
  explicit NamedKind(registry::SourceKind id) : id_(id) {}
  registry::SourceKind id() const override { return id_; }
  Result<std::unique_ptr<Source>> Make(const registry::Source&, const SourceInput&,
                                       Network) const override {
    return MakeError(ErrorKind::kInternal, "not made in this test");
  }

 private:
  registry::SourceKind id_;
};

TEST(KindsTest, LookupsFindTheRegisteredKindAndASecondRegistrationIsRefused) {
  auto kind = std::make_unique<NamedKind>(registry::SourceKind::kRestJson);
  const Kind* registered = kind.get();
  ASSERT_TRUE(RegisterKind(std::move(kind)).has_value());
  registry::Source source;
  source.name = "weather";
  source.kind = registry::SourceKind::kRestJson;
  EXPECT_EQ(&KindOf(source), registered);
  EXPECT_EQ(RegisteredKinds(), std::vector<const Kind*>{registered});

  Status again = RegisterKind(std::make_unique<NamedKind>(registry::SourceKind::kRestJson));
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind, ErrorKind::kInternal);
  EXPECT_EQ(again.error().message, "source kind rest_json is registered twice");
  EXPECT_EQ(RegisteredKinds().size(), 1u);
}

TEST(KindsTest, AKindNothingRegisteredAddsNothingAndMakesNoSource) {
  registry::Source source;
  source.name = "traits";
  source.kind = registry::SourceKind::kFile;
  const Kind& kind = KindOf(source);
  EXPECT_EQ(&KindOf(source), &kind);  // the same stand-in every time
  EXPECT_EQ(kind.id(), registry::SourceKind::kFile);
  EXPECT_TRUE(kind.RunOptions().empty());
  EXPECT_EQ(kind.RunHint(), "");
  registry::Resource declared;
  declared.name = "species";
  declared.column_order = {"a"};
  EXPECT_EQ(kind.DeclaredResource(declared).column_order, declared.column_order);
  auto made = kind.Make(source, SourceInput{}, Network{});
  ASSERT_FALSE(made.has_value());
  EXPECT_EQ(made.error().kind, ErrorKind::kInternal);
  EXPECT_EQ(made.error().message,
            "source traits: no source kind file is registered (the composition root registers "
            "every kind)");
}

}  // namespace
}  // namespace databox::source
