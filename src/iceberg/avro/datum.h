// Generic encoding and decoding of Values by a schema node.
#pragma once

#include "common/error.h"
#include "iceberg/avro/encoding.h"
#include "iceberg/avro/schema.h"
#include "iceberg/avro/value.h"

namespace databox::avro {

//! Encodes `value` as schema node `node`. kInternal if the value does not match the
//! schema (wrong type, missing record field, bad union branch, wrong fixed size).
//! Record fields are matched by position and their names must agree.
Status EncodeValue(const Schema& schema, NodeId node, const Value& value, Encoder& encoder);

//! Decodes one datum written with schema node `node`. kData on truncated or corrupt
//! input; never allocates more than the input could describe.
Result<Value> DecodeValue(const Schema& schema, NodeId node, Decoder& decoder);

}  // namespace databox::avro
