#include "normalize/normalizer.h"

#include <unordered_map>
#include <utility>

#include "normalize/digest.h"
#include "normalize/naming.h"

namespace databox::normalize {
namespace {

// dlt's relational normalizer column names (already snake_case).
constexpr std::string_view kDltId = "_dlt_id";
constexpr std::string_view kDltLoadId = "_dlt_load_id";
constexpr std::string_view kDltRootId = "_dlt_root_id";
constexpr std::string_view kDltParentId = "_dlt_parent_id";
constexpr std::string_view kDltListIdx = "_dlt_list_idx";
constexpr std::string_view kValueColumn = "value";
constexpr std::string_view kListKey = "list";
constexpr std::string_view kVariantPrefix = "v_";

//! dlt's default `not_null` hint: its system columns, matched by name in every table.
bool HasNotNullHint(std::string_view name) {
  return name == kDltId || name == kDltRootId || name == kDltParentId || name == kDltListIdx ||
         name == kDltLoadId;
}

//! A column as dlt's default hints (not_null, unique, row_key, parent_key, root_key) make it.
Column NewColumn(std::string name, DataType type, bool variant) {
  Column column;
  column.nullable = !HasNotNullHint(name);
  column.row_key = column.unique = name == kDltId;
  column.parent_key = name == kDltParentId;
  column.root_key = name == kDltRootId;
  column.variant = variant;
  column.data_type = type;
  column.name = std::move(name);
  return column;
}

//! One field of a row before coercion: its column name and value.
struct Field {
  std::string name;
  Json value;
};

//! A row before coercion; later fields with the same name replace earlier ones (as in a dict).
class PendingRow {
 public:
  void Set(std::string name, Json value) {
    for (Field& field : fields_) {
      if (field.name == name) {
        field.value = std::move(value);
        return;
      }
    }
    fields_.push_back({std::move(name), std::move(value)});
  }
  const Json* Get(std::string_view name) const {
    for (const Field& field : fields_) {
      if (field.name == name) return &field.value;
    }
    return nullptr;
  }
  const std::vector<Field>& fields() const { return fields_; }

 private:
  std::vector<Field> fields_;
};

//! A table being built: schema, buffered values, hints for columns not seen yet.
struct Table {
  TableSchema schema;
  std::unordered_map<std::string, std::size_t> index;         //!< column name -> position
  std::vector<ColumnValues> values;                           //!< parallel to schema.columns
  std::size_t rows = 0;                                       //!< buffered rows
  std::map<std::string, ColumnHint, std::less<>> incomplete;  //!< hints without a data type

  const Column* Find(std::string_view name) const {
    auto it = index.find(std::string(name));
    return it == index.end() ? nullptr : &schema.columns[it->second];
  }
  void AddColumn(Column column) {
    index.emplace(column.name, schema.columns.size());
    values.push_back(ValuesFor(column.data_type, rows));
    schema.columns.push_back(std::move(column));
  }
};

}  // namespace

struct Normalizer::State {
  ResourceHints hints;
  std::string load_id;
  NormalizerOptions options;
  std::string root;
  bool propagate_root_key = false;
  std::vector<std::unique_ptr<Table>> tables;  //!< root first, then children as created
  std::unordered_map<std::string, Table*> by_name;
  std::optional<Error> failed;  //!< first error; later Add() calls repeat it
  std::size_t records = 0;      //!< records seen, for messages

  Table& GetOrCreateTable(const std::string& name, const std::string& parent) {
    if (auto it = by_name.find(name); it != by_name.end()) return *it->second;
    auto table = std::make_unique<Table>();
    table->schema.name = name;
    table->schema.parent = parent;
    table->schema.resource = hints.resource;
    table->schema.write_disposition = hints.write_disposition;
    Table* raw = table.get();
    tables.push_back(std::move(table));
    by_name.emplace(name, raw);
    return *raw;
  }

  std::string Context() const {
    return "normalizing resource '" + hints.resource + "' (record " + std::to_string(records) + ")";
  }

