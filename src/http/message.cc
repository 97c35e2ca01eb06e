#include "http/message.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "common/ascii.h"
#include "common/enum_names.h"

namespace databox::http {

namespace {

constexpr EnumNames<Method, 6> kMethodNames{{{Method::kGet, "GET"},
                                             {Method::kHead, "HEAD"},
                                             {Method::kPost, "POST"},
                                             {Method::kPut, "PUT"},
                                             {Method::kPatch, "PATCH"},
                                             {Method::kDelete, "DELETE"}}};
static_assert(DistinctNames(kMethodNames));

}  // namespace

std::string_view MethodName(Method method) { return NameOf(kMethodNames, method, "GET"); }

Result<Method> ParseMethod(std::string_view name) {
  std::string upper(name);
  std::ranges::transform(upper, upper.begin(),
                         [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (auto method = ValueOf(kMethodNames, upper)) return *method;
  return MakeError(ErrorKind::kData, "unsupported HTTP method '" + std::string(name) +
                                         "': expected one of " + JoinNames(kMethodNames));
}

bool IsIdempotent(Method method) { return method != Method::kPost && method != Method::kPatch; }

Headers::Headers(std::initializer_list<std::pair<std::string, std::string>> fields)
    : fields_(fields) {}

void Headers::Add(std::string name, std::string value) {
  fields_.emplace_back(std::move(name), std::move(value));
}

void Headers::Set(std::string name, std::string value) {
  Remove(name);
  Add(std::move(name), std::move(value));
}

void Headers::Remove(std::string_view name) {
  std::erase_if(fields_,
                [&](const auto& field) { return AsciiEqualsIgnoreCase(field.first, name); });
}

std::optional<std::string_view> Headers::Get(std::string_view name) const {
  for (const auto& [field_name, value] : fields_) {
    if (AsciiEqualsIgnoreCase(field_name, name)) return value;
  }
  return std::nullopt;
}

std::vector<std::string_view> Headers::GetAll(std::string_view name) const {
  std::vector<std::string_view> values;
  for (const auto& [field_name, value] : fields_) {
    if (AsciiEqualsIgnoreCase(field_name, name)) values.push_back(value);
  }
  return values;
}

}  // namespace databox::http
