#include "normalize/normalizer.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <limits>
#include <map>
#include <span>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "common/simd_json.h"
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

Scalar TextScalar(std::string_view text) {
  Scalar s;
  s.kind = ScalarKind::kString;
  s.text = text;
  return s;
}

Scalar IntScalar(int64_t value) {
  Scalar s;
  s.kind = ScalarKind::kInt64;
  s.int64 = value;
  return s;
}

//! Owns the text that scalars of one row point into (serialized kept-whole values).
class TextStore {
 public:
  std::string& NewText() { return *texts_.emplace_back(std::make_unique<std::string>()); }
  void ClearTexts() { texts_.clear(); }

 private:
  std::vector<std::unique_ptr<std::string>> texts_;  //!< stable addresses; empty costs nothing
};

// --- JSON views: the normalizer walks either parser's values through the same interface -----

//! A value of nlohmann's order-preserving JSON (records from sources and tests).
class NlohmannView {
 public:
  explicit NlohmannView(const Json& value) : value_(&value) {}
  bool is_null() const { return value_->is_null(); }
  bool is_object() const { return value_->is_object(); }
  bool is_array() const { return value_->is_array(); }
  //! Calls f(key, value) for every member of an object, in document order.
  template <typename F>
  void ForEachField(F&& f) const {
    for (auto it = value_->begin(); it != value_->end(); ++it) {
      f(std::string_view(it.key()), NlohmannView(it.value()));
    }
  }
  //! Items of a list.
  std::size_t size() const { return value_->size(); }
  //! Calls f(index, item) for every item of a list until f returns an error.
  template <typename F>
  Status ForEachItem(F&& f) const {
    for (std::size_t i = 0; i < value_->size(); ++i) {
      DATABOX_RETURN_IF_ERROR(f(i, NlohmannView((*value_)[i])));
    }
    return Ok();
  }
  Scalar ToScalar(TextStore& store) const {
    static std::string unused;  // never written: only objects and lists use the text
    return ScalarOf(*value_, value_->is_structured() ? store.NewText() : unused);
  }

 private:
  const Json* value_;
};

//! A value of a simdjson DOM document (NDJSON files: AddJsonText).
class SimdView {
 public:
  explicit SimdView(simdjson::dom::element element) : element_(element) {}
  bool is_null() const { return element_.type() == simdjson::dom::element_type::NULL_VALUE; }
  bool is_object() const { return element_.type() == simdjson::dom::element_type::OBJECT; }
  bool is_array() const { return element_.type() == simdjson::dom::element_type::ARRAY; }
  template <typename F>
  void ForEachField(F&& f) const {
    simdjson::dom::object object;
    [[maybe_unused]] auto error = element_.get(object);  // callers check is_object()
    for (simdjson::dom::key_value_pair field : object) {
      f(field.key, SimdView(field.value));
    }
  }
  std::size_t size() const {
    simdjson::dom::array array;
    [[maybe_unused]] auto error = element_.get(array);  // callers check is_array()
    // simdjson saturates the stored size at 0xFFFFFF; count such lists item by item.
    constexpr std::size_t kSaturated = 0xFFFFFF;
    if (const std::size_t stored = array.size(); stored < kSaturated) return stored;
    std::size_t n = 0;
    for ([[maybe_unused]] simdjson::dom::element item : array) ++n;
    return n;
  }
  template <typename F>
  Status ForEachItem(F&& f) const {
    simdjson::dom::array array;
    [[maybe_unused]] auto error = element_.get(array);  // callers check is_array()
    std::size_t i = 0;
    for (simdjson::dom::element item : array) {
      DATABOX_RETURN_IF_ERROR(f(i++, SimdView(item)));
    }
    return Ok();
  }
  Scalar ToScalar(TextStore& store) const {
    using simdjson::dom::element_type;
    Scalar s;
    switch (element_.type()) {
      case element_type::STRING:
        s.kind = ScalarKind::kString;
        s.text = element_.get_string().value_unsafe();
        return s;
      case element_type::INT64:
        s.kind = ScalarKind::kInt64;
        s.int64 = element_.get_int64().value_unsafe();
        return s;
      case element_type::UINT64: {
        const uint64_t v = element_.get_uint64().value_unsafe();
        if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return IntScalar(v);
        s.kind = ScalarKind::kWide;
        s.wide = v;
        return s;
      }
      case element_type::DOUBLE:
        s.kind = ScalarKind::kDouble;
        s.real = element_.get_double().value_unsafe();
        return s;
      case element_type::BOOL:
        s.kind = ScalarKind::kBool;
        s.boolean = element_.get_bool().value_unsafe();
        return s;
      default: {
        std::string& composite_text = store.NewText();
        composite_text = ToNlohmann(element_).dump();
        s.kind = ScalarKind::kComposite;
        s.text = composite_text;
        return s;
      }
    }
  }