  //! dlt's is_nested_type: true if a dict/list at `name` stays a json value in `table`.
  bool KeepWhole(const std::string& table, const std::string& name, int level) const {
    if (level <= 0) return true;
    auto it = by_name.find(table);
    if (it == by_name.end()) return false;
    const Column* column = it->second->Find(name);
    return column != nullptr && column->data_type == DataType::kJson;
  }

  //! Flattens nested objects into `row` with `__` names; collects lists for child tables.
  void Flatten(const std::string& table, const Json& object, int level,
               const std::vector<std::string>& prefix, PendingRow& row,
               std::vector<std::pair<std::vector<std::string>, const Json*>>& lists) const {
    const auto max_length = options.max_identifier_length;
    for (auto it = object.begin(); it != object.end(); ++it) {
      const std::string& key = it.key();
      const std::string norm_key = NormalizePath(key, max_length);
      std::vector<std::string> path = prefix;
      path.push_back(norm_key);
      const std::string name = prefix.empty() ? norm_key : ShortenFragments(path, max_length);
      const Json& value = it.value();
      if ((value.is_object() || value.is_array()) && !KeepWhole(table, name, level)) {
        if (value.is_object()) {
          Flatten(table, value, level - 1, path, row, lists);
        } else {
          lists.emplace_back(std::move(path), &value);
        }
        continue;
      }
      row.Set(name, value);
    }
  }

  Status NormalizeRow(const Json& object, std::vector<std::pair<std::string, Json>> extend,
                      const std::vector<std::string>& table_path, const std::string& parent,
                      const std::string& parent_row_id, std::size_t pos, int level, bool is_root) {
    const std::string table = ShortenFragments(table_path, options.max_identifier_length);
    PendingRow row;
    std::vector<std::pair<std::vector<std::string>, const Json*>> lists;
    Flatten(table, object, level, {}, row, lists);
    for (auto& [name, value] : extend) row.Set(name, value);
    if (is_root) row.Set(std::string(kDltLoadId), load_id);
    std::string row_id;
    if (const Json* given = row.Get(kDltId); given && given->is_string() && !given->empty()) {
      row_id = given->get<std::string>();
    } else if (!is_root) {
      row_id = ChildRowId(parent_row_id, table, pos);
      row.Set(std::string(kDltParentId), parent_row_id);
      row.Set(std::string(kDltListIdx), static_cast<int64_t>(pos));
      row.Set(std::string(kDltId), row_id);
    } else {
      row_id = options.row_id_generator ? options.row_id_generator() : RandomDltId();
      row.Set(std::string(kDltId), row_id);
    }
    if (is_root && propagate_root_key) extend.emplace_back(std::string(kDltRootId), row_id);
    DATABOX_RETURN_IF_ERROR(Store(table, parent, row));
    for (auto& [list_path, list] : lists) {
      std::vector<std::string> child_path = table_path;
      child_path.insert(child_path.end(), list_path.begin(), list_path.end());
      DATABOX_RETURN_IF_ERROR(NormalizeList(*list, extend, child_path, table, row_id, level - 1));
    }
    return Ok();
  }

  Status NormalizeList(const Json& list, const std::vector<std::pair<std::string, Json>>& extend,
                       const std::vector<std::string>& table_path, const std::string& parent,
                       const std::string& parent_row_id, int level) {
    const std::string table = ShortenFragments(table_path, options.max_identifier_length);
    for (std::size_t idx = 0; idx < list.size(); ++idx) {
      const Json& item = list[idx];
      if (item.is_object()) {
        DATABOX_RETURN_IF_ERROR(
            NormalizeRow(item, extend, table_path, parent, parent_row_id, idx, level, false));
      } else if (item.is_array()) {
        // A list in a list: dlt wraps it as {"list": [...]} so it becomes `<table>__list`.
        Json wrapper = Json::object();
        wrapper[std::string(kListKey)] = item;
        DATABOX_RETURN_IF_ERROR(NormalizeRow(wrapper, extend, table_path, parent, parent_row_id,
                                             idx, level - 1, false));
      } else {
        PendingRow row;
        row.Set(std::string(kValueColumn), item);
        for (const auto& [name, value] : extend) row.Set(name, value);
        row.Set(std::string(kDltParentId), parent_row_id);
        row.Set(std::string(kDltListIdx), static_cast<int64_t>(idx));
        row.Set(std::string(kDltId), ChildRowId(parent_row_id, table, idx));
        DATABOX_RETURN_IF_ERROR(Store(table, parent, row));
      }
    }
    return Ok();
  }

