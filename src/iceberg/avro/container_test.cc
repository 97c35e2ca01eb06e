#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "iceberg/avro/container_reader.h"
#include "iceberg/avro/container_writer.h"

namespace databox::avro {
namespace {

constexpr std::string_view kSchema = R"({"type": "record", "name": "row", "fields": [
  {"name": "id", "type": "long", "field-id": 1},
  {"name": "name", "type": ["null", "string"], "field-id": 2}]})";

Schema RowSchema() { return *Schema::Parse(kSchema); }

Value Row(int64_t id) {
  return Value::Record(
      {{"id", Value::Long(id)},
       {"name", id % 3 == 0 ? Value::Union(0, Value::Null())
                            : Value::Union(1, Value::String("row-" + std::to_string(id)))}});
}

std::string WriteRows(Codec codec, int rows, size_t block_bytes = 1 << 20) {
  std::string file;
  WriterOptions options;
  options.codec = codec;
  options.block_bytes = block_bytes;
  options.metadata = {{"format-version", "2"}, {"content", "data"}};
  auto writer = ContainerWriter::Make(RowSchema(), options, &file);
  EXPECT_TRUE(writer) << writer.error().ToString();
  for (int i = 0; i < rows; ++i) EXPECT_TRUE(writer->Append(Row(i)));
  EXPECT_TRUE(writer->Close());
  EXPECT_EQ(writer->datum_count(), rows);
  EXPECT_EQ(writer->bytes_written(), static_cast<int64_t>(file.size()));
  return file;
}

TEST(ContainerTest, HeaderIsByteExact) {
  std::string file;
  WriterOptions options;
  options.codec = Codec::kNull;
  options.metadata = {{"k", "v"}};
  options.sync_marker =
      SyncMarker{'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  const std::string json = R"("long")";
  auto writer = ContainerWriter::Make(*Schema::Parse(json), options, &file);
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->Append(Value::Long(1)));
  ASSERT_TRUE(writer->Close());
  const std::string sync = "0123456789abcdef";
  // magic, map block of 3 entries (06), key/value pairs with zig-zag lengths, end (00), sync,
  // then one block: count 1 (02), size 1 (02), datum 1 (02), sync.
  const std::string expected = std::string("Obj\x01", 4) + "\x06" +
                               "\x16"
                               "avro.schema"
                               "\x0c" +
                               json +
                               "\x14"
                               "avro.codec"
                               "\x08"
                               "null" +
                               "\x02"
                               "k"
                               "\x02"
                               "v" +
                               std::string(1, '\0') + sync + "\x02\x02\x02" + sync;
  EXPECT_EQ(file, expected);
}

TEST(ContainerTest, RoundTripsWithBothCodecsAndManyBlocks) {
  for (Codec codec : {Codec::kNull, Codec::kDeflate}) {
    const std::string file = WriteRows(codec, 1000, /*block_bytes=*/256);
    auto reader = ContainerReader::Open(file, "rows.avro");
    ASSERT_TRUE(reader) << reader.error().ToString();
    EXPECT_EQ(reader->codec(), codec);
    EXPECT_EQ(reader->schema().json(), kSchema);
    EXPECT_EQ(reader->Metadata("format-version"), "2");
    EXPECT_EQ(reader->Metadata("content"), "data");
    EXPECT_EQ(reader->Metadata("avro.codec"), CodecName(codec));
    auto rows = reader->ReadAll();
    ASSERT_TRUE(rows) << rows.error().ToString();
    ASSERT_EQ(rows->size(), 1000u);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ((*rows)[i], Row(i)) << i;
  }
}

TEST(ContainerTest, DeflateCompresses) {
  EXPECT_LT(WriteRows(Codec::kDeflate, 5000).size(), WriteRows(Codec::kNull, 5000).size() / 2);
}

TEST(ContainerTest, EmptyFileHasHeaderOnly) {
  auto reader = ContainerReader::Open(WriteRows(Codec::kDeflate, 0));
  ASSERT_TRUE(reader);
  auto rows = reader->ReadAll();
  ASSERT_TRUE(rows);
  EXPECT_TRUE(rows->empty());
}

TEST(ContainerTest, FastPathEncoderAndDecoder) {
  std::string file;
  auto writer = ContainerWriter::Make(RowSchema(), WriterOptions{}, &file);
  ASSERT_TRUE(writer);
  for (int64_t id : {5, 6}) {
    Encoder e = writer->datum_encoder();
    e.WriteLong(id);
    e.WriteUnionIndex(1);
    e.WriteString("fast");
    ASSERT_TRUE(writer->DatumWritten());
  }
  ASSERT_TRUE(writer->Close());
  auto reader = ContainerReader::Open(file);
  ASSERT_TRUE(reader);
  std::vector<int64_t> ids;
  while (true) {
    auto d = reader->NextDatum();
    ASSERT_TRUE(d) << d.error().ToString();
    if (*d == nullptr) break;
    ids.push_back((*d)->ReadLong().value());
    EXPECT_EQ((*d)->ReadUnionIndex().value(), 1);
    EXPECT_EQ((*d)->ReadString().value(), "fast");
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{5, 6}));
}

