#include "duck/vector_reader_internal.h"

#include <string>
#include <vector>

namespace databox::duck::internal {
namespace {

template <typename T>
T At(duckdb_vector vector, uint64_t index) {
  return static_cast<const T*>(duckdb_vector_get_data(vector))[index];
}

duckdb_hugeint ToHugeInt(int64_t v) {
  duckdb_hugeint h;
  h.lower = static_cast<uint64_t>(v);
  h.upper = v < 0 ? -1 : 0;
  return h;
}

Result<duckdb_hugeint> DecimalStorage(duckdb_vector vector, duckdb_logical_type type,
                                      uint64_t index) {
  switch (duckdb_decimal_internal_type(type)) {
    case DUCKDB_TYPE_SMALLINT:
      return ToHugeInt(At<int16_t>(vector, index));
    case DUCKDB_TYPE_INTEGER:
      return ToHugeInt(At<int32_t>(vector, index));
    case DUCKDB_TYPE_BIGINT:
      return ToHugeInt(At<int64_t>(vector, index));
    case DUCKDB_TYPE_HUGEINT:
      return At<duckdb_hugeint>(vector, index);
    default:
      return MakeError(ErrorKind::kInternal, "unexpected DECIMAL storage type in DuckDB vector");
  }
}

Result<uint64_t> EnumIndex(duckdb_vector vector, duckdb_logical_type type, uint64_t index) {
  switch (duckdb_enum_internal_type(type)) {
    case DUCKDB_TYPE_UTINYINT:
      return At<uint8_t>(vector, index);
    case DUCKDB_TYPE_USMALLINT:
      return At<uint16_t>(vector, index);
    case DUCKDB_TYPE_UINTEGER:
      return At<uint32_t>(vector, index);
    default:
      return MakeError(ErrorKind::kInternal, "unexpected ENUM storage type in DuckDB vector");
  }
}

//! Reads `count` consecutive entries from `offset` of `child` into owned values.
Result<std::vector<ValuePtr>> ReadRange(duckdb_vector child, duckdb_logical_type child_type,
                                        uint64_t offset, uint64_t count) {
  std::vector<ValuePtr> values;
  values.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    DATABOX_ASSIGN_OR_RETURN(auto value, ReadValue(child, child_type, offset + i));
    values.push_back(std::move(value));
  }
  return values;
}

//! Raw handles of `values`. Never returns a null data() (the C API rejects a null array even
//! for zero elements), so it always reserves at least one slot.
std::vector<duckdb_value> Raw(const std::vector<ValuePtr>& values) {
  std::vector<duckdb_value> raw;
  raw.reserve(values.size() + 1);
  for (const auto& v : values) raw.push_back(v.get());
  return raw;
}

Result<ValuePtr> Built(duckdb_value value, const char* what) {
  if (value == nullptr) {
    return MakeError(ErrorKind::kInternal, std::string("DuckDB could not build a ") + what +
                                               " value from a result vector");
  }
  return ValuePtr(value);
}

Result<ValuePtr> ReadNested(duckdb_vector vector, duckdb_logical_type type, uint64_t index) {
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_LIST: {
      const auto entry = At<duckdb_list_entry>(vector, index);
      LogicalTypePtr child_type(duckdb_list_type_child_type(type));
      DATABOX_ASSIGN_OR_RETURN(auto values,
                               ReadRange(duckdb_list_vector_get_child(vector), child_type.get(),
                                         entry.offset, entry.length));
      auto raw = Raw(values);
      return Built(duckdb_create_list_value(child_type.get(), raw.data(), raw.size()), "LIST");
    }
    case DUCKDB_TYPE_ARRAY: {
      const uint64_t size = duckdb_array_type_array_size(type);
      LogicalTypePtr child_type(duckdb_array_type_child_type(type));
      DATABOX_ASSIGN_OR_RETURN(auto values, ReadRange(duckdb_array_vector_get_child(vector),
                                                      child_type.get(), index * size, size));
      auto raw = Raw(values);
      return Built(duckdb_create_array_value(child_type.get(), raw.data(), raw.size()), "ARRAY");
    }
    case DUCKDB_TYPE_STRUCT: {
      const uint64_t n = duckdb_struct_type_child_count(type);
      std::vector<ValuePtr> values;
      for (uint64_t k = 0; k < n; ++k) {
        LogicalTypePtr child_type(duckdb_struct_type_child_type(type, k));
        DATABOX_ASSIGN_OR_RETURN(auto value, ReadValue(duckdb_struct_vector_get_child(vector, k),
                                                       child_type.get(), index));
        values.push_back(std::move(value));
      }
      auto raw = Raw(values);
      return Built(duckdb_create_struct_value(type, raw.data()), "STRUCT");
    }
    case DUCKDB_TYPE_MAP: {
      // A MAP is stored as LIST(STRUCT(key, value)).
      const auto entry = At<duckdb_list_entry>(vector, index);
      duckdb_vector entries = duckdb_list_vector_get_child(vector);
      LogicalTypePtr key_type(duckdb_map_type_key_type(type));
      LogicalTypePtr value_type(duckdb_map_type_value_type(type));
      DATABOX_ASSIGN_OR_RETURN(auto keys, ReadRange(duckdb_struct_vector_get_child(entries, 0),
                                                    key_type.get(), entry.offset, entry.length));
      DATABOX_ASSIGN_OR_RETURN(auto vals, ReadRange(duckdb_struct_vector_get_child(entries, 1),
                                                    value_type.get(), entry.offset, entry.length));
      auto raw_keys = Raw(keys);
      auto raw_vals = Raw(vals);
      return Built(duckdb_create_map_value(type, raw_keys.data(), raw_vals.data(), raw_keys.size()),
                   "MAP");
    }
    default:
      return MakeError(ErrorKind::kData,
                       std::string("reading DuckDB ") +
                           std::string(TypeIdName(TypeIdOf(duckdb_get_type_id(type)))) +
                           " values is not supported: cast the column to VARCHAR in SQL");
  }
}

}  // namespace

