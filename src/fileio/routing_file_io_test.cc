#include "fileio/routing_file_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace databox::fileio {
namespace {

//! A store that answers Read with its own name, so routing is observable.
class NamedStore final : public FileIO {
 public:
  explicit NamedStore(std::string name) : name_(std::move(name)) {}
  Result<std::string> Read(std::string_view) override { return name_; }
  Result<std::string> ReadRange(std::string_view, uint64_t, uint64_t) override { return name_; }
  Result<uint64_t> Size(std::string_view) override { return name_.size(); }
  Result<bool> Exists(std::string_view) override { return true; }
  Status WriteNew(std::string_view, std::string_view) override { return Ok(); }
  Status Write(std::string_view, std::string_view) override { return Ok(); }
  Status UploadFile(std::string_view, std::string_view) override { return Ok(); }
  Status Delete(std::string_view) override { return Ok(); }
  Result<std::vector<FileInfo>> List(std::string_view) override { return std::vector<FileInfo>{}; }

 private:
  std::string name_;
};

TEST(RoutingFileIO, RoutesBySchemeAndRejectsUnregistered) {
  RoutingFileIO io;
  io.Register(Scheme::kLocal, std::make_shared<NamedStore>("local"));
  EXPECT_EQ(io.Read("/x").value(), "local");
  EXPECT_EQ(io.Read("file:///x").value(), "local");
  auto s3 = io.Read("s3://b/k");
  ASSERT_FALSE(s3.has_value());
  EXPECT_EQ(s3.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(s3.error().message, ::testing::HasSubstr("s3://b/k"));

  io.Register(Scheme::kS3, std::make_shared<NamedStore>("s3"));
  EXPECT_EQ(io.Read("s3://b/k").value(), "s3");
  EXPECT_EQ(io.Read("relative").error().kind, ErrorKind::kConfig);
}

}  // namespace
}  // namespace databox::fileio