  //! dlt's get_nested_row_hash: deterministic from parent id, table and list position.
  static std::string ChildRowId(const std::string& parent_row_id, const std::string& table,
                                std::size_t pos) {
    return Digest128(parent_row_id + "_" + table + "_" + std::to_string(pos));
  }

  //! Coerces `value` into column `name` of `table`, creating the column (or a variant column)
  //! as dlt's _coerce_non_null_value does. Returns the column position and the cell.
  Result<std::pair<std::size_t, Cell>> CoerceNonNull(Table& table, const std::string& name,
                                                     const Json& value, bool is_variant) {
    const Column* existing = table.Find(name);
    const DataType type = existing ? existing->data_type : InferType(value);
    std::optional<Cell> cell = Coerce(type, value);
    if (!cell) {
      if (is_variant) {
        return MakeError(ErrorKind::kData,
                         Context() + ": table '" + table.schema.name + "' column '" + name +
                             "' has type " + std::string(DataTypeName(type)) +
                             " and a value of type " + std::string(DataTypeName(ValueType(value))) +
                             " that cannot be converted; add a column type hint for it");
      }
      const std::string variant = ShortenFragments(
          {name, std::string(kVariantPrefix) + std::string(DataTypeName(ValueType(value)))},
          options.max_identifier_length);
      return CoerceNonNull(table, variant, value, true);
    }
    if (existing) return std::pair{table.index.at(name), std::move(*cell)};
    Column column = NewColumn(name, type, is_variant);
    if (auto hint = table.incomplete.find(name); hint != table.incomplete.end()) {
      column.primary_key = hint->second.primary_key;
      if (hint->second.nullable) column.nullable = *hint->second.nullable;
      table.incomplete.erase(hint);
    }
    table.AddColumn(std::move(column));
    return std::pair{table.schema.columns.size() - 1, std::move(*cell)};
  }

