#include "iceberg/avro/container_writer.h"

#include <random>

#include "iceberg/avro/datum.h"

namespace databox::avro {
namespace {

SyncMarker RandomSync() {
  std::random_device device;
  SyncMarker sync;
  for (size_t i = 0; i < kSyncSize; i += 4) {
    const uint32_t word = device();
    for (size_t j = 0; j < 4; ++j) sync[i + j] = static_cast<char>((word >> (8 * j)) & 0xFF);
  }
  return sync;
}

}  // namespace

Result<ContainerWriter> ContainerWriter::Make(Schema schema, WriterOptions options, Sink sink) {
  for (const auto& [key, value] : options.metadata) {
    if (key.starts_with("avro.")) {
      return MakeError(ErrorKind::kConfig,
                       "avro writer: metadata key \"" + key +
                           "\" is reserved (keys starting with \"avro.\" are set by the writer)");
    }
  }
  if (options.block_bytes == 0) options.block_bytes = 1;
  const SyncMarker sync = options.sync_marker ? *options.sync_marker : RandomSync();
  ContainerWriter writer(std::move(schema), std::move(options), std::move(sink), sync);
  DATABOX_RETURN_IF_ERROR(writer.WriteHeader());
  return writer;
}

Result<ContainerWriter> ContainerWriter::Make(Schema schema, WriterOptions options,
                                              std::string* out) {
  return Make(std::move(schema), std::move(options), [out](std::string_view bytes) -> Status {
    out->append(bytes);
    return Ok();
  });
}

Status ContainerWriter::Emit(std::string_view bytes) {
  DATABOX_RETURN_IF_ERROR(sink_(bytes));
  bytes_written_ += static_cast<int64_t>(bytes.size());
  return Ok();
}

Status ContainerWriter::WriteHeader() {
  std::string header(kContainerMagic);
  Encoder e(&header);
  e.WriteBlockCount(static_cast<int64_t>(2 + options_.metadata.size()));
  e.WriteString("avro.schema");
  e.WriteBytes(schema_.json());
  e.WriteString("avro.codec");
  e.WriteBytes(CodecName(options_.codec));
  for (const auto& [key, value] : options_.metadata) {
    e.WriteString(key);
    e.WriteBytes(value);
  }
  e.WriteBlockEnd();
  header.append(sync_.data(), kSyncSize);
  return Emit(header);
}

Status ContainerWriter::Append(const Value& datum) {
  if (closed_) return MakeError(ErrorKind::kInternal, "avro writer: Append after Close");
  const size_t mark = block_.size();
  Encoder e(&block_);
  if (auto status = EncodeValue(schema_, schema_.root(), datum, e); !status) {
    block_.resize(mark);  // drop the partial datum
    return status;
  }
  return DatumWritten();
}

Status ContainerWriter::DatumWritten() {
  if (closed_) return MakeError(ErrorKind::kInternal, "avro writer: datum written after Close");
  ++block_count_;
  ++datum_count_;
  if (block_.size() >= options_.block_bytes) return FlushBlock();
  return Ok();
}

Status ContainerWriter::FlushBlock() {
  if (block_count_ == 0) return Ok();
  scratch_.clear();
  Encoder e(&scratch_);
  e.WriteLong(block_count_);
  if (options_.codec == Codec::kDeflate) {
    std::string compressed;
    DATABOX_RETURN_IF_ERROR(DeflateRaw(block_, options_.deflate_level, &compressed));
    e.WriteBytes(compressed);
  } else {
    e.WriteBytes(block_);
  }
  scratch_.append(sync_.data(), kSyncSize);
  DATABOX_RETURN_IF_ERROR(Emit(scratch_));
  block_.clear();
  block_count_ = 0;
  return Ok();
}

Status ContainerWriter::Close() {
  if (closed_) return Ok();
  DATABOX_RETURN_IF_ERROR(FlushBlock());
  closed_ = true;
  return Ok();
}

}  // namespace databox::avro