 private:
  simdjson::dom::element element_;
};

//! The one member of dlt's wrappers: `{"value": v}` for a non-object record and `{"list": l}` for
//! a list inside a list.
template <typename V>
class SingleFieldView {
 public:
  SingleFieldView(std::string_view key, V value) : key_(key), value_(value) {}
  template <typename F>
  void ForEachField(F&& f) const {
    f(key_, value_);
  }

 private:
  std::string_view key_;
  V value_;
};

// --- Tables -----------------------------------------------------------------------------------

struct Table;

//! A column name known in a table (interned: equal names are the same object), with the
//! column's position once the column exists.
struct Name {
  std::string text;
  int column = -1;  //!< position in the table's columns; -1 until a non-null value creates it
  uint64_t row_epoch = 0;     //!< the PendingRow epoch that last set this name
  std::size_t row_field = 0;  //!< the field index in that row
};

struct ObjectNode;

//! What a key at one place of a table's rows (top level, or inside flattened objects) maps to.
//! Names depend only on the place and the key, so they are computed once per table and key.
struct KeySlot {
  std::vector<std::string> path;       //!< normalized fragments from the row's top level
  Name* name = nullptr;                //!< the flattened column name
  std::unique_ptr<ObjectNode> nested;  //!< keys of an object under this key (flattened)
  Table* child = nullptr;              //!< the child table of a list under this key
};

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

//! The keys seen at one place of a table's rows.
struct ObjectNode {
  std::vector<std::string> prefix;  //!< normalized fragments of the enclosing keys
  std::unordered_map<std::string, std::unique_ptr<KeySlot>, StringHash, std::equal_to<>> keys;
};

//! A table being built: schema, buffered values, hints for columns not seen yet, and the caches
//! of names. A table exists (is listed by Schemas/Flush) from its first row on.
struct Table {
  TableSchema schema;
  std::vector<std::string> path;     //!< table path fragments (root, field, ...)
  bool listed = false;               //!< has had a row (or is the root table)
  std::vector<ColumnValues> values;  //!< parallel to schema.columns
  //! Parallel to values: 1 + the number of the last row that put a value there (0: none yet).
  std::vector<std::size_t> set_in_row;
  std::size_t rows = 0;                                       //!< buffered rows
  std::map<std::string, ColumnHint, std::less<>> incomplete;  //!< hints without a data type
  //! For each key column inferred from a record: that record's number and shown value.
  std::map<std::string, std::pair<std::size_t, std::string>, std::less<>> key_typed_by;
  std::unordered_map<std::string, std::unique_ptr<Name>, StringHash, std::equal_to<>> names;
  ObjectNode top;  //!< keys of this table's row objects
  // dlt's system columns of this table.
  Name* dlt_id = Intern(kDltId);
  Name* dlt_load_id = Intern(kDltLoadId);
  Name* dlt_root_id = Intern(kDltRootId);
  Name* dlt_parent_id = Intern(kDltParentId);
  Name* dlt_list_idx = Intern(kDltListIdx);
  Name* value = Intern(kValueColumn);

