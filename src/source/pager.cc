#include "source/pager.h"

namespace databox::source {
namespace {

//! A JSON number or numeric string as an integer.
std::optional<int64_t> AsInteger(const Json* node) {
  if (node == nullptr) return std::nullopt;
  if (node->is_number_integer() || node->is_number_unsigned()) return node->get<int64_t>();
  if (node->is_number_float()) return static_cast<int64_t>(node->get<double>());
  if (node->is_string()) {
    try {
      std::size_t used = 0;
      const int64_t value = std::stoll(node->get<std::string>(), &used);
      if (used == node->get<std::string>().size()) return value;
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

}  // namespace

Pager::Pager(const registry::Pagination& pagination)
    : p_(pagination), page_(pagination.start_page) {}

std::map<std::string, std::string> Pager::FirstParams() const {
  switch (p_.type) {
    case registry::PaginationType::kOffsetLimit:
      return {{p_.limit_param, std::to_string(p_.page_size)}, {p_.offset_param, "0"}};
    case registry::PaginationType::kPageNumber: {
      std::map<std::string, std::string> params{{p_.page_param, std::to_string(p_.start_page)}};
      if (!p_.page_size_param.empty()) params[p_.page_size_param] = std::to_string(p_.page_size);
      return params;
    }
    case registry::PaginationType::kNone:
    case registry::PaginationType::kCursor:
      break;
  }
  return {};
}

Result<std::optional<NextPage>> Pager::Advance(int64_t page_records, const Json* doc) {
  ++pages_seen_;
  switch (p_.type) {
    case registry::PaginationType::kNone:
      return std::nullopt;
    case registry::PaginationType::kOffsetLimit: {
      if (page_records == 0 || page_records < p_.page_size) return std::nullopt;
      if (doc != nullptr && !p_.end_flag_path.empty()) {
        const Json* flag = FindPath(*doc, p_.end_flag_path);
        if (flag != nullptr && flag->is_boolean() && flag->get<bool>()) return std::nullopt;
      }
      offset_ += p_.page_size;
      if (doc != nullptr && !p_.total_path.empty()) {
        const auto total = AsInteger(FindPath(*doc, p_.total_path));
        if (total && offset_ >= *total) return std::nullopt;
      }
      return NextPage{{{p_.limit_param, std::to_string(p_.page_size)},
                       {p_.offset_param, std::to_string(offset_)}},
                      std::nullopt};
    }
    case registry::PaginationType::kPageNumber: {
      if (page_records == 0 || page_records < p_.page_size) return std::nullopt;
      if (doc != nullptr && !p_.num_pages_path.empty()) {
        const auto num_pages = AsInteger(FindPath(*doc, p_.num_pages_path));
        if (num_pages && pages_seen_ >= *num_pages) return std::nullopt;
      }
      ++page_;
      NextPage next;
      next.params[p_.page_param] = std::to_string(page_);
      if (!p_.page_size_param.empty()) {
        next.params[p_.page_size_param] = std::to_string(p_.page_size);
      }
      return next;
    }
    case registry::PaginationType::kCursor: {
      if (page_records == 0 || doc == nullptr) return std::nullopt;
      const Json* node = FindPath(*doc, p_.next_path);
      if (node == nullptr || node->is_null()) return std::nullopt;
      const std::string value = node->is_string() ? node->get<std::string>() : node->dump();
      if (value.empty()) return std::nullopt;
      if (!cursors_.insert(value).second) {
        return MakeError(ErrorKind::kData, "the cursor at '" + p_.next_path +
                                               "' repeats a value already followed; the "
                                               "endpoint would loop, so the load stops");
      }
      if (p_.cursor_param.empty()) return NextPage{{}, value};
      return NextPage{{{p_.cursor_param, value}}, std::nullopt};
    }
  }
  return std::nullopt;
}

}  // namespace databox::source
