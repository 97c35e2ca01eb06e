// How a resource's root table is laid out in Iceberg: its partition spec and sort order, as the
// registry declares them (`partition`, `sort` of [[source.resource]], docs/registry.md) and as
// `databox ingest --partition/--sort` gives them. Terms are text: a partition term is a column
// ("region", identity) or an Iceberg transform of one ("day(observed_at)", "bucket[16](id)",
// "truncate[4](name)"); a sort term is a column with an optional direction and null order
// ("observed_at", "station desc", "name asc nulls last").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::registry {

//! What a partition transform needs of its column (the registry's column types).
enum class LayoutTransform { kIdentity, kYear, kMonth, kDay, kHour, kBucket, kTruncate };

//! One partition field: Iceberg's transform of one column.
struct PartitionTerm {
  std::string column;
  LayoutTransform transform = LayoutTransform::kIdentity;
  int param = 0;  //!< N of bucket[N], W of truncate[W]

  //! The Iceberg transform text: "identity", "day", "bucket[16]", "truncate[4]".
  std::string IcebergTransform() const;
  friend bool operator==(const PartitionTerm&, const PartitionTerm&) = default;
};

//! One sort field (identity transform). Default null order as Iceberg's: nulls first ascending,
//! nulls last descending.
struct SortTerm {
  std::string column;
  bool descending = false;
  bool nulls_first = true;
  friend bool operator==(const SortTerm&, const SortTerm&) = default;
};

//! Parses "column" or "transform(column)"; kConfig saying what is wrong and what is accepted.
Result<PartitionTerm> ParsePartitionTerm(std::string_view text);
//! Parses "column [asc|desc] [nulls first|nulls last]"; kConfig saying what is wrong.
Result<SortTerm> ParseSortTerm(std::string_view text);

//! Why `transform` cannot be applied to a column of registry type `type` ("text", "bigint",
//! ..., docs/registry.md "columns"); nullopt when it can. Follows the Iceberg spec's table of
//! transforms and source types.
std::optional<std::string> TransformRefusal(LayoutTransform transform, std::string_view type);

}  // namespace databox::registry
