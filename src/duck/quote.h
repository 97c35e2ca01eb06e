// Quoting names and strings for SQL text sent to DuckDB.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace databox::duck {

//! `name` as a double-quoted identifier, inner `"` doubled: a"b -> "a""b". Safe for any
//! NUL-free input (DuckDB treats everything between the quotes as the name).
std::string QuoteIdentifier(std::string_view name);

//! `text` as a single-quoted string literal, inner `'` doubled: it's -> 'it''s'. Backslashes
//! are not special in DuckDB literals. Safe for any NUL-free input.
std::string QuoteLiteral(std::string_view text);

//! Comma-separated identifiers: [a, b"c] -> "a", "b""c" (for column lists).
std::string QuoteIdentifierList(std::span<const std::string> names);

//! Comma-separated literals: ['a', 'b'] -> 'a', 'b' (for IN lists and list literals).
std::string QuoteStringList(std::span<const std::string> items);

}  // namespace databox::duck
