#include "iceberg/avro/datum.h"

#include <string>
#include <type_traits>

namespace databox::avro {
namespace {

//! Nesting bound for recursive schemas, so corrupt data cannot exhaust the stack.
constexpr int kMaxDatumDepth = 200;
//! Items of a type that encodes to zero bytes (null, empty record) cost no input, so
//! their count needs an explicit bound.
constexpr int64_t kMaxZeroSizeItems = int64_t{1} << 20;

std::unexpected<Error> Mismatch(const Schema& schema, NodeId node, const Value& value) {
  const AvroNode& n = schema.node(node);
  std::string expected(AvroTypeName(n.type));
  if (!n.name.empty()) expected += " " + n.name;
  return MakeError(ErrorKind::kInternal, "avro encode: value " + value.DebugString().substr(0, 80) +
                                             " does not match schema type " + expected);
}

//! Lower bound on the encoded size of a node, for bounding counts read from the wire.
int64_t MinEncodedSize(const Schema& schema, NodeId node, int depth = 0) {
  const AvroNode& n = schema.node(node);
  if (depth > 8) return 0;
  switch (n.type) {
    case AvroType::kNull:
      return 0;
    case AvroType::kFloat:
      return 4;
    case AvroType::kDouble:
      return 8;
    case AvroType::kFixed:
      return n.fixed_size;
    case AvroType::kRecord: {
      int64_t total = 0;
      for (const AvroField& f : n.fields) total += MinEncodedSize(schema, f.type, depth + 1);
      return total;
    }
    default:
      return 1;
  }
}

Status Encode(const Schema& schema, NodeId node, const Value& value, Encoder& e, int depth) {
  if (depth > kMaxDatumDepth) {
    return MakeError(ErrorKind::kInternal, "avro encode: value nested deeper than 200 levels");
  }
  const AvroNode& n = schema.node(node);
  if (n.type != AvroType::kUnion && value.type() != n.type) return Mismatch(schema, node, value);
  switch (n.type) {
    case AvroType::kNull:
      return Ok();
    case AvroType::kBoolean:
      e.WriteBoolean(value.boolean());
      return Ok();
    case AvroType::kInt:
      e.WriteInt(value.int_value());
      return Ok();
    case AvroType::kLong:
      e.WriteLong(value.long_value());
      return Ok();
    case AvroType::kFloat:
      e.WriteFloat(value.float_value());
      return Ok();
    case AvroType::kDouble:
      e.WriteDouble(value.double_value());
      return Ok();
    case AvroType::kBytes:
    case AvroType::kString:
      e.WriteBytes(value.bytes());
      return Ok();
    case AvroType::kFixed:
      if (static_cast<int64_t>(value.bytes().size()) != n.fixed_size)
        return Mismatch(schema, node, value);
      e.WriteFixed(value.bytes());
      return Ok();
    case AvroType::kEnum:
      if (value.int_value() < 0 || static_cast<size_t>(value.int_value()) >= n.symbols.size()) {
        return Mismatch(schema, node, value);
      }
      e.WriteEnum(value.int_value());
      return Ok();
    case AvroType::kRecord: {
      const auto& fields = value.entries();
      if (fields.size() != n.fields.size()) return Mismatch(schema, node, value);
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].first != n.fields[i].name) {
          return MakeError(ErrorKind::kInternal, "avro encode: record " + n.name + " field " +
                                                     std::to_string(i) + " is \"" +
                                                     n.fields[i].name + "\" but the value has \"" +
                                                     fields[i].first + "\"");
        }
        DATABOX_RETURN_IF_ERROR(Encode(schema, n.fields[i].type, fields[i].second, e, depth + 1));
      }
      return Ok();
    }
    case AvroType::kArray:
      e.WriteBlockCount(static_cast<int64_t>(value.items().size()));
      for (const Value& item : value.items()) {
        DATABOX_RETURN_IF_ERROR(Encode(schema, n.items, item, e, depth + 1));
      }
      e.WriteBlockEnd();
      return Ok();
    case AvroType::kMap:
      e.WriteBlockCount(static_cast<int64_t>(value.entries().size()));
      for (const auto& [key, item] : value.entries()) {
        e.WriteString(key);
        DATABOX_RETURN_IF_ERROR(Encode(schema, n.items, item, e, depth + 1));
      }
      e.WriteBlockEnd();
      return Ok();
    case AvroType::kUnion: {
      if (value.type() != AvroType::kUnion) {
        // Convenience: a plain value picks the first branch of the same type (named
        // types must match by type only; use Value::Union to choose explicitly).
        for (size_t i = 0; i < n.branches.size(); ++i) {
          if (schema.node(n.branches[i]).type == value.type()) {
            e.WriteUnionIndex(static_cast<int32_t>(i));
            return Encode(schema, n.branches[i], value, e, depth + 1);
          }
        }
        return Mismatch(schema, node, value);
      }
      if (value.branch() < 0 || static_cast<size_t>(value.branch()) >= n.branches.size()) {
        return Mismatch(schema, node, value);
      }
      e.WriteUnionIndex(value.branch());
      return Encode(schema, n.branches[static_cast<size_t>(value.branch())], value.branch_value(),
                    e, depth + 1);
    }
  }
  return Mismatch(schema, node, value);
}

