#include "duck/type_id.h"

#include <cstddef>

#include "common/enum_names.h"

namespace databox::duck {
namespace {

constexpr EnumNames<TypeId, 34> kTypeIdNames{{{TypeId::kInvalid, "INVALID"},
                                              {TypeId::kBoolean, "BOOLEAN"},
                                              {TypeId::kTinyInt, "TINYINT"},
                                              {TypeId::kSmallInt, "SMALLINT"},
                                              {TypeId::kInteger, "INTEGER"},
                                              {TypeId::kBigInt, "BIGINT"},
                                              {TypeId::kUTinyInt, "UTINYINT"},
                                              {TypeId::kUSmallInt, "USMALLINT"},
                                              {TypeId::kUInteger, "UINTEGER"},
                                              {TypeId::kUBigInt, "UBIGINT"},
                                              {TypeId::kHugeInt, "HUGEINT"},
                                              {TypeId::kUHugeInt, "UHUGEINT"},
                                              {TypeId::kFloat, "FLOAT"},
                                              {TypeId::kDouble, "DOUBLE"},
                                              {TypeId::kDecimal, "DECIMAL"},
                                              {TypeId::kVarchar, "VARCHAR"},
                                              {TypeId::kBlob, "BLOB"},
                                              {TypeId::kDate, "DATE"},
                                              {TypeId::kTime, "TIME"},
                                              {TypeId::kTimeTz, "TIME WITH TIME ZONE"},
                                              {TypeId::kTimestamp, "TIMESTAMP"},
                                              {TypeId::kTimestampTz, "TIMESTAMP WITH TIME ZONE"},
                                              {TypeId::kTimestampSec, "TIMESTAMP_S"},
                                              {TypeId::kTimestampMs, "TIMESTAMP_MS"},
                                              {TypeId::kTimestampNs, "TIMESTAMP_NS"},
                                              {TypeId::kInterval, "INTERVAL"},
                                              {TypeId::kUuid, "UUID"},
                                              {TypeId::kEnum, "ENUM"},
                                              {TypeId::kList, "LIST"},
                                              {TypeId::kArray, "ARRAY"},
                                              {TypeId::kStruct, "STRUCT"},
                                              {TypeId::kMap, "MAP"},
                                              {TypeId::kUnion, "UNION"},
                                              {TypeId::kOther, "OTHER"}}};
static_assert(DistinctNames(kTypeIdNames));
// Every value named: kOther is the last.
static_assert(kTypeIdNames.size() == static_cast<std::size_t>(TypeId::kOther) + 1);

}  // namespace

std::string_view TypeIdName(TypeId id) { return NameOf(kTypeIdNames, id, "UNKNOWN"); }

}  // namespace databox::duck
