// The inferred schema of one normalized table, in dlt's terms.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/write_disposition.h"
#include "normalize/data_type.h"

namespace databox::normalize {

using ::databox::ParseWriteDisposition;
using ::databox::WriteDisposition;
using ::databox::WriteDispositionName;

//! One column as dlt's schema describes it. Flags that are false are absent in dlt's YAML.
struct Column {
  std::string name;                      //!< normalized (snake_case) name
  DataType data_type = DataType::kText;  //!< dlt data type
  bool nullable = true;                  //!< false for primary keys and dlt's system columns
  bool primary_key = false;              //!< part of the resource's primary key
  bool row_key = false;                  //!< `_dlt_id`
  bool unique = false;                   //!< `_dlt_id`
  bool parent_key = false;               //!< `_dlt_parent_id`
  bool root_key = false;                 //!< `_dlt_root_id`
  bool variant = false;                  //!< a `col__v_<type>` column created by a type conflict

  bool operator==(const Column&) const = default;
};

//! A table: the root table of a resource or a child table made from a list.
struct TableSchema {
  std::string name;                    //!< e.g. `occurrences`, `taxonomy__banding_codes`
  std::string parent;                  //!< parent table name; empty for the root table
  std::string resource;                //!< the resource that produced it
  WriteDisposition write_disposition;  //!< inherited from the root table
  std::vector<Column> columns;         //!< in order of creation: hinted first, then as seen

  //! The column called `name`, or nullptr.
  const Column* FindColumn(std::string_view column_name) const;
};

}  // namespace databox::normalize
