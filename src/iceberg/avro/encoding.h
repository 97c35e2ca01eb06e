// Avro binary encoding of primitive values (Avro 1.11 spec, "Binary Encoding"):
// zig-zag varints for int/long, little-endian IEEE floats, length-prefixed bytes.
// Hot codecs (manifests) call these directly instead of building Values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::avro {

//! Appends Avro-encoded primitives to a caller-owned string.
class Encoder {
 public:
  explicit Encoder(std::string* out) : out_(out) {}

  void WriteBoolean(bool value) { out_->push_back(value ? '\x01' : '\x00'); }
  void WriteInt(int32_t value) { WriteLong(value); }
  //! Zig-zag varint: 0 -> 00, -1 -> 01, 1 -> 02, 64 -> 80 01.
  void WriteLong(int64_t value);
  //! 4 bytes, IEEE 754, little-endian.
  void WriteFloat(float value);
  //! 8 bytes, IEEE 754, little-endian.
  void WriteDouble(double value);
  //! Length (long) followed by the bytes.
  void WriteBytes(std::string_view value);
  //! Same wire form as bytes; the caller guarantees UTF-8.
  void WriteString(std::string_view value) { WriteBytes(value); }
  //! Exactly the schema's size bytes, no length.
  void WriteFixed(std::string_view value) { out_->append(value); }
  void WriteEnum(int32_t index) { WriteLong(index); }
  void WriteUnionIndex(int32_t branch) { WriteLong(branch); }
  //! One block of an array or map: the item count (items follow). Skips empty blocks.
  void WriteBlockCount(int64_t count) {
    if (count > 0) WriteLong(count);
  }
  //! Terminates an array or map (a zero-count block).
  void WriteBlockEnd() { out_->push_back('\x00'); }

  //! The string being appended to.
  std::string& buffer() { return *out_; }

 private:
  std::string* out_;  //!< not owned
};

//! Reads Avro-encoded primitives from a view; every read is bounds-checked and a
//! truncated or malformed input yields a kData error, never a crash or a huge allocation.
class Decoder {
 public:
  explicit Decoder(std::string_view data) : data_(data) {}

  Result<bool> ReadBoolean();
  Result<int32_t> ReadInt();
  Result<int64_t> ReadLong();
  Result<float> ReadFloat();
  Result<double> ReadDouble();
  //! A length-prefixed byte string; the view points into the input.
  Result<std::string_view> ReadBytes();
  Result<std::string_view> ReadString() { return ReadBytes(); }
  Result<std::string_view> ReadFixed(int64_t size);
  Result<int32_t> ReadEnum() { return ReadInt(); }
  Result<int32_t> ReadUnionIndex() { return ReadInt(); }
  //! The item count of the next array/map block (0 = end). A negative count on the
  //! wire (followed by the block's byte size) is returned as its absolute value.
  Result<int64_t> ReadBlockCount();

  //! Bytes not yet consumed.
  size_t remaining() const { return data_.size() - pos_; }
  size_t position() const { return pos_; }
  bool AtEnd() const { return pos_ == data_.size(); }

 private:
  Status Need(size_t n, std::string_view what) const;

  std::string_view data_;  //!< the whole input
  size_t pos_ = 0;         //!< next unread byte
};

}  // namespace databox::avro
