// DuckDB's own C++ exceptions carry their error as JSON in what() ({"exception_type": "HTTP",
// "exception_message": "...", ...}). The C API turns them into error results; one that escapes
// DuckDB instead reaches std::terminate with only that text: DuckDB's iceberg extension 1.5.5
// rethrows a failed manifest read (a manifest file that is gone) from a destructor while the same
// error unwinds the query (fixed upstream after 1.5.x; no newer build is reachable here).
#pragma once

#include <string>
#include <string_view>

namespace databox::duck {

//! One line from an escaped exception's what(): "<type> error: <message>" for DuckDB's JSON form,
//! `what` itself otherwise; line breaks folded into single spaces either way.
std::string DescribeEscapedError(std::string_view what);

}  // namespace databox::duck
