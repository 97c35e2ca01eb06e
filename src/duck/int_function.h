// Scalar functions written in C++ that DuckDB calls row by row: name(value, INTEGER) -> INTEGER
// for a BIGINT, HUGEINT or BLOB value (NULL in either argument gives NULL). Used where SQL has
// no equivalent (the Iceberg bucket hash).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "common/error.h"
#include "duck/connection.h"

namespace databox::duck {

__extension__ typedef __int128 HugeInt;
__extension__ typedef unsigned __int128 UHugeInt;

//! One row's value: BIGINT, HUGEINT, or the bytes of a BLOB (valid during the call).
using IntFunctionValue = std::variant<int64_t, HugeInt, std::string_view>;
//! Must be safe to call from several DuckDB threads at once.
using IntFunction = int32_t (*)(const IntFunctionValue& value, int32_t param);

//! Makes `name` (BIGINT|HUGEINT|BLOB, INTEGER) -> INTEGER call `function` in `conn`'s database.
//! Calling it again for a name the database has does nothing.
Status RegisterIntFunction(Connection& conn, const std::string& name, IntFunction function);

}  // namespace databox::duck
