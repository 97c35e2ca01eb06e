#include "common/untrusted_json.h"

#include <utility>
#include <vector>

namespace databox {
namespace {

using Json = nlohmann::ordered_json;

//! True for an integer literal (`-?[0-9]+`): nlohmann hands such a literal to number_float only
//! when it does not fit 64 bits.
bool IsIntegerLiteral(const std::string& text) {
  const std::size_t start = !text.empty() && text.front() == '-' ? 1 : 0;
  if (start == text.size()) return false;
  for (std::size_t i = start; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

//! Byte offset of the bracket that opens level `depth` (1-based) the first time the document
//! nests that deep, brackets inside strings ignored; text.size() if it never does.
std::size_t OffsetOfDepth(std::string_view text, int depth) {
  int level = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++level == depth) return i;
    } else if (c == ']' || c == '}') {
      --level;
    }
  }
  return text.size();
}

//! Builds the document like nlohmann's own DOM parser, tracking where it is for messages.
class Builder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  bool null() { return Put(Json(nullptr)); }
  bool boolean(bool value) { return Put(Json(value)); }
  bool number_integer(number_integer_t value) { return Put(Json(value)); }
  bool number_unsigned(number_unsigned_t value) { return Put(Json(value)); }
  bool number_float(number_float_t value, const string_t& text) {
    // An integer beyond 64 bits: its exact digits, not the rounded double.
    return IsIntegerLiteral(text) ? Put(Json(text)) : Put(Json(value));
  }
  bool string(string_t& value) { return Put(Json(std::move(value))); }
  bool binary(binary_t& value) { return Put(Json::binary(std::move(value))); }
  bool start_object(std::size_t /*elements*/) { return Open(Json::object(), false); }
  bool key(string_t& name) {
    levels_.back().key = std::move(name);
    return true;
  }
  bool end_object() { return Close(); }
  bool start_array(std::size_t /*elements*/) { return Open(Json::array(), true); }
  bool end_array() { return Close(); }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& error) {
    fault_.offset = position > 0 ? position - 1 : 0;
    if (error.id == 406) {  // nlohmann: "number overflow parsing ..."; `position` ends the number
      fault_.kind = JsonFaultKind::kNumberOutOfRange;
      fault_.offset = position >= last_token.size() ? position - last_token.size() : 0;
      fault_.detail = "holds the number " + last_token + " at " + Where() + " (byte offset " +
                      std::to_string(fault_.offset) +
                      "), which is out of range for a double (about 1.8e308)";
    } else {
      fault_.kind = JsonFaultKind::kSyntax;
      fault_.detail =
          "is not valid JSON (syntax error at byte offset " + std::to_string(fault_.offset) + ")";
    }
    return false;
  }

  bool too_deep() const { return too_deep_; }
  //! The place the parse stopped at, as a path ("results[0].v"; the first levels only).
  std::string Where() const {
    constexpr std::size_t kShownLevels = 4;
    std::string path;
    for (std::size_t i = 0; i < levels_.size() && i < kShownLevels; ++i) {
      const Level& level = levels_[i];
      if (level.array) {
        // An outer level's current item is open (already counted); the innermost level's
        // failing item is the next one.
        const bool innermost = i + 1 == levels_.size();
        path += "[" + std::to_string(innermost ? level.items : level.items - 1) + "]";
      } else {
        path += (path.empty() ? "" : ".") + level.key;
      }
    }
    if (levels_.size() > kShownLevels) path += "...";
    return path.empty() ? "the top level" : path;
  }
  JsonFault& fault() { return fault_; }
  Json& root() { return root_; }

 private:
  //! One open array or object.
  struct Level {
    Json* value;
    bool array;
    std::size_t items = 0;  //!< array items so far (the index of the next one)
    std::string key;        //!< object: the key of the value being read
  };

  //! Where the next value goes.
  Json* Slot() {
    if (levels_.empty()) return &root_;
    Level& level = levels_.back();
    if (level.array) {
      ++level.items;
      return &level.value->emplace_back();
    }
    return &(*level.value)[level.key];
  }
  bool Put(Json value) {
    *Slot() = std::move(value);
    return true;
  }
  bool Open(Json container, bool array) {
    if (levels_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      too_deep_ = true;
      return false;
    }
    Json* slot = Slot();
    *slot = std::move(container);
    levels_.push_back(Level{.value = slot, .array = array, .items = 0, .key = {}});
    return true;
  }
  bool Close() {
    levels_.pop_back();
    return true;
  }

  Json root_;
  std::vector<Level> levels_;
  bool too_deep_ = false;
  JsonFault fault_;
};

}  // namespace

std::expected<nlohmann::ordered_json, JsonFault> ParseUntrustedJson(std::string_view text) {
  Builder builder;
  if (Json::sax_parse(text, &builder)) return std::move(builder.root());
  if (builder.too_deep()) {
    JsonFault fault;
    fault.kind = JsonFaultKind::kTooDeep;
    fault.offset = OffsetOfDepth(text, kMaxJsonDepth + 1);
    fault.detail = "nests arrays and objects more than " + std::to_string(kMaxJsonDepth) +
                   " levels deep (at byte offset " + std::to_string(fault.offset) + ", under " +
                   builder.Where() + "); databox reads at most " + std::to_string(kMaxJsonDepth) +
                   " levels";
    return std::unexpected(std::move(fault));
  }
  return std::unexpected(std::move(builder.fault()));
}

}  // namespace databox
