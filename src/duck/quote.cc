#include "duck/quote.h"

namespace databox::duck {
namespace {

std::string Quote(std::string_view text, char quote) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back(quote);
  for (char c : text) {
    out.push_back(c);
    if (c == quote) out.push_back(quote);
  }
  out.push_back(quote);
  return out;
}

}  // namespace

std::string QuoteIdentifier(std::string_view name) { return Quote(name, '"'); }

std::string QuoteLiteral(std::string_view text) { return Quote(text, '\''); }

namespace {

std::string JoinQuoted(std::span<const std::string> items, std::string (*quote)(std::string_view)) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += quote(item);
  }
  return out;
}

}  // namespace

std::string QuoteIdentifierList(std::span<const std::string> names) {
  return JoinQuoted(names, QuoteIdentifier);
}

std::string QuoteStringList(std::span<const std::string> items) {
  return JoinQuoted(items, QuoteLiteral);
}

}  // namespace databox::duck
