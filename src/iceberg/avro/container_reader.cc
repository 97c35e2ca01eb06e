#include "iceberg/avro/container_reader.h"

#include <cstring>

#include "iceberg/avro/datum.h"

namespace databox::avro {
namespace {

//! An inflated block larger than this is treated as corrupt (or hostile) input.
constexpr size_t kMaxBlockBytes = size_t{512} << 20;
//! Datums per block when the schema's datums can encode to zero bytes.
constexpr int64_t kMaxBlockCount = int64_t{1} << 26;

}  // namespace

std::unexpected<Error> ContainerReader::Corrupt(const std::string& what) const {
  return MakeError(ErrorKind::kData,
                   name_ + ": " + what + "; the Avro file is truncated or corrupt");
}

Result<ContainerReader> ContainerReader::Open(std::string data, std::string name) {
  ContainerReader reader;
  reader.name_ = std::move(name);
  reader.data_ = std::make_unique<std::string>(std::move(data));
  reader.block_ = std::make_unique<std::string>();
  const std::string_view bytes(*reader.data_);
  if (!bytes.starts_with(kContainerMagic)) {
    return MakeError(ErrorKind::kData,
                     reader.name_ + ": not an Avro object container file (bad magic)");
  }
  reader.file_ = Decoder(bytes.substr(kContainerMagic.size()));
  Decoder& d = reader.file_;
  while (true) {
    auto count = d.ReadBlockCount();
    if (!count) return reader.Corrupt("header metadata: " + count.error().message);
    if (*count == 0) break;
    if (*count > static_cast<int64_t>(d.remaining() / 2))
      return reader.Corrupt("header metadata count too large");
    for (int64_t i = 0; i < *count; ++i) {
      auto key = d.ReadString();
      if (!key) return reader.Corrupt("header metadata key: " + key.error().message);
      auto value = d.ReadBytes();
      if (!value) return reader.Corrupt("header metadata value: " + value.error().message);
      reader.metadata_.emplace_back(std::string(*key), std::string(*value));
    }
  }
  auto sync = d.ReadFixed(kSyncSize);
  if (!sync) return reader.Corrupt("header sync marker missing");
  std::memcpy(reader.sync_.data(), sync->data(), kSyncSize);

  auto schema_json = reader.Metadata("avro.schema");
  if (!schema_json)
    return MakeError(ErrorKind::kData, reader.name_ + ": header has no avro.schema");
  auto schema = Schema::Parse(*schema_json);
  if (!schema) return std::unexpected(schema.error().WithContext(reader.name_));
  reader.schema_ = std::move(*schema);
  auto codec = ParseCodec(reader.Metadata("avro.codec").value_or("null"));
  if (!codec) return std::unexpected(codec.error().WithContext(reader.name_));
  reader.codec_ = *codec;
  return reader;
}

std::optional<std::string_view> ContainerReader::Metadata(std::string_view key) const {
  for (const auto& [k, v] : metadata_) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

Status ContainerReader::LoadBlock() {
  Decoder& d = file_;
  auto count = d.ReadLong();
  if (!count) return Corrupt("block count: " + count.error().message);
  auto size = d.ReadLong();
  if (!size) return Corrupt("block size: " + size.error().message);
  if (*count < 0 || *count > kMaxBlockCount)
    return Corrupt("block count " + std::to_string(*count) + " out of range");
  if (*size < 0 || static_cast<uint64_t>(*size) > d.remaining()) {
    return Corrupt("block size " + std::to_string(*size) + " exceeds the remaining " +
                   std::to_string(d.remaining()) + " bytes");
  }
  auto payload = d.ReadFixed(*size);
  if (!payload) return Corrupt(payload.error().message);
  auto sync = d.ReadFixed(kSyncSize);
  if (!sync) return Corrupt("block sync marker missing");
  if (std::memcmp(sync->data(), sync_.data(), kSyncSize) != 0)
    return Corrupt("block sync marker mismatch");
  std::string_view block_bytes = *payload;
  if (codec_ == Codec::kDeflate) {
    if (auto status = InflateRaw(*payload, kMaxBlockBytes, block_.get()); !status) {
      return std::unexpected(status.error().WithContext(name_));
    }
    block_bytes = *block_;
  }
  block_decoder_ = Decoder(block_bytes);
  block_remaining_ = *count;
  in_block_ = true;
  return Ok();
}

Result<Decoder*> ContainerReader::NextDatum() {
  while (!in_block_ || block_remaining_ == 0) {
    if (in_block_ && !block_decoder_.AtEnd()) {
      return Corrupt(std::to_string(block_decoder_.remaining()) +
                     " stray bytes after the last datum of a block");
    }
    in_block_ = false;
    if (file_.AtEnd()) return nullptr;
    DATABOX_RETURN_IF_ERROR(LoadBlock());
  }
  --block_remaining_;
  return &block_decoder_;
}

Result<std::optional<Value>> ContainerReader::Next() {
  DATABOX_ASSIGN_OR_RETURN(Decoder * d, NextDatum());
  if (d == nullptr) return std::nullopt;
  auto value = DecodeValue(schema_, schema_.root(), *d);
  if (!value) return std::unexpected(value.error().WithContext(name_));
  return std::optional<Value>(std::move(*value));
}

Result<std::vector<Value>> ContainerReader::ReadAll() {
  std::vector<Value> out;
  while (true) {
    DATABOX_ASSIGN_OR_RETURN(std::optional<Value> value, Next());
    if (!value) return out;
    out.push_back(std::move(*value));
  }
}

}  // namespace databox::avro