  Name* Intern(std::string_view text) {
    auto it = names.find(text);
    if (it != names.end()) return it->second.get();
    auto name = std::make_unique<Name>();
    name->text = std::string(text);
    Name* raw = name.get();
    names.emplace(raw->text, std::move(name));
    return raw;
  }
  const Column* ColumnOf(const Name& name) const {
    return name.column < 0 ? nullptr : &schema.columns[static_cast<std::size_t>(name.column)];
  }
  void AddColumn(Column column) {
    Intern(column.name)->column = static_cast<int>(schema.columns.size());
    values.push_back(ValuesFor(column.data_type, rows));
    set_in_row.push_back(0);
    schema.columns.push_back(std::move(column));
  }
};

//! One field of a row before coercion: its column name and value (nullopt: JSON null).
struct Field {
  Name* name = nullptr;
  std::optional<Scalar> value;
};

//! A row before coercion; later fields with the same name replace earlier ones (as in a dict).
//! Names remember which row set them last (epochs are unique per row), so Set is O(1).
//! A row is stored before the next one starts, so one PendingRow serves every row in turn.
class PendingRow : public TextStore {
 public:
  //! Starts the next row, keeping the memory of the previous ones.
  void Reset(uint64_t epoch) {
    epoch_ = epoch;
    fields_.clear();
    ClearTexts();
  }
  void Set(Name* name, const std::optional<Scalar>& value) {
    if (name->row_epoch == epoch_) {
      fields_[name->row_field].value = value;
      return;
    }
    name->row_epoch = epoch_;
    name->row_field = fields_.size();
    // Filled in place: building a Field and copying it in made GCC reload the copy with loads
    // that straddle its stores (a store-forwarding stall, ~5 % of the ingest's CPU).
    Field& field = fields_.emplace_back();
    field.name = name;
    field.value = value;
  }
  const Field* Get(const Name* name) const {
    return name->row_epoch == epoch_ ? &fields_[name->row_field] : nullptr;
  }
  const std::vector<Field>& fields() const { return fields_; }

 private:
  uint64_t epoch_ = 0;
  std::vector<Field> fields_;
};

}  // namespace

struct Normalizer::State {
  ResourceHints hints;
  std::string load_id;
  NormalizerOptions options;
  std::string root;
  bool propagate_root_key = false;
  std::vector<Table*> listed;  //!< tables with rows so far: root first, then in order of creation
  std::unordered_map<std::string, std::unique_ptr<Table>> by_name;
  std::optional<Error> failed;  //!< first error; later Add() calls repeat it
  std::size_t records = 0;      //!< records seen, for messages
  simdjson::dom::parser parser;
  //! Child row ids hashed ahead, used as a stack: a row pushes the ids of all its list items
  //! (hashed together: several per Keccak permutation) and pops them when its lists are done;
  //! rows nested in those lists push above. `id_inputs[i]` is the text `child_ids[i]` hashes.
  std::vector<std::string> id_inputs;
  std::vector<std::string> child_ids;
  std::size_t child_ids_used = 0;
  uint64_t row_epochs = 0;  //!< PendingRow epochs handed out
  PendingRow pending;       //!< the row being built (NewRow)

  //! The row to build next: each row is stored before the next one starts.
  PendingRow& NewRow() {
    pending.Reset(++row_epochs);
    return pending;
  }

  Table& GetOrCreateTable(const std::vector<std::string>& path, const std::string& parent) {
    std::string name = ShortenFragments(path, options.max_identifier_length);
    if (auto it = by_name.find(name); it != by_name.end()) return *it->second;
    auto table = std::make_unique<Table>();
    table->schema.name = name;
    table->schema.parent = parent;
    table->schema.resource = hints.resource;
    table->schema.write_disposition = hints.write_disposition;
    table->path = path;
    for (const TableSchema& known : options.known_tables) {
      if (known.name != name) continue;
      for (const Column& column : known.columns) table->AddColumn(column);
    }
    Table* raw = table.get();
    by_name.emplace(std::move(name), std::move(table));
    return *raw;
  }

  void List(Table& table) {
    if (table.listed) return;
    table.listed = true;
    listed.push_back(&table);
  }

  std::string Context() const {
    return "normalizing resource '" + hints.resource + "' (record " +
           std::to_string(options.records_before + records) + ")";
  }

