#include "duck/text_generator.h"

#include <memory>
#include <vector>

#include "duck/handles_internal.h"

namespace databox::duck {
namespace {

struct Maker {
  std::size_t width = 0;
  TextMaker make = nullptr;
};

void Generate(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector output) {
  const auto* maker = static_cast<const Maker*>(duckdb_scalar_function_get_extra_info(info));
  const idx_t rows = duckdb_data_chunk_get_size(input);
  std::vector<char> value(maker->width);
  for (idx_t row = 0; row < rows; ++row) {
    maker->make(value.data());
    duckdb_vector_assign_string_element_len(output, row, value.data(), maker->width);
  }
}

struct ScalarFunctionDeleter {
  void operator()(duckdb_scalar_function function) const {
    duckdb_destroy_scalar_function(&function);
  }
};

}  // namespace

Status RegisterTextGenerator(Connection& conn, const std::string& name, std::size_t width,
                             TextMaker make) {
  std::unique_ptr<_duckdb_scalar_function, ScalarFunctionDeleter> function(
      duckdb_create_scalar_function());
  duckdb_scalar_function_set_name(function.get(), name.c_str());
  internal::LogicalTypePtr varchar(duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR));
  duckdb_scalar_function_set_return_type(function.get(), varchar.get());
  duckdb_scalar_function_set_volatile(function.get());
  duckdb_scalar_function_set_extra_info(function.get(), new Maker{width, make},
                                        [](void* data) { delete static_cast<Maker*>(data); });
  duckdb_scalar_function_set_function(function.get(), Generate);
  if (duckdb_register_scalar_function(conn.handle(), function.get()) != DuckDBSuccess) {
    return MakeError(ErrorKind::kInternal, "cannot register the DuckDB function " + name);
  }
  return Ok();
}

}  // namespace databox::duck
