// S3FileIO against SeaweedFS, which accepts only the random key pair it was started with (run.sh
// starts it and stops it): every FileIO operation, conditional create, a ~40 MB multipart upload
// with parallel parts, listing past 1,000 keys, refused credentials, session credentials from
// SeaweedFS's STS (run.sh assumes start-s3's role with boto3), and boto3 as the independent
// client (it reads what we wrote; we read what it wrote).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "common/test_paths.h"
#include "fileio/s3/credentials.h"
#include "fileio/s3/s3_file_io.h"

namespace databox::fileio::s3 {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

//! The server run.sh started; empty endpoint when the test runs without it.
struct Service {
  std::string endpoint = Env("S3_ENDPOINT");
  std::string bucket = Env("S3_BUCKET");
  std::string region = Env("S3_REGION");
  std::string key_id = Env("IT_KEY_ID");
  std::string secret = Env("IT_SECRET");
};

class S3IntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(service_.endpoint.empty() || service_.key_id.empty())
        << "S3_ENDPOINT / IT_KEY_ID are not set: run this test through ctest (run.sh starts "
           "SeaweedFS with scripts/services/start-s3)";
    io_ = MakeIo(service_.key_id, service_.secret);
    ASSERT_NE(io_, nullptr);
    prefix_ = "s3://" + service_.bucket + "/it-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
  }

  S3Options Options() const {
    S3Options options;
    options.endpoint = service_.endpoint;
    options.region = service_.region;
    options.path_style = true;
    options.multipart_threshold = uint64_t{8} << 20;
    options.part_size = uint64_t{5} << 20;  // S3's minimum part size
    options.upload_parallelism = 4;
    return options;
  }

  std::unique_ptr<S3FileIO> MakeIo(std::string key_id, std::string secret,
                                   std::string token = "") const {
    auto provider = StaticCredentialsProvider::Make({.access_key_id = std::move(key_id),
                                                     .secret_access_key = std::move(secret),
                                                     .session_token = std::move(token),
                                                     .expiration = std::nullopt});
    EXPECT_TRUE(provider) << provider.error().ToString();
    if (!provider) return nullptr;
    auto io = S3FileIO::Make(Options(), std::move(*provider));
    EXPECT_TRUE(io) << io.error().ToString();
    return io ? std::move(*io) : nullptr;
  }

  //! Runs boto3_peer.py; returns its exit status.
  int Boto3(std::string_view op, std::string_view key, const std::string& file) const {
    std::string script = test_paths::SourceDir() + "/tests/integration/s3_fileio/boto3_peer.py";
    std::string command = "AWS_ACCESS_KEY_ID='" + service_.key_id + "' AWS_SECRET_ACCESS_KEY='" +
                          service_.secret + "' '" + test_paths::VenvDir() + "/bin/python' '" +
                          script + "' " + std::string(op) + " '" + service_.endpoint + "' '" +
                          service_.region + "' '" + service_.bucket + "' '" + std::string(key) +
                          "' '" + file + "'";
    return std::system(command.c_str());
  }

  std::string Key(std::string_view location) const {
    return std::string(location.substr(("s3://" + service_.bucket + "/").size()));
  }

  std::string TempPath(std::string_view name) const {
    return (std::filesystem::temp_directory_path() /
            ("databox-s3-it-" + std::to_string(::getpid()) + "-" + std::string(name)))
        .string();
  }

  Service service_;
  std::unique_ptr<S3FileIO> io_;
  std::string prefix_;
};

std::string RandomBytes(std::size_t size, uint32_t seed) {
  std::mt19937 generator(seed);
  std::string out(size, '\0');
  for (char& c : out) c = static_cast<char>(generator() & 0xFF);
  return out;
}

