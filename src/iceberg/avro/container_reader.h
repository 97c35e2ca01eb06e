// Reader of Avro object container files (null and deflate codecs).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"
#include "iceberg/avro/codec.h"
#include "iceberg/avro/container_writer.h"
#include "iceberg/avro/encoding.h"
#include "iceberg/avro/schema.h"
#include "iceberg/avro/value.h"

namespace databox::avro {

class ContainerReader {
 public:
  //! Parses the header of a whole file held in memory. kData if it is not an Avro
  //! container, is truncated, or uses an unsupported codec. `name` labels errors.
  static Result<ContainerReader> Open(std::string data, std::string name = "avro file");

  //! The writer's schema (from avro.schema), with its verbatim JSON.
  const Schema& schema() const { return schema_; }
  Codec codec() const { return codec_; }
  //! All header metadata, in file order (including avro.schema and avro.codec).
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }
  //! One metadata value, if present.
  std::optional<std::string_view> Metadata(std::string_view key) const;

  //! The next datum decoded by the writer schema, or nullopt at the end of the file.
  Result<std::optional<Value>> Next();
  //! All remaining datums.
  Result<std::vector<Value>> ReadAll();

  //! Fast path: a decoder positioned at the next datum, or nullptr at the end of the
  //! file. The caller must consume exactly one datum before calling again.
  Result<Decoder*> NextDatum();

 private:
  ContainerReader() = default;
  Status LoadBlock();
  std::unexpected<Error> Corrupt(const std::string& what) const;

  std::string name_;                    //!< label for messages
  std::unique_ptr<std::string> data_;   //!< the whole file (heap-stable across moves)
  std::unique_ptr<std::string> block_;  //!< the inflated block (heap-stable)
  Schema schema_;
  Codec codec_ = Codec::kNull;
  std::vector<std::pair<std::string, std::string>> metadata_;
  SyncMarker sync_{};
  Decoder file_{std::string_view()};           //!< position in data_ (next block)
  Decoder block_decoder_{std::string_view()};  //!< position in the current block
  int64_t block_remaining_ = 0;                //!< datums left in the current block
  bool in_block_ = false;
};

}  // namespace databox::avro
