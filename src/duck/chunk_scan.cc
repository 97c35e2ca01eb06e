#include "duck/chunk_scan.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <mutex>

#include "duck/handles_internal.h"

namespace databox::duck {
namespace {

constexpr char kFunctionName[] = "databox_scan";

//! Sources by handle. Handles are never reused, so a stale handle finds nothing.
struct Registry {
  std::mutex mutex;
  int64_t next_handle = 1;
  std::map<int64_t, const ChunkSource*> sources;
};

Registry& Sources() {
  static Registry registry;
  return registry;
}

const ChunkSource* Lookup(int64_t handle) {
  Registry& registry = Sources();
  std::lock_guard lock(registry.mutex);
  auto it = registry.sources.find(handle);
  return it == registry.sources.end() ? nullptr : it->second;
}

//! Shared by the threads of one scan: the next part nobody has taken.
struct GlobalState {
  std::atomic<std::size_t> next_part{0};
};

//! One thread's position: the part it fills from and the next row in it.
struct LocalState {
  std::size_t part = 0;
  uint64_t offset = 0;
  bool has_part = false;
};

template <typename T>
void Delete(void* state) {
  delete static_cast<T*>(state);
}

void Bind(duckdb_bind_info info) {
  internal::ValuePtr parameter(duckdb_bind_get_parameter(info, 0));
  const ChunkSource* source = Lookup(duckdb_get_int64(parameter.get()));
  if (source == nullptr) {
    duckdb_bind_set_error(info, "databox_scan: no rows are registered under this handle");
    return;
  }
  const auto& names = source->column_names();
  const auto& types = source->column_types();
  for (std::size_t i = 0; i < names.size(); ++i) {
    internal::LogicalTypePtr type(duckdb_create_logical_type(types[i]));
    duckdb_bind_add_result_column(info, names[i].c_str(), type.get());
  }
  uint64_t rows = 0;
  for (std::size_t part = 0; part < source->part_count(); ++part) rows += source->part_rows(part);
  duckdb_bind_set_cardinality(info, rows, source->complete());
  // Not owned: the ChunkScan's owner keeps the source alive for the query.
  duckdb_bind_set_bind_data(info, const_cast<ChunkSource*>(source), nullptr);
}

void Init(duckdb_init_info info) {
  const auto* source = static_cast<const ChunkSource*>(duckdb_init_get_bind_data(info));
  duckdb_init_set_init_data(info, new GlobalState, Delete<GlobalState>);
  duckdb_init_set_max_threads(info, std::max<std::size_t>(1, source->max_scan_threads()));
}

void LocalInit(duckdb_init_info info) {
  duckdb_init_set_init_data(info, new LocalState, Delete<LocalState>);
}

void Scan(duckdb_function_info info, duckdb_data_chunk output) {
  const auto* source = static_cast<const ChunkSource*>(duckdb_function_get_bind_data(info));
  auto* global = static_cast<GlobalState*>(duckdb_function_get_init_data(info));
  auto* local = static_cast<LocalState*>(duckdb_function_get_local_init_data(info));
  while (!local->has_part || local->offset >= source->part_rows(local->part)) {
    // This thread's previous chunk has been through the whole query by now: DuckDB asks a
    // thread for its next chunk only after pushing the last one to the end of the pipeline.
    if (local->has_part) source->ReleasePart(local->part);
    local->has_part = false;
    const std::size_t next = global->next_part.fetch_add(1);
    if (!source->WaitForPart(next)) {
      duckdb_data_chunk_set_size(output, 0);
      return;
    }
    *local = LocalState{next, 0, true};
  }
  const uint64_t count =
      std::min(DataChunk::Capacity(), source->part_rows(local->part) - local->offset);
  try {
    DataChunk chunk = DataChunk::Borrow(output);
    if (Status filled = source->Fill(local->part, local->offset, count, chunk); !filled) {
      duckdb_function_set_error(info, filled.error().message.c_str());
      return;
    }
    chunk.SetSize(count);
  } catch (const std::exception& e) {
    duckdb_function_set_error(info, e.what());
    return;
  }
  local->offset += count;
}

bool IsRegistered(Connection& conn) {
  auto found = conn.Query(std::string("SELECT 1 FROM duckdb_functions() WHERE function_name = '") +
                          kFunctionName + "'");
  return found && found->row_count() > 0;
}

}  // namespace

Status RegisterChunkScan(Connection& conn) {
  // Connections of one database on several threads (one per streamed table) would both find the
  // function missing and race to create it: one of them would fail.
  static std::mutex registering;
  std::lock_guard lock(registering);
  if (IsRegistered(conn)) return Ok();
  duckdb_table_function function = duckdb_create_table_function();
  duckdb_table_function_set_name(function, kFunctionName);
  internal::LogicalTypePtr handle_type(duckdb_create_logical_type(DUCKDB_TYPE_BIGINT));
  duckdb_table_function_add_parameter(function, handle_type.get());
  duckdb_table_function_set_bind(function, Bind);
  duckdb_table_function_set_init(function, Init);
  duckdb_table_function_set_local_init(function, LocalInit);
  duckdb_table_function_set_function(function, Scan);
  const duckdb_state state = duckdb_register_table_function(conn.handle(), function);
  duckdb_destroy_table_function(&function);
  if (state != DuckDBSuccess) {
    return MakeError(ErrorKind::kInternal, "DuckDB refused to register the databox_scan function");
  }
  return Ok();
}

ChunkScan::ChunkScan(const ChunkSource& source) {
  Registry& registry = Sources();
  std::lock_guard lock(registry.mutex);
  handle_ = registry.next_handle++;
  registry.sources.emplace(handle_, &source);
}

ChunkScan::~ChunkScan() {
  Registry& registry = Sources();
  std::lock_guard lock(registry.mutex);
  registry.sources.erase(handle_);
}

}  // namespace databox::duck