std::string ReadLocal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST_F(S3IntegrationTest, EveryOperation) {
  const std::string object = prefix_ + "dir/a b+c$.bin";
  const std::string bytes = RandomBytes(1000, 1);
  ASSERT_TRUE(io_->Write(object, bytes));
  EXPECT_EQ(io_->Read(object).value(), bytes);
  EXPECT_EQ(io_->Size(object).value(), 1000u);
  EXPECT_TRUE(io_->Exists(object).value());
  EXPECT_EQ(io_->ReadRange(object, 10, 20).value(), bytes.substr(10, 20));
  EXPECT_EQ(io_->ReadRange(object, 990, 100).value(), bytes.substr(990));
  EXPECT_EQ(io_->ReadRange(object, 1000, 5).value(), "");

  const std::string replaced = RandomBytes(10, 2);
  ASSERT_TRUE(io_->Write(object, replaced));
  EXPECT_EQ(io_->Read(object).value(), replaced);

  const std::string metadata = prefix_ + "metadata/00001.metadata.json";
  ASSERT_TRUE(io_->WriteNew(metadata, "{\"v\":1}"));
  Status conflict = io_->WriteNew(metadata, "{\"v\":2}");
  ASSERT_FALSE(conflict);
  EXPECT_EQ(conflict.error().kind, ErrorKind::kAlreadyExists) << conflict.error().ToString();
  EXPECT_EQ(io_->Read(metadata).value(), "{\"v\":1}");

  ASSERT_TRUE(io_->Delete(object));
  EXPECT_FALSE(io_->Exists(object).value());
  EXPECT_EQ(io_->Delete(object).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(io_->Read(object).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(io_->Size(object).error().kind, ErrorKind::kNotFound);
  Result<std::string> no_bucket = io_->Read("s3://no-such-bucket-databox/k");
  ASSERT_FALSE(no_bucket);
  EXPECT_EQ(no_bucket.error().kind, ErrorKind::kNotFound);
}

TEST_F(S3IntegrationTest, MultipartUploadOf40MegabytesInParallelParts) {
  const std::string bytes = RandomBytes(40u << 20, 3);  // 8 parts of 5 MiB
  const std::string file = TempPath("big.bin");
  std::ofstream(file, std::ios::binary) << bytes;
  const std::string object = prefix_ + "data/big.parquet";
  Status uploaded = io_->UploadFile(file, object);
  ASSERT_TRUE(uploaded) << uploaded.error().ToString();
  EXPECT_EQ(io_->Size(object).value(), bytes.size());
  Result<std::string> back = io_->Read(object);
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_TRUE(*back == bytes) << "the object read back differs from the uploaded file";
  // Across the boundary between parts 1 and 2.
  EXPECT_EQ(io_->ReadRange(object, (5u << 20) - 7, 14).value(), bytes.substr((5u << 20) - 7, 14));

  // boto3 confirms it is a multipart object of 8 parts and reads the same bytes.
  const std::string etag_file = TempPath("etag.txt");
  ASSERT_EQ(Boto3("etag", Key(object), etag_file), 0);
  EXPECT_THAT(ReadLocal(etag_file), HasSubstr("-8\""));
  const std::string downloaded = TempPath("big.download");
  ASSERT_EQ(Boto3("get", Key(object), downloaded), 0);
  EXPECT_TRUE(ReadLocal(downloaded) == bytes) << "boto3 read different bytes";
  std::filesystem::remove(file);
  std::filesystem::remove(etag_file);
  std::filesystem::remove(downloaded);
}

TEST_F(S3IntegrationTest, ListingPastOneThousandKeys) {
  constexpr int kObjects = 1100;
  constexpr int kThreads = 4;
  std::vector<std::jthread> writers;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      for (int i = t; i < kObjects; i += kThreads) {
        char name[32];
        std::snprintf(name, sizeof(name), "many/k%05d", i);
        if (!io_->Write(prefix_ + name, std::string(i % 7, 'x'))) ++failures;
      }
    });
  }
  writers.clear();  // joins
  ASSERT_EQ(failures.load(), 0);
  ASSERT_TRUE(io_->Write(prefix_ + "other/x", "x"));
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  Result<std::vector<FileInfo>> listed = io_->List(prefix_ + "many/");
  ASSERT_TRUE(listed) << listed.error().ToString();
  ASSERT_EQ(listed->size(), static_cast<std::size_t>(kObjects));
  for (int i = 0; i < kObjects; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "many/k%05d", i);
    ASSERT_EQ((*listed)[i].location, prefix_ + name);
    ASSERT_EQ((*listed)[i].size, static_cast<uint64_t>(i % 7));
    // LastModified: written just now (maintenance ages orphan files by it).
    ASSERT_TRUE((*listed)[i].modified_ms.has_value()) << name;
    ASSERT_LT(std::abs(*(*listed)[i].modified_ms - now_ms), 10 * 60 * 1000) << name;
  }
  EXPECT_EQ(io_->List(prefix_).value().size(), static_cast<std::size_t>(kObjects + 1));
}