Status CheckCount(const Schema& schema, NodeId item_node, int64_t count, int64_t per_item_extra,
                  const Decoder& d) {
  const int64_t min_size = MinEncodedSize(schema, item_node) + per_item_extra;
  const bool too_many = min_size > 0 ? count > static_cast<int64_t>(d.remaining()) / min_size
                                     : count > kMaxZeroSizeItems;
  if (too_many) {
    return MakeError(ErrorKind::kData,
                     "avro decode: block count " + std::to_string(count) + " at byte " +
                         std::to_string(d.position()) + " exceeds what the remaining " +
                         std::to_string(d.remaining()) + " bytes can hold; the file is corrupt");
  }
  return Ok();
}

//! A primitive read turned into a Value by `make` (string views are copied).
template <typename T, typename Make>
Result<Value> Wrap(Result<T> read, Make make) {
  if (!read) return std::unexpected(std::move(read).error());
  if constexpr (std::is_same_v<T, std::string_view>) {
    return make(std::string(*read));
  } else {
    return make(*read);
  }
}

Result<Value> Decode(const Schema& schema, NodeId node, Decoder& d, int depth) {
  if (depth > kMaxDatumDepth) {
    return MakeError(ErrorKind::kData, "avro decode: datum nested deeper than 200 levels at byte " +
                                           std::to_string(d.position()));
  }
  const AvroNode& n = schema.node(node);
  switch (n.type) {
    case AvroType::kNull:
      return Value::Null();
    case AvroType::kBoolean:
      return Wrap(d.ReadBoolean(), Value::Boolean);
    case AvroType::kInt:
      return Wrap(d.ReadInt(), Value::Int);
    case AvroType::kLong:
      return Wrap(d.ReadLong(), Value::Long);
    case AvroType::kFloat:
      return Wrap(d.ReadFloat(), Value::Float);
    case AvroType::kDouble:
      return Wrap(d.ReadDouble(), Value::Double);
    case AvroType::kBytes:
      return Wrap(d.ReadBytes(), Value::Bytes);
    case AvroType::kString:
      return Wrap(d.ReadString(), Value::String);
    case AvroType::kFixed:
      return Wrap(d.ReadFixed(n.fixed_size), Value::Fixed);
    case AvroType::kEnum: {
      DATABOX_ASSIGN_OR_RETURN(int32_t index, d.ReadEnum());
      if (index < 0 || static_cast<size_t>(index) >= n.symbols.size()) {
        return MakeError(ErrorKind::kData, "avro decode: enum " + n.name + " index " +
                                               std::to_string(index) + " out of range at byte " +
                                               std::to_string(d.position()));
      }
      return Value::Enum(index);
    }
    case AvroType::kRecord: {
      Value::Entries fields;
      fields.reserve(n.fields.size());
      for (const AvroField& field : n.fields) {
        DATABOX_ASSIGN_OR_RETURN(Value v, Decode(schema, field.type, d, depth + 1));
        fields.emplace_back(field.name, std::move(v));
      }
      return Value::Record(std::move(fields));
    }
    case AvroType::kArray: {
      Value::Array items;
      while (true) {
        DATABOX_ASSIGN_OR_RETURN(int64_t count, d.ReadBlockCount());
        if (count == 0) break;
        DATABOX_RETURN_IF_ERROR(CheckCount(schema, n.items, count, 0, d));
        items.reserve(items.size() + static_cast<size_t>(count));
        for (int64_t i = 0; i < count; ++i) {
          DATABOX_ASSIGN_OR_RETURN(Value v, Decode(schema, n.items, d, depth + 1));
          items.push_back(std::move(v));
        }
        if (static_cast<int64_t>(items.size()) > kMaxZeroSizeItems * 64) {
          return MakeError(ErrorKind::kData, "avro decode: array longer than 64M items");
        }
      }
      return Value::ArrayOf(std::move(items));
    }
    case AvroType::kMap: {
      Value::Entries entries;
      while (true) {
        DATABOX_ASSIGN_OR_RETURN(int64_t count, d.ReadBlockCount());
        if (count == 0) break;
        DATABOX_RETURN_IF_ERROR(CheckCount(schema, n.items, count, /*key length*/ 1, d));
        entries.reserve(entries.size() + static_cast<size_t>(count));
        for (int64_t i = 0; i < count; ++i) {
          DATABOX_ASSIGN_OR_RETURN(std::string_view key, d.ReadString());
          DATABOX_ASSIGN_OR_RETURN(Value v, Decode(schema, n.items, d, depth + 1));
          entries.emplace_back(std::string(key), std::move(v));
        }
      }
      return Value::Map(std::move(entries));
    }
    case AvroType::kUnion: {
      DATABOX_ASSIGN_OR_RETURN(int32_t branch, d.ReadUnionIndex());
      if (branch < 0 || static_cast<size_t>(branch) >= n.branches.size()) {
        return MakeError(ErrorKind::kData,
                         "avro decode: union branch " + std::to_string(branch) + " out of range (" +
                             std::to_string(n.branches.size()) + " branches) at byte " +
                             std::to_string(d.position()));
      }
      DATABOX_ASSIGN_OR_RETURN(
          Value v, Decode(schema, n.branches[static_cast<size_t>(branch)], d, depth + 1));
      return Value::Union(branch, std::move(v));
    }
  }
  return MakeError(ErrorKind::kInternal, "avro decode: unknown schema node type");
}

}  // namespace

Status EncodeValue(const Schema& schema, NodeId node, const Value& value, Encoder& encoder) {
  return Encode(schema, node, value, encoder, 0);
}

Result<Value> DecodeValue(const Schema& schema, NodeId node, Decoder& decoder) {
  return Decode(schema, node, decoder, 0);
}

}  // namespace databox::avro
