#include "registry/table_layout.h"

#include <cctype>
#include <charconv>
#include <regex>

#include "common/ascii.h"

namespace databox::registry {
namespace {

constexpr int kMaxTransformParam = 1'000'000;

struct TransformName {
  std::string_view name;
  LayoutTransform transform;
  bool takes_param;
};
constexpr TransformName kTransforms[] = {
    {"identity", LayoutTransform::kIdentity, false}, {"year", LayoutTransform::kYear, false},
    {"month", LayoutTransform::kMonth, false},       {"day", LayoutTransform::kDay, false},
    {"hour", LayoutTransform::kHour, false},         {"bucket", LayoutTransform::kBucket, true},
    {"truncate", LayoutTransform::kTruncate, true}};

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

const std::regex& ColumnName() {
  static const std::regex kColumn("^[a-z_][a-z0-9_]*$");
  return kColumn;
}

std::unexpected<Error> Refuse(std::string_view text, std::string_view why) {
  return MakeError(ErrorKind::kConfig,
                   "partition term '" + std::string(text) + "' " + std::string(why) +
                       " (use a column, or identity|year|month|day|hour(column), "
                       "bucket[N](column), truncate[W](column))");
}

}  // namespace

std::string PartitionTerm::IcebergTransform() const {
  for (const TransformName& t : kTransforms) {
    if (t.transform != transform) continue;
    std::string out(t.name);
    if (t.takes_param) out += "[" + std::to_string(param) + "]";
    return out;
  }
  return "identity";
}

Result<PartitionTerm> ParsePartitionTerm(std::string_view raw) {
  const std::string_view text = Trim(raw);
  PartitionTerm term;
  const size_t open = text.find('(');
  if (open == std::string_view::npos) {
    term.column = std::string(text);
  } else {
    if (text.back() != ')') return Refuse(text, "does not end with ')'");
    term.column = std::string(Trim(text.substr(open + 1, text.size() - open - 2)));
    std::string_view head = Trim(text.substr(0, open));
    std::optional<int> param;
    if (const size_t bracket = head.find('['); bracket != std::string_view::npos) {
      if (head.back() != ']') return Refuse(text, "has an unclosed '['");
      const std::string_view digits = head.substr(bracket + 1, head.size() - bracket - 2);
      int value = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec != std::errc() || end != digits.data() + digits.size() || value < 1 ||
          value > kMaxTransformParam) {
        return Refuse(text, "needs a whole number from 1 to 1000000 in [...]");
      }
      param = value;
      head = head.substr(0, bracket);
    }
    const TransformName* found = nullptr;
    for (const TransformName& t : kTransforms) {
      if (head == t.name) found = &t;
    }
    if (found == nullptr) {
      return Refuse(text, "has unknown transform '" + std::string(head) + "'");
    }
    if (found->takes_param != param.has_value()) {
      return Refuse(text, found->takes_param ? "needs its parameter, e.g. " +
                                                   std::string(found->name) + "[16](column)"
                                             : "takes no [parameter]");
    }
    term.transform = found->transform;
    term.param = param.value_or(0);
  }
  if (!std::regex_match(term.column, ColumnName())) {
    return Refuse(text, "does not name a snake_case column");
  }
  return term;
}

Result<SortTerm> ParseSortTerm(std::string_view raw) {
  const std::string text = AsciiLower(Trim(raw));
  static const std::regex kSort(
      "^([a-z_][a-z0-9_]*)(\\s+(asc|desc))?(\\s+nulls\\s+(first|last))?$");
  std::smatch m;
  if (!std::regex_match(text, m, kSort)) {
    return MakeError(ErrorKind::kConfig,
                     "sort term '" + text +
                         "' is not 'column [asc|desc] [nulls first|nulls last]' (a snake_case "
                         "column, e.g. \"observed_at desc\")");
  }
  SortTerm term;
  term.column = m[1].str();
  term.descending = m[3].str() == "desc";
  term.nulls_first = m[5].matched ? m[5].str() == "first" : !term.descending;
  return term;
}

std::optional<std::string> TransformRefusal(LayoutTransform transform, std::string_view type) {
  const bool temporal = type == "timestamp" || type == "date";
  switch (transform) {
    case LayoutTransform::kIdentity:
      return std::nullopt;
    case LayoutTransform::kYear:
    case LayoutTransform::kMonth:
    case LayoutTransform::kDay:
      if (temporal) return std::nullopt;
      return "needs a date or timestamp column";
    case LayoutTransform::kHour:
      if (type == "timestamp") return std::nullopt;
      return "needs a timestamp column";
    case LayoutTransform::kBucket:
      if (type == "double" || type == "bool")
        return "cannot hash a " + std::string(type) +
               " column (Iceberg buckets no floating "
               "point or boolean values)";
      return std::nullopt;
    case LayoutTransform::kTruncate:
      if (type == "bigint" || type == "decimal" || type == "text" || type == "json" ||
          type == "binary") {
        return std::nullopt;
      }
      return "needs a bigint, decimal, text or binary column";
  }
  return std::nullopt;
}

}  // namespace databox::registry
