// Writer of Avro object container files (Avro 1.11 spec, "Object Container Files"):
// magic "Obj\x01", a metadata map (avro.schema, avro.codec, user keys), a 16-byte
// sync marker, then blocks of (count, byte size, data, sync).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"
#include "iceberg/avro/codec.h"
#include "iceberg/avro/encoding.h"
#include "iceberg/avro/schema.h"
#include "iceberg/avro/value.h"

namespace databox::avro {

//! The four bytes an Avro object container file starts with.
inline constexpr std::string_view kContainerMagic("Obj\x01", 4);

//! Receives the file's bytes in order. A failed write fails the writer.
using Sink = std::function<Status(std::string_view bytes)>;

//! The size of the sync marker that ends the header and every block.
inline constexpr size_t kSyncSize = 16;
using SyncMarker = std::array<char, kSyncSize>;

struct WriterOptions {
  Codec codec = Codec::kDeflate;  //!< block compression
  int deflate_level = -1;         //!< zlib level; -1 = zlib's default
  //! A block is flushed once its uncompressed datums reach this many bytes.
  size_t block_bytes = 1 << 20;
  //! User metadata (e.g. Iceberg's "schema", "partition-spec", "format-version"),
  //! written after avro.schema and avro.codec. Keys may not start with "avro.".
  std::vector<std::pair<std::string, std::string>> metadata;
  //! Fixed sync marker for reproducible output; random when unset.
  std::optional<SyncMarker> sync_marker;
};

class ContainerWriter {
 public:
  //! Writes the header to `sink`. kConfig for reserved metadata keys.
  static Result<ContainerWriter> Make(Schema schema, WriterOptions options, Sink sink);
  //! Same, appending the file to `*out` (which must outlive the writer).
  static Result<ContainerWriter> Make(Schema schema, WriterOptions options, std::string* out);

  //! Encodes one datum by the schema (kInternal if it does not match).
  Status Append(const Value& datum);

  //! Fast path: encode one datum with the returned encoder, then call DatumWritten().
  //! The caller is responsible for the bytes matching the schema.
  Encoder datum_encoder() { return Encoder(&block_); }
  //! Counts the datum just encoded and flushes the block if it is full.
  Status DatumWritten();

  //! Flushes the last block. The writer accepts no datums afterwards.
  Status Close();

  const Schema& schema() const { return schema_; }
  //! Datums appended so far.
  int64_t datum_count() const { return datum_count_; }
  //! Bytes handed to the sink so far.
  int64_t bytes_written() const { return bytes_written_; }

 private:
  ContainerWriter(Schema schema, WriterOptions options, Sink sink, SyncMarker sync)
      : schema_(std::move(schema)),
        options_(std::move(options)),
        sink_(std::move(sink)),
        sync_(sync) {}

  Status WriteHeader();
  Status FlushBlock();
  Status Emit(std::string_view bytes);

  Schema schema_;
  WriterOptions options_;
  Sink sink_;
  SyncMarker sync_;
  std::string block_;          //!< encoded datums of the open block
  std::string scratch_;        //!< block framing + compressed bytes
  int64_t block_count_ = 0;    //!< datums in the open block
  int64_t datum_count_ = 0;    //!< datums in the file
  int64_t bytes_written_ = 0;  //!< bytes emitted to the sink
  bool closed_ = false;
};

}  // namespace databox::avro
