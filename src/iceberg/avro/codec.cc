#include "iceberg/avro/codec.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

namespace databox::avro {
namespace {

//! Negative window bits select raw deflate in zlib; 15 is the largest window.
constexpr int kRawDeflateWindowBits = -15;
constexpr int kMemLevel = 8;
constexpr size_t kInflateChunk = 64 * 1024;

}  // namespace

std::string_view CodecName(Codec codec) { return codec == Codec::kDeflate ? "deflate" : "null"; }

Result<Codec> ParseCodec(std::string_view name) {
  if (name.empty() || name == "null") return Codec::kNull;
  if (name == "deflate") return Codec::kDeflate;
  return MakeError(ErrorKind::kData, "avro: unsupported codec \"" + std::string(name) +
                                         "\" (supported: null, deflate)");
}

Status DeflateRaw(std::string_view input, int level, std::string* out) {
  z_stream stream{};
  if (deflateInit2(&stream, level, Z_DEFLATED, kRawDeflateWindowBits, kMemLevel,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return MakeError(ErrorKind::kInternal,
                     "avro: zlib deflateInit2 failed (level " + std::to_string(level) + ")");
  }
  if (input.size() > std::numeric_limits<uInt>::max()) {
    deflateEnd(&stream);
    return MakeError(ErrorKind::kInternal, "avro: block too large to deflate in one call");
  }
  const size_t start = out->size();
  const size_t bound = deflateBound(&stream, static_cast<uLong>(input.size()));
  out->resize(start + bound);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = reinterpret_cast<Bytef*>(out->data() + start);
  stream.avail_out = static_cast<uInt>(bound);
  const int rc = deflate(&stream, Z_FINISH);
  const size_t written = bound - stream.avail_out;
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) {
    out->resize(start);
    return MakeError(ErrorKind::kInternal,
                     "avro: zlib deflate did not finish (rc " + std::to_string(rc) + ")");
  }
  out->resize(start + written);
  return Ok();
}

Status InflateRaw(std::string_view input, size_t max_output_bytes, std::string* out) {
  out->clear();
  z_stream stream{};
  if (inflateInit2(&stream, kRawDeflateWindowBits) != Z_OK) {
    return MakeError(ErrorKind::kInternal, "avro: zlib inflateInit2 failed");
  }
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in =
      static_cast<uInt>(std::min<size_t>(input.size(), std::numeric_limits<uInt>::max()));
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (out->size() >= max_output_bytes) {
      inflateEnd(&stream);
      return MakeError(ErrorKind::kData, "avro: deflate block inflates beyond " +
                                             std::to_string(max_output_bytes) + " bytes; refusing");
    }
    const size_t start = out->size();
    const size_t chunk = std::min(kInflateChunk, max_output_bytes - start);
    out->resize(start + chunk);
    stream.next_out = reinterpret_cast<Bytef*>(out->data() + start);
    stream.avail_out = static_cast<uInt>(chunk);
    rc = inflate(&stream, Z_NO_FLUSH);
    out->resize(start + chunk - stream.avail_out);
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK || (stream.avail_in == 0 && stream.avail_out != 0)) {
      inflateEnd(&stream);
      return MakeError(ErrorKind::kData, "avro: corrupt or truncated deflate block (zlib rc " +
                                             std::to_string(rc) + ")");
    }
  }
  inflateEnd(&stream);
  return Ok();
}

}  // namespace databox::avro
