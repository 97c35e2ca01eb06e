// Avro schema building and Value conversions shared by the manifest and manifest-list codecs.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"
#include "iceberg/avro/value.h"
#include "iceberg/spec/literal.h"
#include "iceberg/spec/types.h"

namespace databox::iceberg::manifest_internal {

//! Avro schema JSON keeps the field order it was built with.
using Json = nlohmann::ordered_json;

//! A record field with an Iceberg field id; optional fields are ["null", T] with default null.
Json AvroField(std::string_view name, int32_t field_id, Json type, bool optional);
//! An Iceberg list: an Avro array carrying element-id.
Json AvroList(int32_t element_id, Json item);
//! An Iceberg map with int keys: an array of k<key>_v<value> records, logicalType map.
Json AvroIntKeyMap(int32_t key_id, int32_t value_id, Json value_type);
//! The Avro type of an Iceberg primitive (logical types per the spec's Avro appendix).
Result<Json> AvroPrimitive(const Type& type);

//! A partition value as an Avro value of AvroPrimitive(literal type).
avro::Value LiteralToAvro(const Literal& literal);
//! A partition value read from Avro, typed by the partition field's type.
Result<Literal> LiteralFromAvro(const avro::Value& value, const Type& type);

//! Typed access to fields of a decoded record; `where` names the file for messages.
class RecordView {
 public:
  RecordView(const avro::Value& record, std::string_view where) : record_(record), where_(where) {}

  //! The field's value with unions unwrapped, or nullptr when absent or null.
  const avro::Value* Get(std::string_view name) const;
  Result<const avro::Value*> Require(std::string_view name, avro::AvroType type) const;
  Result<int64_t> Long(std::string_view name) const;
  Result<int32_t> Int(std::string_view name) const;
  Result<std::string> String(std::string_view name) const;
  Result<std::optional<int64_t>> OptionalLong(std::string_view name) const;
  Result<std::optional<int32_t>> OptionalInt(std::string_view name) const;
  Result<std::optional<bool>> OptionalBoolean(std::string_view name) const;
  Result<std::optional<std::string>> OptionalBytes(std::string_view name) const;
  std::unexpected<Error> Invalid(std::string_view name, std::string_view problem) const;

 private:
  const avro::Value& record_;
  std::string_view where_;
};

}  // namespace databox::iceberg::manifest_internal
