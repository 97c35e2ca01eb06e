#include "duck/int_function.h"

#include <mutex>

#include "duck/handles_internal.h"
#include "duck/quote.h"

namespace databox::duck {
namespace {

template <duckdb_type kType>
void Call(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector output) {
  const auto function = reinterpret_cast<IntFunction>(duckdb_scalar_function_get_extra_info(info));
  const idx_t rows = duckdb_data_chunk_get_size(input);
  duckdb_vector values = duckdb_data_chunk_get_vector(input, 0);
  duckdb_vector params = duckdb_data_chunk_get_vector(input, 1);
  const uint64_t* value_valid = duckdb_vector_get_validity(values);
  const uint64_t* param_valid = duckdb_vector_get_validity(params);
  const auto* param_data = static_cast<const int32_t*>(duckdb_vector_get_data(params));
  auto* out = static_cast<int32_t*>(duckdb_vector_get_data(output));
  for (idx_t row = 0; row < rows; ++row) {
    if (!duckdb_validity_row_is_valid(const_cast<uint64_t*>(value_valid), row) ||
        !duckdb_validity_row_is_valid(const_cast<uint64_t*>(param_valid), row)) {
      duckdb_vector_ensure_validity_writable(output);
      duckdb_validity_set_row_invalid(duckdb_vector_get_validity(output), row);
      continue;
    }
    IntFunctionValue value;
    if constexpr (kType == DUCKDB_TYPE_BIGINT) {
      value = static_cast<const int64_t*>(duckdb_vector_get_data(values))[row];
    } else if constexpr (kType == DUCKDB_TYPE_HUGEINT) {
      const duckdb_hugeint h =
          static_cast<const duckdb_hugeint*>(duckdb_vector_get_data(values))[row];
      value = static_cast<HugeInt>((static_cast<UHugeInt>(static_cast<uint64_t>(h.upper)) << 64) |
                                   h.lower);
    } else {
      auto* strings = static_cast<duckdb_string_t*>(duckdb_vector_get_data(values));
      value = std::string_view(duckdb_string_t_data(&strings[row]),
                               duckdb_string_t_length(strings[row]));
    }
    out[row] = function(value, param_data[row]);
  }
}

duckdb_scalar_function Overload(const std::string& name, duckdb_type value_type,
                                IntFunction function, duckdb_scalar_function_t call) {
  duckdb_scalar_function f = duckdb_create_scalar_function();
  duckdb_scalar_function_set_name(f, name.c_str());
  internal::LogicalTypePtr value(duckdb_create_logical_type(value_type));
  internal::LogicalTypePtr integer(duckdb_create_logical_type(DUCKDB_TYPE_INTEGER));
  duckdb_scalar_function_add_parameter(f, value.get());
  duckdb_scalar_function_add_parameter(f, integer.get());
  duckdb_scalar_function_set_return_type(f, integer.get());
  duckdb_scalar_function_set_extra_info(f, reinterpret_cast<void*>(function), nullptr);
  duckdb_scalar_function_set_function(f, call);
  return f;
}

}  // namespace

Status RegisterIntFunction(Connection& conn, const std::string& name, IntFunction function) {
  // Connections of one database on several threads would both find it missing and race.
  static std::mutex registering;
  std::lock_guard lock(registering);
  auto found =
      conn.Query("SELECT 1 FROM duckdb_functions() WHERE function_name = " + QuoteLiteral(name));
  if (found && found->row_count() > 0) return Ok();
  duckdb_scalar_function_set set = duckdb_create_scalar_function_set(name.c_str());
  const std::pair<duckdb_type, duckdb_scalar_function_t> overloads[] = {
      {DUCKDB_TYPE_BIGINT, Call<DUCKDB_TYPE_BIGINT>},
      {DUCKDB_TYPE_HUGEINT, Call<DUCKDB_TYPE_HUGEINT>},
      {DUCKDB_TYPE_BLOB, Call<DUCKDB_TYPE_BLOB>}};
  bool added = true;
  for (const auto& [type, call] : overloads) {
    duckdb_scalar_function f = Overload(name, type, function, call);
    added = added && duckdb_add_scalar_function_to_set(set, f) == DuckDBSuccess;
    duckdb_destroy_scalar_function(&f);
  }
  const bool registered =
      added && duckdb_register_scalar_function_set(conn.handle(), set) == DuckDBSuccess;
  duckdb_destroy_scalar_function_set(&set);
  if (!registered) {
    return MakeError(ErrorKind::kInternal, "DuckDB refused to register the function " + name);
  }
  return Ok();
}

}  // namespace databox::duck