TypeId TypeIdOf(duckdb_type type) {
  switch (type) {
    case DUCKDB_TYPE_INVALID:
      return TypeId::kInvalid;
    case DUCKDB_TYPE_BOOLEAN:
      return TypeId::kBoolean;
    case DUCKDB_TYPE_TINYINT:
      return TypeId::kTinyInt;
    case DUCKDB_TYPE_SMALLINT:
      return TypeId::kSmallInt;
    case DUCKDB_TYPE_INTEGER:
      return TypeId::kInteger;
    case DUCKDB_TYPE_BIGINT:
      return TypeId::kBigInt;
    case DUCKDB_TYPE_UTINYINT:
      return TypeId::kUTinyInt;
    case DUCKDB_TYPE_USMALLINT:
      return TypeId::kUSmallInt;
    case DUCKDB_TYPE_UINTEGER:
      return TypeId::kUInteger;
    case DUCKDB_TYPE_UBIGINT:
      return TypeId::kUBigInt;
    case DUCKDB_TYPE_HUGEINT:
      return TypeId::kHugeInt;
    case DUCKDB_TYPE_UHUGEINT:
      return TypeId::kUHugeInt;
    case DUCKDB_TYPE_FLOAT:
      return TypeId::kFloat;
    case DUCKDB_TYPE_DOUBLE:
      return TypeId::kDouble;
    case DUCKDB_TYPE_DECIMAL:
      return TypeId::kDecimal;
    case DUCKDB_TYPE_VARCHAR:
      return TypeId::kVarchar;
    case DUCKDB_TYPE_BLOB:
      return TypeId::kBlob;
    case DUCKDB_TYPE_DATE:
      return TypeId::kDate;
    case DUCKDB_TYPE_TIME:
      return TypeId::kTime;
    case DUCKDB_TYPE_TIME_TZ:
      return TypeId::kTimeTz;
    case DUCKDB_TYPE_TIMESTAMP:
      return TypeId::kTimestamp;
    case DUCKDB_TYPE_TIMESTAMP_TZ:
      return TypeId::kTimestampTz;
    case DUCKDB_TYPE_TIMESTAMP_S:
      return TypeId::kTimestampSec;
    case DUCKDB_TYPE_TIMESTAMP_MS:
      return TypeId::kTimestampMs;
    case DUCKDB_TYPE_TIMESTAMP_NS:
      return TypeId::kTimestampNs;
    case DUCKDB_TYPE_INTERVAL:
      return TypeId::kInterval;
    case DUCKDB_TYPE_UUID:
      return TypeId::kUuid;
    case DUCKDB_TYPE_ENUM:
      return TypeId::kEnum;
    case DUCKDB_TYPE_LIST:
      return TypeId::kList;
    case DUCKDB_TYPE_ARRAY:
      return TypeId::kArray;
    case DUCKDB_TYPE_STRUCT:
      return TypeId::kStruct;
    case DUCKDB_TYPE_MAP:
      return TypeId::kMap;
    case DUCKDB_TYPE_UNION:
      return TypeId::kUnion;
    default:
      return TypeId::kOther;
  }
}

bool IsNullAt(duckdb_vector vector, uint64_t index) {
  uint64_t* validity = duckdb_vector_get_validity(vector);
  return validity != nullptr && !duckdb_validity_row_is_valid(validity, index);
}

