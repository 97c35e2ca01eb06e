// Avro schemas (Avro 1.11 spec, "Schema Declaration"), parsed into a flat node table.
// The verbatim JSON text is kept: Iceberg readers need attributes such as field-id,
// element-id, key-id and value-id exactly as written, and files carry it in avro.schema.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::avro {

enum class AvroType {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
};

//! The spec's name for a type ("null", "record", ...).
std::string_view AvroTypeName(AvroType type);

//! Index of a node in Schema::nodes(); named types referenced twice share one node.
using NodeId = int32_t;

//! One field of a record.
struct AvroField {
  std::string name;  //!< field name
  NodeId type = 0;   //!< the field's type node
  //! Attributes other than name/type (field-id, doc, default, ...), as written.
  nlohmann::json attributes = nlohmann::json::object();

  //! The Iceberg "field-id" attribute, if present and an integer.
  std::optional<int32_t> FieldId() const;
};

//! One schema node.
struct AvroNode {
  AvroType type = AvroType::kNull;
  std::string name;                  //!< full name of a record/enum/fixed, else empty
  std::string logical_type;          //!< "logicalType" attribute, passed through ("" if none)
  std::vector<AvroField> fields;     //!< record fields, in order
  std::vector<std::string> symbols;  //!< enum symbols
  NodeId items = -1;                 //!< array item / map value node
  std::vector<NodeId> branches;      //!< union branches
  int64_t fixed_size = 0;            //!< fixed size in bytes
  //! Attributes of a complex-type JSON object other than the structural ones
  //! (element-id, key-id, value-id, precision, ...), as written.
  nlohmann::json attributes = nlohmann::json::object();

  //! An integer attribute (e.g. "element-id"), if present.
  std::optional<int64_t> IntAttribute(std::string_view key) const;
};

//! A parsed Avro schema. Cheap to query; copyable.
class Schema {
 public:
  //! Parses schema JSON; named-type references resolve to earlier definitions (or the
  //! enclosing record, for recursive types). kData on malformed or unknown types.
  static Result<Schema> Parse(std::string_view json_text);

  //! The JSON text exactly as given to Parse.
  const std::string& json() const { return json_text_; }
  NodeId root() const { return 0; }
  const AvroNode& node(NodeId id) const { return nodes_[static_cast<size_t>(id)]; }
  const AvroNode& root_node() const { return nodes_.front(); }
  const std::vector<AvroNode>& nodes() const { return nodes_; }
  //! The node of a named type by full name.
  std::optional<NodeId> FindNamed(std::string_view full_name) const;

 private:
  friend class SchemaParser;

  std::string json_text_;
  std::vector<AvroNode> nodes_;
  std::vector<std::pair<std::string, NodeId>> named_;  //!< full name -> node
};

}  // namespace databox::avro
