// A scalar function without arguments that DuckDB calls once per row for a fresh text value
// (e.g. a random row id), filled by C++ code instead of a chain of SQL string functions.
#pragma once

#include <cstddef>
#include <string>

#include "common/error.h"
#include "duck/connection.h"

namespace databox::duck {

//! Writes one value of exactly the registered width into `out`. Called from DuckDB's threads at
//! once: it must be thread-safe.
using TextMaker = void (*)(char* out);

//! Registers `name()` on `conn`'s database: a volatile VARCHAR function (a new value every row,
//! never folded into a constant) whose values are `width` bytes written by `make`.
Status RegisterTextGenerator(Connection& conn, const std::string& name, std::size_t width,
                             TextMaker make);

}  // namespace databox::duck