  KeySlot& SlotFor(ObjectNode& node, std::string_view key, Table& table) {
    if (auto it = node.keys.find(key); it != node.keys.end()) return *it->second;
    const auto max_length = options.max_identifier_length;
    auto slot = std::make_unique<KeySlot>();
    slot->path = node.prefix;
    slot->path.push_back(NormalizePath(key, max_length));
    slot->name = table.Intern(node.prefix.empty() ? slot->path.back()
                                                  : ShortenFragments(slot->path, max_length));
    KeySlot* raw = slot.get();
    node.keys.emplace(std::string(key), std::move(slot));
    return *raw;
  }

  //! The path of the child table for lists at `slot` of `table`.
  std::vector<std::string> ChildPath(const Table& table, const KeySlot& slot) const {
    std::vector<std::string> path = table.path;
    path.insert(path.end(), slot.path.begin(), slot.path.end());
    return path;
  }

  //! The name of the child table for lists at `slot` (GetOrCreateTable's name for its path).
  std::string ChildTableName(const Table& table, const KeySlot& slot) const {
    if (slot.child != nullptr) return slot.child->schema.name;
    return ShortenFragments(ChildPath(table, slot), options.max_identifier_length);
  }

  //! The child table of the list under `slot`; an error if its name is longer than a table name
  //! may be (lists nested so deep that the joined name does not fit a file name).
  Result<Table*> ChildTable(Table& table, KeySlot& slot) {
    if (slot.child == nullptr) {
      const std::vector<std::string> path = ChildPath(table, slot);
      const std::string name = ShortenFragments(path, options.max_identifier_length);
      if (name.size() > options.max_table_name_length) {
        constexpr std::size_t kShown = 60;
        return MakeError(ErrorKind::kData,
                         Context() + ": child table '" + name.substr(0, kShown) + "...' has a " +
                             std::to_string(name.size()) + "-character name, more than a table " +
                             "name may have (" + std::to_string(options.max_table_name_length) +
                             "): the records nest lists too deeply; set a lower max_nesting for "
                             "the resource so deeper values stay json");
      }
      slot.child = &GetOrCreateTable(path, table.schema.name);
    }
    return slot.child;
  }

  //! dlt's is_nested_type: true if a dict/list at `name` stays a json value in `table`.
  static bool KeepWhole(const Table& table, const Name& name, int level) {
    if (level <= 0) return true;
    const Column* column = table.ColumnOf(name);
    return column != nullptr && column->data_type == DataType::kJson;
  }

  //! Flattens nested objects into `row` with `__` names; collects lists for child tables.
  template <typename V, typename Object>
  void Flatten(Table& table, ObjectNode& node, const Object& object, int level, PendingRow& row,
               std::vector<std::pair<KeySlot*, V>>& lists) {
    object.ForEachField([&](std::string_view key, V value) {
      KeySlot& slot = SlotFor(node, key, table);
      if ((value.is_object() || value.is_array()) && !KeepWhole(table, *slot.name, level)) {
        if (value.is_object()) {
          if (!slot.nested) {
            slot.nested = std::make_unique<ObjectNode>();
            slot.nested->prefix = slot.path;
          }
          Flatten(table, *slot.nested, value, level - 1, row, lists);
        } else {
          lists.emplace_back(&slot, value);
        }
        return;
      }
      if (value.is_null()) {
        row.Set(slot.name, std::nullopt);
      } else {
        row.Set(slot.name, value.ToScalar(row));
      }
    });
  }