Result<ValuePtr> ReadValue(duckdb_vector vector, duckdb_logical_type type, uint64_t index) {
  if (IsNullAt(vector, index)) return ValuePtr(duckdb_create_null_value());
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_BOOLEAN:
      return ValuePtr(duckdb_create_bool(At<bool>(vector, index)));
    case DUCKDB_TYPE_TINYINT:
      return ValuePtr(duckdb_create_int8(At<int8_t>(vector, index)));
    case DUCKDB_TYPE_SMALLINT:
      return ValuePtr(duckdb_create_int16(At<int16_t>(vector, index)));
    case DUCKDB_TYPE_INTEGER:
      return ValuePtr(duckdb_create_int32(At<int32_t>(vector, index)));
    case DUCKDB_TYPE_BIGINT:
      return ValuePtr(duckdb_create_int64(At<int64_t>(vector, index)));
    case DUCKDB_TYPE_UTINYINT:
      return ValuePtr(duckdb_create_uint8(At<uint8_t>(vector, index)));
    case DUCKDB_TYPE_USMALLINT:
      return ValuePtr(duckdb_create_uint16(At<uint16_t>(vector, index)));
    case DUCKDB_TYPE_UINTEGER:
      return ValuePtr(duckdb_create_uint32(At<uint32_t>(vector, index)));
    case DUCKDB_TYPE_UBIGINT:
      return ValuePtr(duckdb_create_uint64(At<uint64_t>(vector, index)));
    case DUCKDB_TYPE_HUGEINT:
      return ValuePtr(duckdb_create_hugeint(At<duckdb_hugeint>(vector, index)));
    case DUCKDB_TYPE_UHUGEINT:
      return ValuePtr(duckdb_create_uhugeint(At<duckdb_uhugeint>(vector, index)));
    case DUCKDB_TYPE_FLOAT:
      return ValuePtr(duckdb_create_float(At<float>(vector, index)));
    case DUCKDB_TYPE_DOUBLE:
      return ValuePtr(duckdb_create_double(At<double>(vector, index)));
    case DUCKDB_TYPE_DATE:
      return ValuePtr(duckdb_create_date(At<duckdb_date>(vector, index)));
    case DUCKDB_TYPE_TIME:
      return ValuePtr(duckdb_create_time(At<duckdb_time>(vector, index)));
    case DUCKDB_TYPE_TIME_TZ:
      return ValuePtr(duckdb_create_time_tz_value(At<duckdb_time_tz>(vector, index)));
    case DUCKDB_TYPE_TIMESTAMP:
      return ValuePtr(duckdb_create_timestamp(At<duckdb_timestamp>(vector, index)));
    case DUCKDB_TYPE_TIMESTAMP_TZ:
      return ValuePtr(duckdb_create_timestamp_tz(At<duckdb_timestamp>(vector, index)));
    case DUCKDB_TYPE_TIMESTAMP_S:
      return ValuePtr(duckdb_create_timestamp_s(At<duckdb_timestamp_s>(vector, index)));
    case DUCKDB_TYPE_TIMESTAMP_MS:
      return ValuePtr(duckdb_create_timestamp_ms(At<duckdb_timestamp_ms>(vector, index)));
    case DUCKDB_TYPE_TIMESTAMP_NS:
      return ValuePtr(duckdb_create_timestamp_ns(At<duckdb_timestamp_ns>(vector, index)));
    case DUCKDB_TYPE_INTERVAL:
      return ValuePtr(duckdb_create_interval(At<duckdb_interval>(vector, index)));
    case DUCKDB_TYPE_UUID: {
      // Stored as a HUGEINT with the top bit flipped (so that signed order is UUID order).
      const auto stored = At<duckdb_hugeint>(vector, index);
      duckdb_uhugeint uuid;
      uuid.lower = stored.lower;
      uuid.upper = static_cast<uint64_t>(stored.upper) ^ (uint64_t{1} << 63);
      return ValuePtr(duckdb_create_uuid(uuid));
    }
    case DUCKDB_TYPE_VARCHAR: {
      auto s = At<duckdb_string_t>(vector, index);
      return ValuePtr(
          duckdb_create_varchar_length(duckdb_string_t_data(&s), duckdb_string_t_length(s)));
    }
    case DUCKDB_TYPE_BLOB: {
      auto s = At<duckdb_string_t>(vector, index);
      return ValuePtr(duckdb_create_blob(reinterpret_cast<const uint8_t*>(duckdb_string_t_data(&s)),
                                         duckdb_string_t_length(s)));
    }
    case DUCKDB_TYPE_DECIMAL: {
      DATABOX_ASSIGN_OR_RETURN(auto storage, DecimalStorage(vector, type, index));
      duckdb_decimal d;
      d.width = duckdb_decimal_width(type);
      d.scale = duckdb_decimal_scale(type);
      d.value = storage;
      return ValuePtr(duckdb_create_decimal(d));
    }
    case DUCKDB_TYPE_ENUM: {
      DATABOX_ASSIGN_OR_RETURN(auto idx, EnumIndex(vector, type, index));
      return Built(duckdb_create_enum_value(type, idx), "ENUM");
    }
    default:
      return ReadNested(vector, type, index);
  }
}

}  // namespace databox::duck::internal
