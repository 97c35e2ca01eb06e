#include "iceberg/avro/encoding.h"

#include <bit>
#include <cstring>
#include <limits>

namespace databox::avro {
namespace {

//! A long varint never needs more than ceil(64 / 7) bytes.
constexpr int kMaxVarintBytes = 10;

template <typename T>
void AppendLittleEndian(std::string* out, T value) {
  static_assert(std::endian::native == std::endian::little, "big-endian hosts unsupported");
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out->append(bytes, sizeof(T));
}

}  // namespace

void Encoder::WriteLong(int64_t value) {
  uint64_t n = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  char bytes[kMaxVarintBytes];
  int len = 0;
  while (n >= 0x80) {
    bytes[len++] = static_cast<char>((n & 0x7F) | 0x80);
    n >>= 7;
  }
  bytes[len++] = static_cast<char>(n);
  out_->append(bytes, len);
}

void Encoder::WriteFloat(float value) { AppendLittleEndian(out_, value); }

void Encoder::WriteDouble(double value) { AppendLittleEndian(out_, value); }

void Encoder::WriteBytes(std::string_view value) {
  WriteLong(static_cast<int64_t>(value.size()));
  out_->append(value);
}

Status Decoder::Need(size_t n, std::string_view what) const {
  if (n > remaining()) {
    return MakeError(ErrorKind::kData,
                     "avro: truncated input reading " + std::string(what) + " at byte " +
                         std::to_string(pos_) + " (need " + std::to_string(n) + " bytes, " +
                         std::to_string(remaining()) + " left); the file is incomplete or corrupt");
  }
  return Ok();
}

Result<bool> Decoder::ReadBoolean() {
  DATABOX_RETURN_IF_ERROR(Need(1, "boolean"));
  auto byte = static_cast<uint8_t>(data_[pos_++]);
  if (byte > 1) {
    return MakeError(ErrorKind::kData, "avro: invalid boolean byte " + std::to_string(byte) +
                                           " at byte " + std::to_string(pos_ - 1));
  }
  return byte == 1;
}

Result<int64_t> Decoder::ReadLong() {
  uint64_t n = 0;
  for (int i = 0; i < kMaxVarintBytes; ++i) {
    DATABOX_RETURN_IF_ERROR(Need(1, "varint"));
    auto byte = static_cast<uint8_t>(data_[pos_++]);
    if (i == kMaxVarintBytes - 1 && byte > 1) break;  // would overflow 64 bits
    n |= static_cast<uint64_t>(byte & 0x7F) << (7 * i);
    if ((byte & 0x80) == 0) {
      return static_cast<int64_t>(n >> 1) ^ -static_cast<int64_t>(n & 1);
    }
  }
  return MakeError(ErrorKind::kData, "avro: varint longer than 64 bits ending at byte " +
                                         std::to_string(pos_) + "; the file is corrupt");
}

Result<int32_t> Decoder::ReadInt() {
  DATABOX_ASSIGN_OR_RETURN(int64_t value, ReadLong());
  if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max()) {
    return MakeError(ErrorKind::kData, "avro: int value " + std::to_string(value) +
                                           " out of 32-bit range before byte " +
                                           std::to_string(pos_));
  }
  return static_cast<int32_t>(value);
}

Result<float> Decoder::ReadFloat() {
  DATABOX_RETURN_IF_ERROR(Need(sizeof(float), "float"));
  float value;
  std::memcpy(&value, data_.data() + pos_, sizeof(float));
  pos_ += sizeof(float);
  return value;
}

Result<double> Decoder::ReadDouble() {
  DATABOX_RETURN_IF_ERROR(Need(sizeof(double), "double"));
  double value;
  std::memcpy(&value, data_.data() + pos_, sizeof(double));
  pos_ += sizeof(double);
  return value;
}

Result<std::string_view> Decoder::ReadBytes() {
  DATABOX_ASSIGN_OR_RETURN(int64_t length, ReadLong());
  if (length < 0) {
    return MakeError(ErrorKind::kData, "avro: negative length " + std::to_string(length) +
                                           " before byte " + std::to_string(pos_) +
                                           "; the file is corrupt");
  }
  return ReadFixed(length);
}

Result<std::string_view> Decoder::ReadFixed(int64_t size) {
  if (size < 0) {
    return MakeError(ErrorKind::kData, "avro: negative fixed size " + std::to_string(size));
  }
  DATABOX_RETURN_IF_ERROR(Need(static_cast<uint64_t>(size), "bytes"));
  std::string_view value = data_.substr(pos_, static_cast<size_t>(size));
  pos_ += static_cast<size_t>(size);
  return value;
}

Result<int64_t> Decoder::ReadBlockCount() {
  DATABOX_ASSIGN_OR_RETURN(int64_t count, ReadLong());
  if (count >= 0) return count;
  if (count == std::numeric_limits<int64_t>::min()) {
    return MakeError(ErrorKind::kData,
                     "avro: invalid block count before byte " + std::to_string(pos_));
  }
  DATABOX_ASSIGN_OR_RETURN(int64_t block_bytes, ReadLong());
  if (block_bytes < 0) {
    return MakeError(ErrorKind::kData,
                     "avro: negative block size before byte " + std::to_string(pos_));
  }
  return -count;
}

}  // namespace databox::avro