  //! Normalizes one row object of `table`; `root_id` is the root row's id when it propagates.
  //! A child row's id is child_ids[hashed_id] (hashed by its parent row).
  template <typename V, typename Object>
  Status NormalizeRow(const Object& object, Table& table, const std::string& parent_row_id,
                      std::size_t pos, int level, bool is_root, const std::string* root_id,
                      std::size_t hashed_id = 0) {
    PendingRow& row = NewRow();
    std::vector<std::pair<KeySlot*, V>> lists;
    Flatten<V>(table, table.top, object, level, row, lists);
    if (root_id != nullptr) row.Set(table.dlt_root_id, TextScalar(*root_id));
    if (is_root) row.Set(table.dlt_load_id, TextScalar(load_id));
    std::string row_id;
    if (const Field* given = row.Get(table.dlt_id);
        given && given->value && given->value->kind == ScalarKind::kString) {
      row_id = std::string(given->value->text);
    } else if (!is_root) {
      row_id = child_ids[hashed_id];
      row.Set(table.dlt_parent_id, TextScalar(parent_row_id));
      row.Set(table.dlt_list_idx, IntScalar(static_cast<int64_t>(pos)));
      row.Set(table.dlt_id, TextScalar(row_id));
    } else {
      row_id = options.row_id_generator ? options.row_id_generator() : RandomDltId();
      row.Set(table.dlt_id, TextScalar(row_id));
    }
    if (is_root && propagate_root_key) root_id = &row_id;
    DATABOX_RETURN_IF_ERROR(Store(table, row));
    if (lists.empty()) return Ok();
    const std::size_t first = child_ids_used;
    HashChildIds(table, row_id, lists);
    Status status = Ok();
    std::size_t next = first;
    for (auto& [slot, list] : lists) {
      auto child = ChildTable(table, *slot);
      if (!child) {
        status = std::unexpected(std::move(child.error()));
        break;
      }
      status = NormalizeList(list, **child, row_id, level - 1, root_id, next);
      if (!status) break;
      next += list.size();
    }
    child_ids_used = first;
    return status;
  }

  //! Pushes the ids of every item of `lists` (the lists of row `row_id` of `table`), in order,
  //! onto child_ids: dlt's get_nested_row_hash of parent id, child table and position.
  template <typename V>
  void HashChildIds(const Table& table, const std::string& row_id,
                    const std::vector<std::pair<KeySlot*, V>>& lists) {
    const std::size_t first = child_ids_used;
    for (const auto& [slot, list] : lists) {
      const std::string child_table = ChildTableName(table, *slot);
      const std::size_t items = list.size();
      for (std::size_t idx = 0; idx < items; ++idx) {
        if (child_ids_used == id_inputs.size()) {
          id_inputs.emplace_back();
          child_ids.emplace_back();
        }
        ChildIdInput(row_id, child_table, idx, id_inputs[child_ids_used++]);
      }
    }
    Digest128Many(std::span(id_inputs).subspan(first, child_ids_used - first),
                  std::span(child_ids).subspan(first, child_ids_used - first));
  }

  //! Normalizes the items of a list whose ids are child_ids[first_id...].
  template <typename V>
  Status NormalizeList(const V& list, Table& table, const std::string& parent_row_id, int level,
                       const std::string* root_id, std::size_t first_id) {
    return list.ForEachItem([&](std::size_t idx, V item) -> Status {
      if (item.is_object()) {
        return NormalizeRow<V>(item, table, parent_row_id, idx, level, false, root_id,
                               first_id + idx);
      }
      if (item.is_array()) {
        // A list in a list: dlt wraps it as {"list": [...]} so it becomes `<table>__list`.
        return NormalizeRow<V>(SingleFieldView<V>(kListKey, item), table, parent_row_id, idx,
                               level - 1, false, root_id, first_id + idx);
      }
      PendingRow& row = NewRow();
      if (item.is_null()) {
        row.Set(table.value, std::nullopt);
      } else {
        row.Set(table.value, item.ToScalar(row));
      }
      if (root_id != nullptr) row.Set(table.dlt_root_id, TextScalar(*root_id));
      row.Set(table.dlt_parent_id, TextScalar(parent_row_id));
      row.Set(table.dlt_list_idx, IntScalar(static_cast<int64_t>(idx)));
      row.Set(table.dlt_id, TextScalar(child_ids[first_id + idx]));
      return Store(table, row);
    });
  }

  //! Normalizes one record (an object; other values become `{"value": v}` as in dlt).
  template <typename V>
  Status NormalizeRecord(V record) {
    Table& root_table = *by_name.at(root);
    const int level = hints.max_nesting;
    if (record.is_object()) {
      return NormalizeRow<V>(record, root_table, "", 0, level, true, nullptr);
    }
    return NormalizeRow<V>(SingleFieldView<V>(kValueColumn, record), root_table, "", 0, level, true,
                           nullptr);
  }

