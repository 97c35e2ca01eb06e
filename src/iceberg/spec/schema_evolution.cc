#include "iceberg/spec/schema_evolution.h"

#include <algorithm>
#include <string>
#include <vector>

namespace databox::iceberg {

namespace {

class Merger {
 public:
  explicit Merger(int32_t next_id) : next_id_(next_id) {}

  bool changed() const { return changed_; }

  Status MergeFields(std::vector<NestedField>& current, const std::vector<NestedField>& incoming,
                     const std::string& prefix) {
    for (const auto& in : incoming) {
      const std::string path = prefix.empty() ? in.name : prefix + "." + in.name;
      NestedField* cur = nullptr;
      for (auto& f : current) {
        if (f.name == in.name) cur = &f;
      }
      if (cur == nullptr) {
        // The rows already in the table have no value for it: a new column is optional even
        // where the incoming rows always carry it (e.g. _dlt_load_id appended to a table
        // another engine created).
        std::vector<NestedField> added{in};
        added.front().required = false;
        AssignFreshFieldIds(added, next_id_);
        current.push_back(std::move(added.front()));
        changed_ = true;
        continue;
      }
      DATABOX_RETURN_IF_ERROR(MergeField(*cur, in, path));
    }
    return Ok();
  }

 private:
  static Status Reject(const std::string& path, const std::string& problem) {
    return MakeError(ErrorKind::kData, "column \"" + path + "\" " + problem);
  }

  Status MergeField(NestedField& cur, const NestedField& in, const std::string& path) {
    if (cur.required && !in.required) {
      cur.required = false;
      changed_ = true;
    }
    return MergeType(cur.type, in.type, path);
  }

  Status MergeType(Type& cur, const Type& in, const std::string& path) {
    const TypeId c = cur.id(), i = in.id();
    const std::string change = "cannot change type from " + cur.ToString() + " to " + in.ToString();
    if (c == TypeId::kInt && i == TypeId::kLong) return Promote(cur, Type::Long());
    if (c == TypeId::kFloat && i == TypeId::kDouble) return Promote(cur, Type::Double());
    if ((c == TypeId::kLong && i == TypeId::kInt) ||
        (c == TypeId::kDouble && i == TypeId::kFloat)) {
      return Ok();  // the table's type already holds every incoming value
    }
    if (c != i) return Reject(path, change);
    switch (c) {
      case TypeId::kDecimal:
        if (cur.scale() != in.scale())
          return Reject(path, change + " (decimal scale cannot change)");
        if (in.precision() > cur.precision()) return Promote(cur, in);
        return Ok();
      case TypeId::kFixed:
        if (cur.length() != in.length()) return Reject(path, change);
        return Ok();
      case TypeId::kStruct:
        return MergeFields(cur.mutable_fields(), in.fields(), path);
      case TypeId::kList:
        return MergeField(cur.mutable_fields()[0], in.element(), path + ".element");
      case TypeId::kMap:
        if (!(cur.key().type == in.key().type)) {
          return Reject(path + ".key", "cannot change map key type from " +
                                           cur.key().type.ToString() + " to " +
                                           in.key().type.ToString());
        }
        return MergeField(cur.mutable_fields()[1], in.value(), path + ".value");
      default:
        return Ok();
    }
  }

  Status Promote(Type& cur, Type wider) {
    cur = std::move(wider);
    changed_ = true;
    return Ok();
  }

  int32_t next_id_;
  bool changed_ = false;
};

}  // namespace

Result<Schema> UnionByName(const Schema& current, const Schema& incoming, int32_t last_column_id) {
  Merger merger(std::max(current.HighestFieldId(), last_column_id) + 1);
  std::vector<NestedField> fields = current.fields();
  DATABOX_RETURN_IF_ERROR(merger.MergeFields(fields, incoming.fields(), ""));
  if (!merger.changed()) return current;
  return Schema(current.schema_id() + 1, std::move(fields), current.identifier_field_ids());
}

}  // namespace databox::iceberg
