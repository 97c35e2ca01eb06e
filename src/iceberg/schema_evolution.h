// Schema evolution for loads: merge an incoming schema into the table's schema by name.
#pragma once

#include "common/error.h"
#include "iceberg/schema.h"

namespace databox::iceberg {

//! Merges `incoming` into `current`, matching fields by name at each level (ids of
//! `incoming` are ignored). Allowed: new optional columns (nested ones included; they get
//! fresh ids above current.HighestFieldId()), int->long, float->double, decimal(P,S)->
//! decimal(P',S) with P' > P, required->optional. A narrower incoming type keeps the
//! current type. Columns missing from `incoming` are kept. Anything else (a new required
//! column, incompatible type change, changing nesting kind) is a kData error naming the
//! column. The result keeps current's identifier fields; its schema id is current's + 1
//! when anything changed, else the result equals `current`.
Result<Schema> UnionByName(const Schema& current, const Schema& incoming);

}  // namespace databox::iceberg