  //! The text dlt's get_nested_row_hash hashes: "<parent id>_<child table>_<position>".
  static void ChildIdInput(const std::string& parent_row_id, const std::string& table,
                           std::size_t pos, std::string& out) {
    char digits[24];
    const auto end = std::to_chars(std::begin(digits), std::end(digits), pos).ptr;
    out.assign(parent_row_id);
    out.append(1, '_').append(table).append(1, '_').append(digits, end);
  }

  //! True for a primary key column of the root table.
  bool IsKeyColumn(const Table& table, const Column& column) const {
    if (column.primary_key) return true;
    if (table.schema.name != root) return false;
    return std::ranges::any_of(hints.primary_key, [&](const std::string& key) {
      return NormalizePath(key, options.max_identifier_length) == column.name;
    });
  }

  //! True for a primary key column of `table` not created yet (its hint has no type).
  static bool IsPendingKey(const Table& table, const std::string& name) {
    const auto hint = table.incomplete.find(name);
    return hint != table.incomplete.end() && hint->second.primary_key;
  }

  //! `value` as a message shows it (a long text is cut).
  static std::string ShownValue(const Scalar& value) {
    constexpr std::size_t kShown = 80;
    switch (value.kind) {
      case ScalarKind::kBool:
        return value.boolean ? "true" : "false";
      case ScalarKind::kInt64:
        return std::to_string(value.int64);
      case ScalarKind::kWide:
        return std::to_string(value.wide);
      case ScalarKind::kDouble: {
        char digits[32];
        return std::string(digits,
                           std::to_chars(std::begin(digits), std::end(digits), value.real).ptr);
      }
      case ScalarKind::kString:
      case ScalarKind::kComposite:
        break;
    }
    return value.text.size() > kShown ? std::string(value.text.substr(0, kShown)) + "..."
                                      : std::string(value.text);
  }

  //! The refusal of a key value the key column cannot hold: the column, both types seen and
  //! the first record of each.
  std::string KeyTypesError(const Table& table, const std::string& column, DataType type,
                            const Scalar& value) const {
    std::string first = "declared in the resource's column hints";
    if (auto typed = table.key_typed_by.find(column); typed != table.key_typed_by.end()) {
      first =
          "first in record " + std::to_string(typed->second.first) + ": " + typed->second.second;
    }
    return "normalizing resource '" + hints.resource + "': primary key column '" + column +
           "' has values of two types: " + std::string(DataTypeName(type)) + " (" + first +
           ") and " + std::string(DataTypeName(ValueType(value))) + " (first in record " +
           std::to_string(options.records_before + records) + ": " + ShownValue(value) +
           "), which a " + std::string(DataTypeName(type)) +
           " key cannot hold exactly; nothing was committed (a key never changes type; give "
           "the key column a text type hint and reload)";
  }

  //! Coerces `value` into column `name` of `table`, creating the column (or a variant column)
  //! as dlt's _coerce_non_null_value does. Returns the column position and the cell.
  Result<std::pair<std::size_t, Cell>> CoerceNonNull(Table& table, Name& name, const Scalar& value,
                                                     bool is_variant) {
    const Column* existing = table.ColumnOf(name);
    const DataType type = existing ? existing->data_type : InferType(value);
    std::optional<Cell> cell = Coerce(type, value);
    if (!cell && existing != nullptr && IsKeyColumn(table, *existing)) {
      // A key never moves to a variant column: the key itself would be null.
      return MakeError(ErrorKind::kData, KeyTypesError(table, name.text, type, value));
    }
    if (!cell) {
      if (is_variant) {
        return MakeError(ErrorKind::kData,
                         Context() + ": table '" + table.schema.name + "' column '" + name.text +
                             "' has type " + std::string(DataTypeName(type)) +
                             " and a value of type " + std::string(DataTypeName(ValueType(value))) +
                             " that cannot be converted; add a column type hint for it");
      }
      const std::string variant = ShortenFragments(
          {name.text, std::string(kVariantPrefix) + std::string(DataTypeName(ValueType(value)))},
          options.max_identifier_length);
      return CoerceNonNull(table, *table.Intern(variant), value, true);
    }
    if (existing) return std::pair{static_cast<std::size_t>(name.column), std::move(*cell)};
    Column column = NewColumn(name.text, type, is_variant);
    if (auto hint = table.incomplete.find(name.text); hint != table.incomplete.end()) {
      column.primary_key = hint->second.primary_key;
      if (hint->second.nullable) column.nullable = *hint->second.nullable;
      table.incomplete.erase(hint);
    }
    if (column.primary_key) {
      table.key_typed_by[name.text] = {options.records_before + records, ShownValue(value)};
    }
    table.AddColumn(std::move(column));
    return std::pair{table.schema.columns.size() - 1, std::move(*cell)};
  }

