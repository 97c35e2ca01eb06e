// Iceberg data types (table spec "Schemas and Data Types") and their JSON form.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::iceberg {

//! Every type the v2 spec defines. Primitives first, then the three nested types.
enum class TypeId {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kString,
  kUuid,
  kFixed,
  kBinary,
  kStruct,
  kList,
  kMap,
};

struct NestedField;

//! A value type. Nested types keep their children as NestedFields: a struct its fields,
//! a list one field named "element" (id = element-id), a map two fields named "key"
//! and "value" (ids = key-id / value-id; the key is always required).
//! The factories are defined after NestedField: constructing a Type instantiates
//! std::vector<NestedField>'s destructor, which needs NestedField complete (clang insists).
class Type {
 public:
  Type() = default;
  static Type Boolean();
  static Type Int();
  static Type Long();
  static Type Float();
  static Type Double();
  //! decimal(P,S); P <= 38 is checked by FromJson/Parse, not here.
  static Type Decimal(int32_t precision, int32_t scale);
  static Type Date();
  static Type Time();
  static Type Timestamp();
  static Type TimestampTz();
  static Type String();
  static Type Uuid();
  static Type Fixed(int32_t length);
  static Type Binary();
  static Type Struct(std::vector<NestedField> fields);
  static Type List(int32_t element_id, bool element_required, Type element);
  static Type Map(int32_t key_id, Type key, int32_t value_id, bool value_required, Type value);

  TypeId id() const { return id_; }
  bool is_primitive() const { return id_ < TypeId::kStruct; }
  bool is_nested() const { return !is_primitive(); }
  int32_t precision() const { return precision_; }  //!< decimal only
  int32_t scale() const { return scale_; }          //!< decimal only
  int32_t length() const { return length_; }        //!< fixed only
  //! Struct fields; the element of a list; key and value of a map. Empty for primitives.
  const std::vector<NestedField>& fields() const { return fields_; }
  std::vector<NestedField>& mutable_fields() { return fields_; }
  const NestedField& element() const;  //!< list only
  const NestedField& key() const;      //!< map only
  const NestedField& value() const;    //!< map only

  //! Spec string of a primitive ("long", "decimal(9, 2)", "fixed[16]"); "struct"/"list"/"map".
  std::string ToString() const;
  //! Parses a primitive type string; accepts "decimal(9,2)" with or without the space.
  static Result<Type> ParsePrimitive(std::string_view text);

  //! Spec JSON: a string for primitives, an object for struct/list/map.
  nlohmann::json ToJson() const;
  static Result<Type> FromJson(const nlohmann::json& json);

  friend bool operator==(const Type& a, const Type& b);

 private:
  explicit Type(TypeId id);

  TypeId id_ = TypeId::kBoolean;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  int32_t length_ = 0;
  std::vector<NestedField> fields_;
};

//! A struct field, list element or map key/value.
struct NestedField {
  int32_t id = 0;
  std::string name;
  bool required = false;
  Type type;
  std::optional<std::string> doc;

  //! {"id":..,"name":..,"required":..,"type":..,"doc":..}
  nlohmann::json ToJson() const;
  static Result<NestedField> FromJson(const nlohmann::json& json);

  friend bool operator==(const NestedField& a, const NestedField& b) = default;
};

inline Type::Type(TypeId id) : id_(id) {}
inline Type Type::Boolean() { return Type(TypeId::kBoolean); }
inline Type Type::Int() { return Type(TypeId::kInt); }
inline Type Type::Long() { return Type(TypeId::kLong); }
inline Type Type::Float() { return Type(TypeId::kFloat); }
inline Type Type::Double() { return Type(TypeId::kDouble); }
inline Type Type::Date() { return Type(TypeId::kDate); }
inline Type Type::Time() { return Type(TypeId::kTime); }
inline Type Type::Timestamp() { return Type(TypeId::kTimestamp); }
inline Type Type::TimestampTz() { return Type(TypeId::kTimestampTz); }
inline Type Type::String() { return Type(TypeId::kString); }
inline Type Type::Uuid() { return Type(TypeId::kUuid); }
inline Type Type::Binary() { return Type(TypeId::kBinary); }

}  // namespace databox::iceberg
