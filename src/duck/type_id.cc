#include "duck/type_id.h"

namespace databox::duck {

std::string_view TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kInvalid:
      return "INVALID";
    case TypeId::kBoolean:
      return "BOOLEAN";
    case TypeId::kTinyInt:
      return "TINYINT";
    case TypeId::kSmallInt:
      return "SMALLINT";
    case TypeId::kInteger:
      return "INTEGER";
    case TypeId::kBigInt:
      return "BIGINT";
    case TypeId::kUTinyInt:
      return "UTINYINT";
    case TypeId::kUSmallInt:
      return "USMALLINT";
    case TypeId::kUInteger:
      return "UINTEGER";
    case TypeId::kUBigInt:
      return "UBIGINT";
    case TypeId::kHugeInt:
      return "HUGEINT";
    case TypeId::kUHugeInt:
      return "UHUGEINT";
    case TypeId::kFloat:
      return "FLOAT";
    case TypeId::kDouble:
      return "DOUBLE";
    case TypeId::kDecimal:
      return "DECIMAL";
    case TypeId::kVarchar:
      return "VARCHAR";
    case TypeId::kBlob:
      return "BLOB";
    case TypeId::kDate:
      return "DATE";
    case TypeId::kTime:
      return "TIME";
    case TypeId::kTimeTz:
      return "TIME WITH TIME ZONE";
    case TypeId::kTimestamp:
      return "TIMESTAMP";
    case TypeId::kTimestampTz:
      return "TIMESTAMP WITH TIME ZONE";
    case TypeId::kTimestampSec:
      return "TIMESTAMP_S";
    case TypeId::kTimestampMs:
      return "TIMESTAMP_MS";
    case TypeId::kTimestampNs:
      return "TIMESTAMP_NS";
    case TypeId::kInterval:
      return "INTERVAL";
    case TypeId::kUuid:
      return "UUID";
    case TypeId::kEnum:
      return "ENUM";
    case TypeId::kList:
      return "LIST";
    case TypeId::kArray:
      return "ARRAY";
    case TypeId::kStruct:
      return "STRUCT";
    case TypeId::kMap:
      return "MAP";
    case TypeId::kUnion:
      return "UNION";
    case TypeId::kOther:
      return "OTHER";
  }
  return "UNKNOWN";
}

}  // namespace databox::duck