  //! Puts `value` into column `column` for the row being stored (the table's row `table.rows`):
  //! appended, or replacing the value this row already put there (two keys of a record can name
  //! the same column; the later wins, as in a dict).
  template <typename T, typename V>
  static void Put(Table& table, std::size_t column, V&& value) {
    const bool again = table.set_in_row[column] == table.rows + 1;
    table.set_in_row[column] = table.rows + 1;
    if constexpr (std::is_same_v<T, std::string>) {
      auto& values = std::get<StringValues>(table.values[column]);
      if (again) {
        values.replace_back(value);
      } else {
        values.push_back(value);
      }
    } else {
      auto& values = std::get<std::vector<std::optional<T>>>(table.values[column]);
      if (again) {
        values.back().emplace(std::forward<V>(value));
      } else {
        values.emplace_back(std::in_place, std::forward<V>(value));
      }
    }
  }

  //! Puts a value of column `column`'s own kind, without the coercion rules, when it needs none:
  //! strings into text, integers into bigint, floats into double, booleans into bool.
  static bool PutAsIs(Table& table, std::size_t column, const Scalar& value) {
    switch (table.schema.columns[column].data_type) {
      case DataType::kText:
        if (value.kind != ScalarKind::kString) return false;
        Put<std::string>(table, column, value.text);
        return true;
      case DataType::kBigint:
        if (value.kind != ScalarKind::kInt64) return false;
        Put<int64_t>(table, column, value.int64);
        return true;
      case DataType::kDouble:
        if (value.kind != ScalarKind::kDouble) return false;
        Put<double>(table, column, value.real);
        return true;
      case DataType::kBool:
        if (value.kind != ScalarKind::kBool) return false;
        Put<bool>(table, column, value.boolean);
        return true;
      default:
        return false;
    }
  }

  Status Store(Table& table, const PendingRow& row) {
    List(table);
    for (const Field& field : row.fields()) {
      if (!field.value) {
        const Column* column = table.ColumnOf(*field.name);
        if (column ? IsKeyColumn(table, *column) : IsPendingKey(table, field.name->text)) {
          return MakeError(ErrorKind::kData, Context() + ": primary key column '" +
                                                 field.name->text +
                                                 "' is null in this record; a key must never be "
                                                 "null (a null key would be added again on every "
                                                 "load); nothing was committed");
        }
        if ((column && !column->nullable) || (!column && HasNotNullHint(field.name->text))) {
          return MakeError(ErrorKind::kData, Context() + ": table '" + table.schema.name +
                                                 "' column '" + field.name->text +
                                                 "' is not nullable but the record has null; "
                                                 "fix the source mapping or the column hint");
        }
        continue;  // a column seen only as null is not created
      }
      if (field.name->column >= 0 &&
          PutAsIs(table, static_cast<std::size_t>(field.name->column), *field.value)) {
        continue;
      }
      DATABOX_ASSIGN_OR_RETURN(auto cell, CoerceNonNull(table, *field.name, *field.value, false));
      const std::size_t column = cell.first;
      const bool put = std::visit(
          [&](auto& kept) {
            using T = std::decay_t<decltype(kept)>;
            using Values = std::conditional_t<std::is_same_v<T, std::string>, StringValues,
                                              std::vector<std::optional<T>>>;
            if (!std::holds_alternative<Values>(table.values[column])) return false;
            Put<T>(table, column, std::move(kept));
            return true;
          },
          cell.second);
      if (!put) {
        return MakeError(ErrorKind::kInternal, Context() + ": value kind does not match column '" +
                                                   table.schema.columns[column].name + "'");
      }
    }
    // Columns this row has no value for hold null.
    for (std::size_t i = 0; i < table.values.size(); ++i) {
      if (table.set_in_row[i] == table.rows + 1) continue;
      AppendNull(table.values[i]);
    }
    ++table.rows;
    return Ok();
  }

