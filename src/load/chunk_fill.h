// Normalized columns into DuckDB data chunks: the one conversion used by the staging appender
// and by the in-memory batch scan.
#pragma once

#include <cstddef>
#include <vector>

#include "common/error.h"
#include "duck/data_chunk.h"
#include "duckdb.h"
#include "normalize/column_batch.h"
#include "normalize/data_type.h"

namespace databox::load {

//! The DuckDB type a column's values travel as in a data chunk: the column's own type, except
//! decimals, which travel as their decimal text (cast by the appender or the query).
duckdb_type ChunkTypeFor(normalize::DataType type);

//! ChunkTypeFor of every column of `schema`, in order.
std::vector<duckdb_type> ChunkTypesFor(const normalize::TableSchema& schema);

//! Puts rows [begin, begin + count) of `batch` into `chunk`, whose column i has type
//! ChunkTypeFor(batch.schema.columns[i]). The chunk may have more columns than the batch (the
//! table gained columns after the batch was flushed): those rows are NULL. Does not set the
//! chunk's size. Strings are referenced, not copied: `batch` must stay unchanged until DuckDB
//! is done with the chunk. A text value that is not valid UTF-8 is a kData error naming the
//! table, column and row (DuckDB would otherwise store NULL in its place).
Status FillChunk(const normalize::TableBatch& batch, std::size_t begin, std::size_t count,
                 duck::DataChunk& chunk);

}  // namespace databox::load
