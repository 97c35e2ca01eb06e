// Snapshots, refs and the snapshot/metadata logs (table spec "Snapshots", "Snapshot
// References", table metadata fields snapshot-log and metadata-log).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::iceberg {

//! Summary "operation" values.
inline constexpr const char* kOperationAppend = "append";
inline constexpr const char* kOperationReplace = "replace";
inline constexpr const char* kOperationOverwrite = "overwrite";
inline constexpr const char* kOperationDelete = "delete";
//! Name of the main branch; moving it moves current-snapshot-id.
inline constexpr const char* kMainBranch = "main";

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;
  int64_t timestamp_ms = 0;
  std::string manifest_list;
  //! Includes "operation" (required by the spec) plus free-form string counters.
  std::map<std::string, std::string> summary;
  std::optional<int32_t> schema_id;

  //! summary["operation"] or "" if absent.
  std::string operation() const;

  nlohmann::json ToJson() const;
  static Result<Snapshot> FromJson(const nlohmann::json& json);
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

//! A table's snapshots, in the order they were added. A snapshot never changes once added, so
//! copies of the list share the snapshots: copying a table's metadata (every commit does)
//! costs a pointer per snapshot, not a copy of every summary. Reads see `const Snapshot&`.
class SnapshotList {
  struct Node {
    explicit Node(Snapshot s) : snapshot(std::move(s)) {}
    const Snapshot snapshot;
    mutable std::once_flag json_once;
    mutable std::string json;  //!< see CachedJson
  };
  using Items = std::vector<std::shared_ptr<const Node>>;

 public:
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = Snapshot;
    using difference_type = std::ptrdiff_t;
    using pointer = const Snapshot*;
    using reference = const Snapshot&;

    const_iterator() = default;
    explicit const_iterator(Items::const_iterator it) : it_(it) {}
    reference operator*() const { return (*it_)->snapshot; }
    pointer operator->() const { return &(*it_)->snapshot; }
    reference operator[](difference_type n) const { return it_[n]->snapshot; }
    const_iterator& operator++() { return ++it_, *this; }
    const_iterator operator++(int) { return const_iterator(it_++); }
    const_iterator& operator--() { return --it_, *this; }
    const_iterator operator--(int) { return const_iterator(it_--); }
    const_iterator& operator+=(difference_type n) { return it_ += n, *this; }
    const_iterator& operator-=(difference_type n) { return it_ -= n, *this; }
    friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
    friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
    friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return a.it_ - b.it_;
    }
    friend bool operator==(const const_iterator&, const const_iterator&) = default;
    friend auto operator<=>(const const_iterator&, const const_iterator&) = default;

   private:
    Items::const_iterator it_;
  };
  using iterator = const_iterator;
  using value_type = Snapshot;
  using size_type = size_t;

  SnapshotList() = default;
  SnapshotList(std::initializer_list<Snapshot> snapshots) {
    for (const auto& s : snapshots) push_back(s);
  }

  const_iterator begin() const { return const_iterator(items_.begin()); }
  const_iterator end() const { return const_iterator(items_.end()); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const Snapshot& operator[](size_t i) const { return items_[i]->snapshot; }
  const Snapshot& front() const { return items_.front()->snapshot; }
  const Snapshot& back() const { return items_.back()->snapshot; }

  void push_back(Snapshot snapshot) {
    items_.push_back(std::make_shared<const Node>(std::move(snapshot)));
  }
  void reserve(size_t n) { items_.reserve(n); }
  void clear() { items_.clear(); }
  //! Removes the snapshots `pred` holds for; returns how many.
  template <typename Pred>
  size_t RemoveIf(Pred pred) {
    return std::erase_if(items_, [&](const auto& node) { return pred(node->snapshot); });
  }

  //! Snapshot `i` as `render` writes it, rendered once per snapshot (thread-safe) and shared
  //! by every copy of the list, so a commit re-renders only the snapshots it adds. Only the
  //! metadata file writer (metadata_json.cc) uses it: one rendering per snapshot, ever.
  template <typename Render>
  std::string_view CachedJson(size_t i, Render render) const {
    const Node& node = *items_[i];
    std::call_once(node.json_once, [&] { node.json = render(node.snapshot); });
    return node.json;
  }

  friend bool operator==(const SnapshotList& a, const SnapshotList& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a.items_[i] != b.items_[i] && !(a[i] == b[i])) return false;
    }
    return true;
  }

 private:
  Items items_;  //!< never null
};

enum class SnapshotRefType { kBranch, kTag };

struct SnapshotRef {
  int64_t snapshot_id = 0;
  SnapshotRefType type = SnapshotRefType::kBranch;
  std::optional<int32_t> min_snapshots_to_keep;  //!< branches only
  std::optional<int64_t> max_snapshot_age_ms;    //!< branches only
  std::optional<int64_t> max_ref_age_ms;

  //! A branch / tag at `snapshot_id` with default retention.
  static SnapshotRef Branch(int64_t snapshot_id) {
    return SnapshotRef{snapshot_id, SnapshotRefType::kBranch, {}, {}, {}};
  }
  static SnapshotRef Tag(int64_t snapshot_id) {
    return SnapshotRef{snapshot_id, SnapshotRefType::kTag, {}, {}, {}};
  }

  //! {"snapshot-id":..,"type":"branch"|"tag",...retention}
  nlohmann::json ToJson() const;
  static Result<SnapshotRef> FromJson(const nlohmann::json& json);
  friend bool operator==(const SnapshotRef&, const SnapshotRef&) = default;
};

//! "branch" / "tag" and back.
std::string_view SnapshotRefTypeName(SnapshotRefType type);
Result<SnapshotRefType> ParseSnapshotRefType(std::string_view text);

struct SnapshotLogEntry {
  int64_t snapshot_id = 0;
  int64_t timestamp_ms = 0;
  nlohmann::json ToJson() const;
  static Result<SnapshotLogEntry> FromJson(const nlohmann::json& json);
  friend bool operator==(const SnapshotLogEntry&, const SnapshotLogEntry&) = default;
};

struct MetadataLogEntry {
  std::string metadata_file;
  int64_t timestamp_ms = 0;
  nlohmann::json ToJson() const;
  static Result<MetadataLogEntry> FromJson(const nlohmann::json& json);
  friend bool operator==(const MetadataLogEntry&, const MetadataLogEntry&) = default;
};

}  // namespace databox::iceberg
