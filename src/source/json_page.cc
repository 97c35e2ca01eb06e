#include "source/json_page.h"

#include <simdjson.h>

#include <charconv>
#include <span>
#include <vector>

#include "common/simd_json.h"

namespace databox::source {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

//! The object / array `node` is (its type was checked).
simdjson::dom::object ObjectOf(const element& node) {
  simdjson::dom::object object;
  [[maybe_unused]] auto error = node.get(object);
  return object;
}
simdjson::dom::array ArrayOf(const element& node) {
  simdjson::dom::array array;
  [[maybe_unused]] auto error = node.get(array);
  return array;
}

std::vector<std::string_view> Steps(std::string_view path) {
  std::vector<std::string_view> steps;
  while (true) {
    const std::size_t dot = path.find('.');
    steps.push_back(path.substr(0, dot));
    if (dot == std::string_view::npos) return steps;
    path.remove_prefix(dot + 1);
  }
}

//! The array index a path step names (FindPath's reading: the whole step a decimal number).
std::optional<std::size_t> IndexOf(std::string_view step) {
  std::size_t index = 0;
  auto [end, ec] = std::from_chars(step.data(), step.data() + step.size(), index);
  if (ec != std::errc() || end != step.data() + step.size()) return std::nullopt;
  return index;
}

//! The child FindPath takes for `step`: an object's field (the last one of that name, the value
//! nlohmann keeps), an array's element by index; nullopt when there is none.
std::optional<element> Child(const element& node, std::string_view step) {
  if (node.type() == element_type::OBJECT) {
    std::optional<element> found;
    for (simdjson::dom::key_value_pair field : ObjectOf(node)) {
      if (field.key == step) found = field.value;
    }
    return found;
  }
  if (node.type() == element_type::ARRAY) {
    const std::optional<std::size_t> index = IndexOf(step);
    simdjson::dom::element item;
    if (!index || node.at(*index).get(item) != simdjson::SUCCESS) return std::nullopt;
    return item;
  }
  return std::nullopt;
}

//! nlohmann's value of `node` with the node at `steps` (below it) replaced by an empty array.
//! nullopt when a part kept repeats a key (nlohmann must decide its value).
std::optional<Json> Without(const element& node, std::span<const std::string_view> steps) {
  if (steps.empty()) return Json::array();
  if (node.type() == element_type::OBJECT) {
    Json out = Json::object();
    const simdjson::dom::object object = ObjectOf(node);
    // The last field named like the step is the one nlohmann keeps: only that one is walked.
    std::size_t last = 0, i = 0;
    for (simdjson::dom::key_value_pair field : object) {
      if (field.key == steps.front()) last = i;
      ++i;
    }
    i = 0;
    for (simdjson::dom::key_value_pair field : object) {
      const std::string key(field.key);
      if (field.key == steps.front() && i == last) {
        auto rest = Without(field.value, steps.subspan(1));
        if (!rest) return std::nullopt;
        out[key] = std::move(*rest);
      } else if (field.key != steps.front()) {
        if (out.contains(key) || HasDuplicateKeys(field.value)) return std::nullopt;
        out[key] = ToNlohmann(field.value);
      } else {
        out[key] = Json::array();  // an earlier field of the step's name: its place only
      }
      ++i;
    }
    return out;
  }
  if (node.type() == element_type::ARRAY) {
    const std::optional<std::size_t> index = IndexOf(steps.front());
    Json out = Json::array();
    std::size_t i = 0;
    for (simdjson::dom::element item : ArrayOf(node)) {
      if (i == index) {
        auto rest = Without(item, steps.subspan(1));
        if (!rest) return std::nullopt;
        out.push_back(std::move(*rest));
      } else {
        if (HasDuplicateKeys(item)) return std::nullopt;
        out.push_back(ToNlohmann(item));
      }
      ++i;
    }
    return out;
  }
  return ToNlohmann(node);  // the path ends in a scalar: nothing to replace
}

}  // namespace

JsonPageReader::JsonPageReader() : parser_(std::make_unique<simdjson::dom::parser>()) {
  // Deeper pages fail here and are read by nlohmann, which refuses them with their place. Should
  // the allocation fail, every parse fails: each page is read by nlohmann.
  if (parser_->allocate(std::size_t{1} << 20, kFastPathDepth) != simdjson::SUCCESS) return;
}

JsonPageReader::~JsonPageReader() = default;

std::optional<PageOutline> JsonPageReader::Outline(std::string_view body,
                                                   const std::string& records_path) {
  if (records_path.empty() || records_path == "$") return std::nullopt;
  element doc;
  if (parser_->parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS) return std::nullopt;
  const std::vector<std::string_view> steps = Steps(records_path);
  std::optional<element> node = doc;
  for (std::string_view step : steps) {
    node = Child(*node, step);
    if (!node) break;
  }
  PageOutline outline;
  if (node && node->type() != element_type::NULL_VALUE) {
    outline.records =
        node->type() == element_type::ARRAY ? static_cast<int64_t>(ArrayOf(*node).size()) : 1;
  }
  std::optional<Json> rest = node ? Without(doc, steps) : std::optional<Json>();
  if (!node) {  // no records here: the whole page is the rest
    if (HasDuplicateKeys(doc)) return std::nullopt;
    rest = ToNlohmann(doc);
  }
  if (!rest) return std::nullopt;
  outline.rest = std::move(*rest);
  return outline;
}

Result<std::optional<int64_t>> JsonPageReader::ForEachRecord(std::string_view body,
                                                             const std::string& records_path,
                                                             int64_t limit,
                                                             const ElementSink& sink) {
  element doc;
  if (parser_->parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS) return std::nullopt;
  if (limit <= 0) return 0;
  if (records_path == "$") {
    DATABOX_RETURN_IF_ERROR(sink(doc));
    return 1;
  }
  std::optional<element> node = doc;
  if (!records_path.empty()) {
    for (std::string_view step : Steps(records_path)) {
      node = Child(*node, step);
      if (!node) return 0;
    }
  }
  if (node->type() == element_type::NULL_VALUE) return 0;
  if (node->type() != element_type::ARRAY) {
    DATABOX_RETURN_IF_ERROR(sink(*node));
    return 1;
  }
  int64_t fed = 0;
  for (simdjson::dom::element item : ArrayOf(*node)) {
    if (fed >= limit) break;
    DATABOX_RETURN_IF_ERROR(sink(item));
    ++fed;
  }
  return fed;
}

}  // namespace databox::source