TEST_F(S3IntegrationTest, RefusedCredentialsAreAuthErrorsWithoutSecrets) {
  const std::string wrong_secret = "wrong-secret-for-databox-it";
  std::unique_ptr<S3FileIO> bad = MakeIo(service_.key_id, wrong_secret);
  ASSERT_NE(bad, nullptr);
  Status write = bad->Write(prefix_ + "x", "x");
  ASSERT_FALSE(write);
  EXPECT_EQ(write.error().kind, ErrorKind::kAuth) << write.error().ToString();
  EXPECT_THAT(write.error().message, Not(HasSubstr(wrong_secret)));
  EXPECT_THAT(write.error().message, HasSubstr(prefix_ + "x"));

  std::unique_ptr<S3FileIO> unknown = MakeIo("AKIDUNKNOWNDATABOX", "unknown-secret-databox");
  ASSERT_NE(unknown, nullptr);
  Result<std::string> read = unknown->Read(prefix_ + "x");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kAuth) << read.error().ToString();
  EXPECT_THAT(read.error().message, Not(HasSubstr("unknown-secret-databox")));
}

TEST_F(S3IntegrationTest, VendedSessionCredentialsFromSts) {
  ASSERT_FALSE(Env("IT_STS_TOKEN").empty());
  int fetches = 0;
  auto provider = std::make_shared<RefreshingCredentialsProvider>(
      [&]() -> Result<Credentials> {
        ++fetches;
        return Credentials{.access_key_id = Env("IT_STS_KEY_ID"),
                           .secret_access_key = Env("IT_STS_SECRET"),
                           .session_token = Env("IT_STS_TOKEN"),
                           .expiration = std::chrono::system_clock::now() + std::chrono::hours(1)};
      },
      std::chrono::seconds(300));
  auto io = S3FileIO::Make(Options(), provider);
  ASSERT_TRUE(io);
  ASSERT_TRUE((*io)->Write(prefix_ + "vended", "via sts"));
  EXPECT_EQ((*io)->Read(prefix_ + "vended").value(), "via sts");
  EXPECT_EQ(fetches, 1);

  // Without the session token the temporary key is refused.
  std::unique_ptr<S3FileIO> tokenless = MakeIo(Env("IT_STS_KEY_ID"), Env("IT_STS_SECRET"));
  ASSERT_NE(tokenless, nullptr);
  EXPECT_EQ(tokenless->Read(prefix_ + "vended").error().kind, ErrorKind::kAuth);
}

TEST_F(S3IntegrationTest, Boto3ReadsOursAndWeReadBoto3s) {
  const std::string ours = prefix_ + "ours.bin";
  const std::string bytes = RandomBytes(123457, 4);
  ASSERT_TRUE(io_->WriteNew(ours, bytes));
  const std::string downloaded = TempPath("ours.download");
  ASSERT_EQ(Boto3("get", Key(ours), downloaded), 0);
  EXPECT_TRUE(ReadLocal(downloaded) == bytes) << "boto3 read different bytes";

  const std::string theirs_bytes = RandomBytes(65536, 5);
  const std::string theirs_file = TempPath("theirs.bin");
  std::ofstream(theirs_file, std::ios::binary) << theirs_bytes;
  const std::string theirs = prefix_ + "theirs/k=1/part 0.bin";
  ASSERT_EQ(Boto3("put", Key(theirs), theirs_file), 0);
  Result<std::string> read = io_->Read(theirs);
  ASSERT_TRUE(read) << read.error().ToString();
  EXPECT_TRUE(*read == theirs_bytes) << "we read different bytes than boto3 wrote";
  EXPECT_EQ(io_->List(prefix_ + "theirs/").value().at(0).location, theirs);
  std::filesystem::remove(downloaded);
  std::filesystem::remove(theirs_file);
}

}  // namespace
}  // namespace databox::fileio::s3
