// Schema evolution for loads: merge an incoming schema into the table's schema by name.
#pragma once

#include <cstdint>

#include "common/error.h"
#include "iceberg/spec/schema.h"

namespace databox::iceberg {

//! Merges `incoming` into `current`, matching fields by name at each level (ids of
//! `incoming` are ignored). Allowed: new columns, added as optional (the rows already in the
//! table have no value for them; nested ones included; they get fresh ids above
//! max(current.HighestFieldId(), last_column_id): pass the table's last-column-id so ids of
//! dropped columns are never reused), int->long, float->double, decimal(P,S)-> decimal(P',S)
//! with P' > P, required->optional. A narrower incoming type keeps the current type. Columns
//! missing from `incoming` are kept. Anything else (incompatible type change, changing nesting
//! kind) is a kData error naming the column. The result keeps current's identifier fields; its
//! schema id is current's + 1 when anything changed, else the result equals `current`.
Result<Schema> UnionByName(const Schema& current, const Schema& incoming,
                           int32_t last_column_id = 0);

}  // namespace databox::iceberg
