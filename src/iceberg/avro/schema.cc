#include "iceberg/avro/schema.h"

#include <array>
#include <utility>

namespace databox::avro {
namespace {

constexpr std::array<std::pair<std::string_view, AvroType>, 8> kPrimitives = {{
    {"null", AvroType::kNull},
    {"boolean", AvroType::kBoolean},
    {"int", AvroType::kInt},
    {"long", AvroType::kLong},
    {"float", AvroType::kFloat},
    {"double", AvroType::kDouble},
    {"bytes", AvroType::kBytes},
    {"string", AvroType::kString},
}};

//! Nesting bound so a hostile schema cannot exhaust the stack.
constexpr int kMaxSchemaDepth = 256;

std::optional<AvroType> PrimitiveType(std::string_view name) {
  for (const auto& [spelling, type] : kPrimitives) {
    if (spelling == name) return type;
  }
  return std::nullopt;
}

std::unexpected<Error> SchemaError(std::string message) {
  return MakeError(ErrorKind::kData, "avro schema: " + std::move(message));
}

}  // namespace

std::string_view AvroTypeName(AvroType type) {
  switch (type) {
    case AvroType::kNull:
      return "null";
    case AvroType::kBoolean:
      return "boolean";
    case AvroType::kInt:
      return "int";
    case AvroType::kLong:
      return "long";
    case AvroType::kFloat:
      return "float";
    case AvroType::kDouble:
      return "double";
    case AvroType::kBytes:
      return "bytes";
    case AvroType::kString:
      return "string";
    case AvroType::kRecord:
      return "record";
    case AvroType::kEnum:
      return "enum";
    case AvroType::kArray:
      return "array";
    case AvroType::kMap:
      return "map";
    case AvroType::kUnion:
      return "union";
    case AvroType::kFixed:
      return "fixed";
  }
  return "unknown";
}

std::optional<int32_t> AvroField::FieldId() const {
  auto it = attributes.find("field-id");
  if (it == attributes.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int32_t>();
}

std::optional<int64_t> AvroNode::IntAttribute(std::string_view key) const {
  auto it = attributes.find(key);
  if (it == attributes.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

std::optional<NodeId> Schema::FindNamed(std::string_view full_name) const {
  for (const auto& [name, id] : named_) {
    if (name == full_name) return id;
  }
  return std::nullopt;
}

//! Builds a Schema's node table from parsed JSON.
class SchemaParser {
 public:
  explicit SchemaParser(Schema* schema) : schema_(schema) {}

  Result<NodeId> Parse(const nlohmann::json& json, const std::string& ns, int depth) {
    if (depth > kMaxSchemaDepth) return SchemaError("nesting deeper than 256 levels");
    if (json.is_string()) return ParseName(json.get<std::string>(), ns);
    if (json.is_array()) return ParseUnion(json, ns, depth);
    if (!json.is_object())
      return SchemaError("expected a type name, object or array, got " + json.dump());
    auto type_it = json.find("type");
    if (type_it == json.end()) return SchemaError("object without \"type\": " + Abbreviate(json));
    if (!type_it->is_string()) {
      // {"type": {...}} or {"type": [...]}: a wrapped type.
      return Parse(*type_it, ns, depth + 1);
    }
    const std::string type = type_it->get<std::string>();
    if (auto primitive = PrimitiveType(type)) {
      NodeId id = AddNode(*primitive);
      Node(id).logical_type = LogicalType(json);
      Node(id).attributes = OtherAttributes(json, {"type", "logicalType"});
      return id;
    }
    if (type == "record" || type == "error") return ParseRecord(json, ns, depth);
    if (type == "enum") return ParseEnum(json, ns);
    if (type == "fixed") return ParseFixed(json, ns);
    if (type == "array" || type == "map") {
      const bool is_array = type == "array";
      const char* key = is_array ? "items" : "values";
      auto child = json.find(key);
      if (child == json.end()) return SchemaError(type + " without \"" + key + "\"");
      NodeId id = AddNode(is_array ? AvroType::kArray : AvroType::kMap);
      Node(id).logical_type = LogicalType(json);
      Node(id).attributes = OtherAttributes(json, {"type", key, "logicalType"});
      DATABOX_ASSIGN_OR_RETURN(NodeId items, Parse(*child, ns, depth + 1));
      Node(id).items = items;
      return id;
    }
    // A named-type reference written as {"type": "Name"}.
    return ParseName(type, ns);
  }

 private:
  AvroNode& Node(NodeId id) { return schema_->nodes_[static_cast<size_t>(id)]; }

  NodeId AddNode(AvroType type) {
    schema_->nodes_.push_back(AvroNode{});
    schema_->nodes_.back().type = type;
    return static_cast<NodeId>(schema_->nodes_.size() - 1);
  }

  static std::string Abbreviate(const nlohmann::json& json) {
    std::string text = json.dump();
    constexpr size_t kMax = 120;
    if (text.size() > kMax) text = text.substr(0, kMax) + "...";
    return text;
  }

  static std::string LogicalType(const nlohmann::json& json) {
    auto it = json.find("logicalType");
    return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
  }

  static nlohmann::json OtherAttributes(const nlohmann::json& json,
                                        std::initializer_list<std::string_view> skip) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : json.items()) {
      bool skipped = false;
      for (std::string_view s : skip) skipped = skipped || key == s;
      if (!skipped) out[key] = value;
    }
    return out;
  }

  Result<NodeId> ParseName(const std::string& name, const std::string& ns) {
    if (auto primitive = PrimitiveType(name)) return AddNode(*primitive);
    if (name.find('.') == std::string::npos && !ns.empty()) {
      if (auto id = schema_->FindNamed(ns + "." + name)) return *id;
    }
    if (auto id = schema_->FindNamed(name)) return *id;
    return SchemaError("unknown type name \"" + name +
                       "\" (named types must be defined before use)");
  }

  //! Full name and the namespace its children inherit.
  Result<std::pair<std::string, std::string>> FullName(const nlohmann::json& json,
                                                       const std::string& ns) {
    auto name_it = json.find("name");
    if (name_it == json.end() || !name_it->is_string() || name_it->get<std::string>().empty()) {
      return SchemaError("named type without a \"name\": " + Abbreviate(json));
    }
    std::string name = name_it->get<std::string>();
    std::string space = ns;
    if (auto ns_it = json.find("namespace"); ns_it != json.end() && ns_it->is_string()) {
      space = ns_it->get<std::string>();
    }
    std::string full = name;
    if (name.find('.') != std::string::npos) {
      space = name.substr(0, name.rfind('.'));
    } else if (!space.empty()) {
      full = space + "." + name;
    }
    if (schema_->FindNamed(full)) return SchemaError("type \"" + full + "\" defined twice");
    return std::pair{full, space};
  }

  Result<NodeId> ParseRecord(const nlohmann::json& json, const std::string& ns, int depth) {
    DATABOX_ASSIGN_OR_RETURN(auto names, FullName(json, ns));
    auto fields_it = json.find("fields");
    if (fields_it == json.end() || !fields_it->is_array()) {
      return SchemaError("record \"" + names.first + "\" without a \"fields\" array");
    }
    NodeId id = AddNode(AvroType::kRecord);
    Node(id).name = names.first;
    Node(id).logical_type = LogicalType(json);
    Node(id).attributes =
        OtherAttributes(json, {"type", "name", "namespace", "fields", "logicalType"});
    schema_->named_.emplace_back(names.first, id);  // before the fields: recursion
    for (const auto& field_json : *fields_it) {
      if (!field_json.is_object())
        return SchemaError("record \"" + names.first + "\": field is not an object");
      auto name_it = field_json.find("name");
      auto type_it = field_json.find("type");
      if (name_it == field_json.end() || !name_it->is_string() || type_it == field_json.end()) {
        return SchemaError("record \"" + names.first +
                           "\": field without name or type: " + Abbreviate(field_json));
      }
      AvroField field;
      field.name = name_it->get<std::string>();
      for (const AvroField& existing : Node(id).fields) {
        if (existing.name == field.name) {
          return SchemaError("record \"" + names.first + "\": duplicate field \"" + field.name +
                             "\"");
        }
      }
      DATABOX_ASSIGN_OR_RETURN(field.type, Parse(*type_it, names.second, depth + 1));
      field.attributes = OtherAttributes(field_json, {"name", "type"});
      Node(id).fields.push_back(std::move(field));
    }
    return id;
  }

  Result<NodeId> ParseEnum(const nlohmann::json& json, const std::string& ns) {
    DATABOX_ASSIGN_OR_RETURN(auto names, FullName(json, ns));
    auto symbols_it = json.find("symbols");
    if (symbols_it == json.end() || !symbols_it->is_array()) {
      return SchemaError("enum \"" + names.first + "\" without a \"symbols\" array");
    }
    NodeId id = AddNode(AvroType::kEnum);
    Node(id).name = names.first;
    Node(id).attributes = OtherAttributes(json, {"type", "name", "namespace", "symbols"});
    for (const auto& symbol : *symbols_it) {
      if (!symbol.is_string())
        return SchemaError("enum \"" + names.first + "\": symbol is not a string");
      Node(id).symbols.push_back(symbol.get<std::string>());
    }
    schema_->named_.emplace_back(names.first, id);
    return id;
  }

  Result<NodeId> ParseFixed(const nlohmann::json& json, const std::string& ns) {
    DATABOX_ASSIGN_OR_RETURN(auto names, FullName(json, ns));
    auto size_it = json.find("size");
    if (size_it == json.end() || !size_it->is_number_integer() || size_it->get<int64_t>() < 0) {
      return SchemaError("fixed \"" + names.first + "\" without a non-negative integer \"size\"");
    }
    NodeId id = AddNode(AvroType::kFixed);
    Node(id).name = names.first;
    Node(id).fixed_size = size_it->get<int64_t>();
    Node(id).logical_type = LogicalType(json);
    Node(id).attributes =
        OtherAttributes(json, {"type", "name", "namespace", "size", "logicalType"});
    schema_->named_.emplace_back(names.first, id);
    return id;
  }

  Result<NodeId> ParseUnion(const nlohmann::json& json, const std::string& ns, int depth) {
    NodeId id = AddNode(AvroType::kUnion);
    for (const auto& branch_json : json) {
      DATABOX_ASSIGN_OR_RETURN(NodeId branch, Parse(branch_json, ns, depth + 1));
      if (Node(branch).type == AvroType::kUnion)
        return SchemaError("a union may not directly contain a union");
      Node(id).branches.push_back(branch);
    }
    if (Node(id).branches.empty()) return SchemaError("empty union");
    return id;
  }

  Schema* schema_;
};

Result<Schema> Schema::Parse(std::string_view json_text) {
  nlohmann::json json = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return SchemaError("not valid JSON");
  Schema schema;
  schema.json_text_ = std::string(json_text);
  SchemaParser parser(&schema);
  DATABOX_ASSIGN_OR_RETURN(NodeId root, parser.Parse(json, "", 0));
  if (root != 0) {
    // A bare reference cannot be a root: there is nothing defined before it.
    return SchemaError("root type did not parse to the first node");
  }
  return schema;
}

}  // namespace databox::avro