  Status Fail(Status status) {
    if (!status) failed = status.error();
    return status;
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
  state->options = options;
  state->root = NormalizePath(hints.table_name, max_length);
  state->propagate_root_key =
      hints.root_key_propagation.value_or(hints.write_disposition == WriteDisposition::kMerge);
  Table& root = state->GetOrCreateTable({state->root}, "");
  state->List(root);

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
    if (root.ColumnOf(*root.Intern(hint.name)) != nullptr) continue;  // a known column
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
  return std::unique_ptr<Normalizer>(new Normalizer(std::move(state)));
}

Status Normalizer::Add(const Json& record) {
  State& s = *state_;
  if (s.failed) return std::unexpected(*s.failed);
  ++s.records;
  return s.Fail(s.NormalizeRecord(NlohmannView(record)));
}

Status Normalizer::Add(const nlohmann::json& record) { return Add(Json::parse(record.dump())); }

Status Normalizer::AddJsonText(std::string_view text) {
  State& s = *state_;
  if (s.failed) return std::unexpected(*s.failed);
  simdjson::dom::element document;
  if (s.parser.parse(text.data(), text.size()).get(document) != simdjson::SUCCESS ||
      HasDuplicateKeys(document)) {
    // simdjson rejects some documents nlohmann reads (integers beyond 64 bits, nesting deeper
    // than 1024) and keeps repeated keys; nlohmann decides those, so both entry points give the
    // same result.
    Json record = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (record.is_discarded()) {
      ++s.records;
      return s.Fail(MakeError(ErrorKind::kData, s.Context() + ": the record is not valid JSON"));
    }
    return Add(record);
  }
  ++s.records;
  return s.Fail(s.NormalizeRecord(SimdView(document)));
}

Status Normalizer::AddJsonElement(const simdjson::dom::element& record) {
  State& s = *state_;
  if (s.failed) return std::unexpected(*s.failed);
  // A repeated key: nlohmann's reading (first position, last value) decides, as in AddJsonText.
  if (HasDuplicateKeys(record)) return Add(ToNlohmann(record));
  ++s.records;
  return s.Fail(s.NormalizeRecord(SimdView(record)));
}

std::size_t Normalizer::BufferedRows() const {
  std::size_t rows = 0;
  for (const Table* table : state_->listed) rows += table->rows;
  return rows;
}

std::vector<TableBatch> Normalizer::Flush() {
  std::vector<TableBatch> batches;
  for (Table* table : state_->listed) {
    if (table->rows == 0) continue;
    TableBatch batch;
    batch.schema = table->schema;
    batch.num_rows = table->rows;
    batch.columns = std::move(table->values);
    table->values.clear();
    for (std::size_t c = 0; c < table->schema.columns.size(); ++c) {
      table->values.push_back(ValuesFor(table->schema.columns[c].data_type));
      ReserveLike(table->values.back(), batch.num_rows, batch.columns[c]);
    }
    std::fill(table->set_in_row.begin(), table->set_in_row.end(), 0);
    table->rows = 0;
    batches.push_back(std::move(batch));
  }
  return batches;
}

std::vector<TableSchema> Normalizer::Schemas() const {
  std::vector<TableSchema> schemas;
  for (const Table* table : state_->listed) schemas.push_back(table->schema);
  return schemas;
}

const std::string& Normalizer::root_table() const { return state_->root; }

}  // namespace databox::normalize