  Status Store(const std::string& table_name, const std::string& parent, const PendingRow& row) {
    Table& table = GetOrCreateTable(table_name, parent);
    std::vector<std::pair<std::size_t, Cell>> cells;
    for (const Field& field : row.fields()) {
      if (field.value.is_null()) {
        const Column* column = table.Find(field.name);
        if ((column && !column->nullable) || (!column && HasNotNullHint(field.name))) {
          return MakeError(ErrorKind::kData, Context() + ": table '" + table_name + "' column '" +
                                                 field.name +
                                                 "' is not nullable but the record has null; "
                                                 "fix the source mapping or the column hint");
        }
        continue;  // a column seen only as null is not created
      }
      DATABOX_ASSIGN_OR_RETURN(auto cell, CoerceNonNull(table, field.name, field.value, false));
      cells.push_back(std::move(cell));
    }
    std::vector<std::optional<Cell>> row_cells(table.values.size());
    for (auto& [index, cell] : cells) row_cells[index] = std::move(cell);
    for (std::size_t i = 0; i < row_cells.size(); ++i) {
      if (!AppendCell(table.values[i], row_cells[i])) {
        return MakeError(ErrorKind::kInternal, Context() + ": value kind does not match column '" +
                                                   table.schema.columns[i].name + "'");
      }
    }
    ++table.rows;
    return Ok();
  }
};

Normalizer::Normalizer(std::unique_ptr<State> state) : state_(std::move(state)) {}
Normalizer::~Normalizer() = default;

Result<std::unique_ptr<Normalizer>> Normalizer::Make(ResourceHints hints, std::string load_id,
                                                     NormalizerOptions options) {
  const std::string where = "normalizer for resource '" + hints.resource + "'";
  if (hints.table_name.empty()) {
    return MakeError(ErrorKind::kConfig, where + ": table name is empty; set the table name");
  }
  if (load_id.empty()) {
    return MakeError(ErrorKind::kConfig, where + ": load id is empty");
  }
  if (hints.max_nesting < 0) {
    return MakeError(ErrorKind::kConfig, where + ": max_nesting must be >= 0");
  }
  auto state = std::make_unique<State>();
  const auto max_length = options.max_identifier_length;
  state->hints = hints;
  state->root = NormalizePath(hints.table_name, max_length);
  state->propagate_root_key =
      hints.root_key_propagation.value_or(hints.write_disposition == WriteDisposition::kMerge);
  Table& root = state->GetOrCreateTable(state->root, "");

  // Merge the primary key into the column hints, keeping declaration order.
  std::vector<ColumnHint> column_hints;
  auto find_hint = [&](const std::string& name) -> ColumnHint* {
    for (ColumnHint& h : column_hints) {
      if (h.name == name) return &h;
    }
    return nullptr;
  };
  for (const ColumnHint& hint : hints.columns) {
    if (hint.name.empty())
      return MakeError(ErrorKind::kConfig, where + ": a column hint has no name");
    ColumnHint normalized = hint;
    normalized.name = NormalizePath(hint.name, max_length);
    if (ColumnHint* same = find_hint(normalized.name)) {
      *same = normalized;
    } else {
      column_hints.push_back(std::move(normalized));
    }
  }
  for (const std::string& key : hints.primary_key) {
    if (key.empty())
      return MakeError(ErrorKind::kConfig, where + ": a primary key column is empty");
    const std::string name = NormalizePath(key, max_length);
    ColumnHint* hint = find_hint(name);
    if (!hint) {
      ColumnHint pk_hint;
      pk_hint.name = name;
      column_hints.push_back(std::move(pk_hint));
      hint = &column_hints.back();
    }
    hint->primary_key = true;
  }
  for (ColumnHint& hint : column_hints) {
    if (hint.primary_key && !hint.nullable) hint.nullable = false;
    if (!hint.data_type) {
      root.incomplete.emplace(hint.name, hint);
      continue;
    }
    Column column = NewColumn(hint.name, *hint.data_type, false);
    column.primary_key = hint.primary_key;
    if (hint.nullable) column.nullable = *hint.nullable;
    root.AddColumn(std::move(column));
  }
  state->load_id = std::move(load_id);
  state->options = std::move(options);
  return std::unique_ptr<Normalizer>(new Normalizer(std::move(state)));
}

Status Normalizer::Add(const Json& record) {
  State& s = *state_;
  if (s.failed) return std::unexpected(*s.failed);
  ++s.records;
  Status status;
  if (record.is_object()) {
    status = s.NormalizeRow(record, {}, {s.root}, "", "", 0, s.hints.max_nesting, true);
  } else {
    Json wrapper = Json::object();
    wrapper[std::string(kValueColumn)] = record;
    status = s.NormalizeRow(wrapper, {}, {s.root}, "", "", 0, s.hints.max_nesting, true);
  }
  if (!status) s.failed = status.error();
  return status;
}

Status Normalizer::Add(const nlohmann::json& record) { return Add(Json::parse(record.dump())); }

std::size_t Normalizer::BufferedRows() const {
  std::size_t rows = 0;
  for (const auto& table : state_->tables) rows += table->rows;
  return rows;
}

std::vector<TableBatch> Normalizer::Flush() {
  std::vector<TableBatch> batches;
  for (auto& table : state_->tables) {
    if (table->rows == 0) continue;
    TableBatch batch;
    batch.schema = table->schema;
    batch.num_rows = table->rows;
    batch.columns = std::move(table->values);
    table->values.clear();
    for (const Column& column : table->schema.columns) {
      table->values.push_back(ValuesFor(column.data_type));
    }
    table->rows = 0;
    batches.push_back(std::move(batch));
  }
  return batches;
}

std::vector<TableSchema> Normalizer::Schemas() const {
  std::vector<TableSchema> schemas;
  for (const auto& table : state_->tables) schemas.push_back(table->schema);
  return schemas;
}

const std::string& Normalizer::root_table() const { return state_->root; }

}  // namespace databox::normalize
