// Block compression codecs of the Avro object container format.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::avro {

enum class Codec {
  kNull,     //!< "null": blocks stored as is
  kDeflate,  //!< "deflate": RFC 1951 raw deflate (no zlib header or checksum)
};

//! The avro.codec spelling ("null", "deflate").
std::string_view CodecName(Codec codec);
//! kData for codecs this library does not read (snappy, zstandard, ...).
Result<Codec> ParseCodec(std::string_view name);

//! Raw-deflates `input` and appends it to `out`; level as zlib's (-1 = default).
Status DeflateRaw(std::string_view input, int level, std::string* out);
//! Inflates a raw-deflate stream into `out` (replacing its contents). kData on corrupt
//! input, or when the output would exceed `max_output_bytes`.
Status InflateRaw(std::string_view input, size_t max_output_bytes, std::string* out);

}  // namespace databox::avro
