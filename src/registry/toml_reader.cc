#include <algorithm>
#include <charconv>
#include <sstream>

#include "common/edit_distance.h"
#include "registry/env.h"
#include "registry/toml_reader_internal.h"

namespace databox::registry::internal {
namespace {

std::string_view TypeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    default:
      return "a date/time";
  }
}

//! Shortest text for a bound ("0.5", "30", "1e+06").
std::string FormatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string RangeText(double min, double max) {
  return "use a value from " + FormatNumber(min) + " to " + FormatNumber(max);
}

}  // namespace

void Problems::Add(int line, std::string message, std::string hint) {
  problems_.push_back(Problem{file_, line, std::move(message), std::move(hint)});
}

ValidationReport Problems::Take() {
  std::stable_sort(problems_.begin(), problems_.end(),
                   [](const Problem& a, const Problem& b) { return a.line < b.line; });
  return ValidationReport{std::move(problems_)};
}

int LineOf(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

int TableReader::LineOf(std::string_view key) const {
  const toml::node* node = table_.get(key);
  return node != nullptr ? internal::LineOf(*node) : line();
}

bool TableReader::Has(std::string_view key) const { return table_.contains(key); }

void TableReader::Report(std::string_view key, const std::string& message, std::string hint) const {
  problems_.Add(LineOf(key), context_ + ": " + message, std::move(hint));
}

const toml::node* TableReader::Get(std::string_view key) {
  known_.insert(std::string(key));
  return table_.get(key);
}

std::optional<std::string> TableReader::Expand(int line, std::string_view label,
                                               const std::string& text, std::string* from) const {
  const Variables* variables = problems_.variables();
  if (variables == nullptr || text.find("${") == std::string::npos) return text;
  auto refs = FindEnvReferences(text);
  const std::string where = context_ + ": '" + std::string(label) + "'";
  if (!refs) {
    problems_.Add(line, where + ": " + refs.error().message);
    return std::nullopt;
  }
  std::string out;
  std::size_t pos = 0;
  bool ok = true;
  for (const EnvReference& ref : *refs) {
    out.append(text, pos, ref.begin - pos);
    pos = ref.end;
    if (from != nullptr) *from += (from->empty() ? "" : ", ") + ref.name;
    std::optional<std::string> value = variables->lookup(ref.name);
    if (!value) value = ref.fallback;
    if (!value) {
      problems_.Add(line, where + " uses variable " + ref.name + ", which is not set",
                    "export " + ref.name + "=... or write ${" + ref.name + ":-default}");
      ok = false;
      continue;
    }
    if (auto range = variables->ranges.find(ref.name); range != variables->ranges.end()) {
      const auto [min, max] = range->second;
      int64_t number = 0;
      const char* end = value->data() + value->size();
      const auto parsed = std::from_chars(value->data(), end, number);
      if (parsed.ec != std::errc() || parsed.ptr != end || number < min || number > max) {
        problems_.Add(line,
                      where + ": variable " + ref.name + " = '" + *value +
                          "' is not an integer from " + std::to_string(min) + " to " +
                          std::to_string(max),
                      "set " + ref.name + " to a whole number from " + std::to_string(min) +
                          " to " + std::to_string(max));
        ok = false;
        continue;
      }
    }
    out += *value;
  }
  out.append(text, pos);
  if (!ok) return std::nullopt;
  return out;
}

std::optional<std::string> TableReader::NumericText(std::string_view key, const toml::node& node,
                                                    std::string* from) const {
  const auto* s = node.as_string();
  if (s == nullptr || s->get().find("${") == std::string::npos ||
      problems_.variables() == nullptr) {
    return std::nullopt;
  }
  return Expand(internal::LineOf(node), key, s->get(), from);
}

std::optional<std::string> TableReader::String(std::string_view key, bool required) {
  const toml::node* node = Get(key);
  if (node == nullptr) {
    if (required) {
      problems_.Add(line(), context_ + ": missing required key '" + std::string(key) + "'",
                    "add " + std::string(key) + " = \"...\"");
    }
    return std::nullopt;
  }
  if (const auto* s = node->as_string()) return Expand(LineOf(key), key, s->get());
  Report(key, "'" + std::string(key) + "' must be a string, not " + std::string(TypeName(*node)),
         "quote the value");
  return std::nullopt;
}

std::optional<std::string> TableReader::Verbatim(std::string_view key) {
  const toml::node* node = Get(key);
  if (node == nullptr) return std::nullopt;
  if (const auto* s = node->as_string()) return s->get();
  Report(key, "'" + std::string(key) + "' must be a string, not " + std::string(TypeName(*node)),
         "quote the value");
  return std::nullopt;
}

std::optional<int64_t> TableReader::Int(std::string_view key, int64_t min, int64_t max) {
  const toml::node* node = Get(key);
  if (node == nullptr) return std::nullopt;
  if (node->is_string() && node->as_string()->get().find("${") != std::string::npos) {
    std::string from;
    auto text = NumericText(key, *node, &from);
    if (!text) return std::nullopt;
    int64_t value = 0;
    const char* end = text->data() + text->size();
    const auto parsed = std::from_chars(text->data(), end, value);
    if (parsed.ec != std::errc() || parsed.ptr != end) {
      Report(key,
             "'" + std::string(key) + "' = '" + *text + "' (from " + from + ") is not an integer",
             RangeText(static_cast<double>(min), static_cast<double>(max)));
      return std::nullopt;
    }
    if (value < min || value > max) {
      Report(key,
             "'" + std::string(key) + "' = " + std::to_string(value) + " (from " + from +
                 ") is out of range",
             "use a value from " + std::to_string(min) + " to " + std::to_string(max));
      return std::nullopt;
    }
    return value;
  }
  const auto* i = node->as_integer();
  if (i == nullptr) {
    Report(key,
           "'" + std::string(key) + "' must be an integer, not " + std::string(TypeName(*node)));
    return std::nullopt;
  }
  if (i->get() < min || i->get() > max) {
    Report(key, "'" + std::string(key) + "' = " + std::to_string(i->get()) + " is out of range",
           "use a value from " + std::to_string(min) + " to " + std::to_string(max));
    return std::nullopt;
  }
  return i->get();
}

std::optional<double> TableReader::Number(std::string_view key, double min, double max) {
  const toml::node* node = Get(key);
  if (node == nullptr) return std::nullopt;
  std::optional<double> value;
  std::string from;
  if (node->is_string() && node->as_string()->get().find("${") != std::string::npos) {
    auto text = NumericText(key, *node, &from);
    if (!text) return std::nullopt;
    double number = 0;
    const char* end = text->data() + text->size();
    const auto parsed = std::from_chars(text->data(), end, number);
    if (parsed.ec != std::errc() || parsed.ptr != end) {
      Report(key,
             "'" + std::string(key) + "' = '" + *text + "' (from " + from + ") is not a number",
             RangeText(min, max));
      return std::nullopt;
    }
    value = number;
  }
  if (const auto* i = node->as_integer()) value = static_cast<double>(i->get());
  if (const auto* f = node->as_floating_point()) value = f->get();
  if (!value) {
    Report(key, "'" + std::string(key) + "' must be a number, not " + std::string(TypeName(*node)));
    return std::nullopt;
  }
  if (!(*value >= min && *value <= max)) {
    Report(key,
           "'" + std::string(key) + "'" + (from.empty() ? "" : " (from " + from + ")") +
               " is out of range",
           RangeText(min, max));
    return std::nullopt;
  }
  return value;
}

std::optional<bool> TableReader::Bool(std::string_view key) {
  const toml::node* node = Get(key);
  if (node == nullptr) return std::nullopt;
  if (const auto* b = node->as_boolean()) return b->get();
  if (node->is_string() && node->as_string()->get().find("${") != std::string::npos) {
    std::string from;
    auto text = NumericText(key, *node, &from);
    if (!text) return std::nullopt;
    if (*text == "true" || *text == "1") return true;
    if (*text == "false" || *text == "0") return false;
    Report(key, "'" + std::string(key) + "' = '" + *text + "' (from " + from + ") is not a boolean",
           "set " + from + " to true or false (1 or 0)");
    return std::nullopt;
  }
  Report(key,
         "'" + std::string(key) + "' must be true or false, not " + std::string(TypeName(*node)));
  return std::nullopt;
}

const toml::table* TableReader::Table(std::string_view key) {
  const toml::node* node = Get(key);
  if (node == nullptr) return nullptr;
  if (const auto* t = node->as_table()) return t;
  Report(key, "'" + std::string(key) + "' must be a table, not " + std::string(TypeName(*node)));
  return nullptr;
}

const toml::array* TableReader::Array(std::string_view key) {
  const toml::node* node = Get(key);
  if (node == nullptr) return nullptr;
  if (const auto* a = node->as_array()) return a;
  Report(key, "'" + std::string(key) + "' must be an array, not " + std::string(TypeName(*node)));
  return nullptr;
}

std::optional<std::vector<std::string>> TableReader::StringList(std::string_view key) {
  const toml::node* node = Get(key);
  if (node == nullptr) return std::nullopt;
  if (const auto* s = node->as_string()) return std::vector<std::string>{s->get()};
  const auto* array = node->as_array();
  std::vector<std::string> values;
  bool ok = array != nullptr;
  if (ok) {
    for (const toml::node& element : *array) {
      const auto* s = element.as_string();
      if (s == nullptr) {
        ok = false;
        break;
      }
      values.push_back(s->get());
    }
  }
  if (!ok) {
    Report(key, "'" + std::string(key) + "' must be a string or an array of strings",
           "e.g. " + std::string(key) + " = [\"a\", \"b\"]");
    return std::nullopt;
  }
  return values;
}

std::optional<std::map<std::string, std::string>> TableReader::StringMap(std::string_view key) {
  const toml::table* table = Table(key);
  if (table == nullptr) return std::nullopt;
  std::map<std::string, std::string> values;
  bool ok = true;
  for (const auto& [name, node] : *table) {
    if (const auto* s = node.as_string()) {
      auto text = Expand(internal::LineOf(node), std::string(key) + "." + std::string(name.str()),
                         s->get());
      if (!text) {
        ok = false;
        continue;
      }
      values[std::string(name.str())] = std::move(*text);
    } else if (const auto* i = node.as_integer()) {
      values[std::string(name.str())] = std::to_string(i->get());
    } else if (const auto* b = node.as_boolean()) {
      values[std::string(name.str())] = b->get() ? "true" : "false";
    } else {
      problems_.Add(internal::LineOf(node),
                    context_ + ": '" + std::string(key) + "." + std::string(name.str()) +
                        "' must be a string, integer or boolean, not " +
                        std::string(TypeName(node)),
                    "quote the value as it should appear in the request");
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return values;
}

void TableReader::ReportUnknownKeys() {
  for (const auto& [key, node] : table_) {
    const std::string_view name = key.str();
    if (known_.contains(name)) continue;
    const std::optional<std::string> meant =
        LikelyMeant(name, std::vector<std::string>(known_.begin(), known_.end()));
    const std::string hint =
        meant ? "did you mean '" + *meant + "'?" : "remove it or fix its spelling";
    problems_.Add(internal::LineOf(node), context_ + ": unknown key '" + std::string(name) + "'",
                  hint);
  }
}

}  // namespace databox::registry::internal