TEST(ContainerTest, RejectsReservedMetadataKeys) {
  std::string file;
  WriterOptions options;
  options.metadata = {{"avro.codec", "snappy"}};
  auto writer = ContainerWriter::Make(RowSchema(), options, &file);
  ASSERT_FALSE(writer);
  EXPECT_EQ(writer.error().kind, ErrorKind::kConfig);
}

TEST(ContainerTest, SinkErrorsPropagate) {
  auto writer = ContainerWriter::Make(RowSchema(), WriterOptions{}, [](std::string_view) -> Status {
    return MakeError(ErrorKind::kIo, "disk full");
  });
  ASSERT_FALSE(writer);
  EXPECT_EQ(writer.error().kind, ErrorKind::kIo);
}

Status ReadEverything(const std::string& file) {
  DATABOX_ASSIGN_OR_RETURN(auto reader, ContainerReader::Open(file));
  DATABOX_ASSIGN_OR_RETURN(auto rows, reader.ReadAll());
  return Ok();
}

Result<std::vector<Value>> ReadRows(const std::string& file) {
  DATABOX_ASSIGN_OR_RETURN(auto reader, ContainerReader::Open(file));
  return reader.ReadAll();
}

// A container has no trailer, so a prefix that ends exactly after a block's sync marker
// is a valid shorter file. Every other proper prefix must be a kData error.
TEST(ContainerTest, EveryTruncationIsDataErrorOrWholeBlocks) {
  for (Codec codec : {Codec::kNull, Codec::kDeflate}) {
    const std::string file = WriteRows(codec, 40, /*block_bytes=*/64);
    ASSERT_TRUE(ReadEverything(file));
    int valid_prefixes = 0;
    for (size_t len = 0; len < file.size(); ++len) {
      const std::string prefix = file.substr(0, len);
      auto rows = ReadRows(prefix);
      if (rows) {
        ++valid_prefixes;
        EXPECT_EQ(std::string_view(prefix).substr(len - kSyncSize),
                  file.substr(len - kSyncSize, kSyncSize))
            << "a valid prefix must end with a sync marker";
        ASSERT_LT(rows->size(), 40u);
        for (size_t i = 0; i < rows->size(); ++i)
          EXPECT_EQ((*rows)[i], Row(static_cast<int64_t>(i)));
        continue;
      }
      EXPECT_EQ(rows.error().kind, ErrorKind::kData) << rows.error().ToString();
    }
    EXPECT_GT(valid_prefixes, 2);  // the header alone and some block boundaries
    EXPECT_LT(valid_prefixes, 40);
  }
}

// Flipping any single byte must never crash; it either fails with kData or (when it
// hits a string payload or the schema's whitespace) still decodes.
TEST(ContainerTest, ByteFlipsNeverCrash) {
  const std::string file = WriteRows(Codec::kDeflate, 30, /*block_bytes=*/64);
  int failures = 0;
  for (size_t i = 0; i < file.size(); ++i) {
    std::string corrupt = file;
    corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5A);
    auto status = ReadEverything(corrupt);
    if (!status) {
      ++failures;
      EXPECT_EQ(status.error().kind, ErrorKind::kData) << status.error().ToString();
    }
  }
  EXPECT_GT(failures, 0);
}

TEST(ContainerTest, DetectsSyncMismatchAndBadMagic) {
  std::string file = WriteRows(Codec::kNull, 3);
  std::string bad_sync = file;
  bad_sync.back() = static_cast<char>(bad_sync.back() ^ 1);
  auto status = ReadEverything(bad_sync);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("sync"), std::string::npos) << status.error().message;

  auto not_avro = ContainerReader::Open("PAR1....");
  ASSERT_FALSE(not_avro);
  EXPECT_EQ(not_avro.error().kind, ErrorKind::kData);
}

TEST(ContainerTest, RejectsUnsupportedCodec) {
  std::string file(std::string_view("Obj\x01", 4));
  Encoder e(&file);
  e.WriteBlockCount(2);
  e.WriteString("avro.schema");
  e.WriteBytes(R"("long")");
  e.WriteString("avro.codec");
  e.WriteBytes("snappy");
  e.WriteBlockEnd();
  file += std::string(kSyncSize, 'x');
  auto reader = ContainerReader::Open(file);
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("snappy"), std::string::npos);
}

}  // namespace
}  // namespace databox::avro
