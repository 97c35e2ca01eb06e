#include "iceberg/avro/datum.h"

#include <gtest/gtest.h>

#include <string>

#include "iceberg/avro/test_util.h"

namespace databox::avro {
namespace {

Schema MustParse(std::string_view json) {
  auto schema = Schema::Parse(json);
  EXPECT_TRUE(schema) << schema.error().ToString();
  return *schema;
}

std::string Encode(const Schema& schema, const Value& value) {
  std::string out;
  Encoder e(&out);
  auto status = EncodeValue(schema, schema.root(), value, e);
  EXPECT_TRUE(status) << status.error().ToString();
  return out;
}

// Spec example: record {a: long = 27, b: string = "foo"} encodes as 36 06 66 6f 6f.
TEST(DatumTest, RecordMatchesSpecExample) {
  Schema schema = MustParse(R"({"type": "record", "name": "test", "fields": [
    {"name": "a", "type": "long"}, {"name": "b", "type": "string"}]})");
  Value record = Value::Record({{"a", Value::Long(27)}, {"b", Value::String("foo")}});
  const std::string bytes = Encode(schema, record);
  EXPECT_EQ(Hex(bytes), "36 06 66 6f 6f");
  Decoder d(bytes);
  auto decoded = DecodeValue(schema, schema.root(), d);
  ASSERT_TRUE(decoded) << decoded.error().ToString();
  EXPECT_EQ(*decoded, record);
}

// Spec example: union ["null", "string"]: null is 00, "a" is 02 02 61.
TEST(DatumTest, UnionMatchesSpecExample) {
  Schema schema = MustParse(R"(["null", "string"])");
  EXPECT_EQ(Hex(Encode(schema, Value::Null())), "00");
  EXPECT_EQ(Hex(Encode(schema, Value::String("a"))), "02 02 61");
  EXPECT_EQ(Hex(Encode(schema, Value::Union(1, Value::String("a")))), "02 02 61");
}

TEST(DatumTest, AllTypesRoundTrip) {
  Schema schema = MustParse(R"({"type": "record", "name": "all", "fields": [
    {"name": "n", "type": "null"},
    {"name": "b", "type": "boolean"},
    {"name": "i", "type": "int"},
    {"name": "l", "type": "long"},
    {"name": "f", "type": "float"},
    {"name": "d", "type": "double"},
    {"name": "by", "type": "bytes"},
    {"name": "s", "type": "string"},
    {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B", "C"]}},
    {"name": "a", "type": {"type": "array", "items": "int"}},
    {"name": "m", "type": {"type": "map", "values": ["null", "long"]}},
    {"name": "u", "type": ["null", "string", "long"]},
    {"name": "fx", "type": {"type": "fixed", "name": "F4", "size": 4}},
    {"name": "kv", "type": {"type": "array", "logicalType": "map", "items": {"type": "record", "name": "k1_v2",
      "fields": [{"name": "key", "type": "int"}, {"name": "value", "type": "bytes"}]}}}
  ]})");
  Value record = Value::Record({
      {"n", Value::Null()},
      {"b", Value::Boolean(true)},
      {"i", Value::Int(-123456)},
      {"l", Value::Long(int64_t{1} << 50)},
      {"f", Value::Float(3.5f)},
      {"d", Value::Double(-0.125)},
      {"by", Value::Bytes(std::string("\x00\xff\x01", 3))},
      {"s", Value::String("h\xc3\xa9llo")},
      {"e", Value::Enum(2)},
      {"a", Value::ArrayOf({Value::Int(1), Value::Int(-1)})},
      {"m",
       Value::Map({{"x", Value::Union(1, Value::Long(7))}, {"y", Value::Union(0, Value::Null())}})},
      {"u", Value::Union(2, Value::Long(-9))},
      {"fx", Value::Fixed("abcd")},
      {"kv",
       Value::ArrayOf({Value::Record({{"key", Value::Int(5)}, {"value", Value::Bytes("v")}})})},
  });
  const std::string bytes = Encode(schema, record);
  Decoder d(bytes);
  auto decoded = DecodeValue(schema, schema.root(), d);
  ASSERT_TRUE(decoded) << decoded.error().ToString();
  EXPECT_TRUE(d.AtEnd());
  EXPECT_EQ(*decoded, record) << decoded->DebugString();
  EXPECT_EQ(decoded->Field("u")->Unwrapped().long_value(), -9);
  EXPECT_EQ(decoded->Field("missing"), nullptr);
}

TEST(DatumTest, MismatchedValuesAreRejected) {
  Schema schema = MustParse(R"({"type": "record", "name": "r", "fields": [
    {"name": "a", "type": "long"}, {"name": "f", "type": {"type": "fixed", "name": "F", "size": 2}}]})");
  std::string out;
  Encoder e(&out);
  EXPECT_FALSE(EncodeValue(schema, schema.root(), Value::Long(1), e));
  EXPECT_FALSE(EncodeValue(schema, schema.root(),
                           Value::Record({{"a", Value::Int(1)}, {"f", Value::Fixed("ab")}}), e));
  EXPECT_FALSE(EncodeValue(schema, schema.root(),
                           Value::Record({{"b", Value::Long(1)}, {"f", Value::Fixed("ab")}}), e));
  EXPECT_FALSE(EncodeValue(schema, schema.root(),
                           Value::Record({{"a", Value::Long(1)}, {"f", Value::Fixed("abc")}}), e));
  Schema u = MustParse(R"(["null", "int"])");
  EXPECT_FALSE(EncodeValue(u, u.root(), Value::String("x"), e));
  EXPECT_FALSE(EncodeValue(u, u.root(), Value::Union(2, Value::Int(1)), e));
}

TEST(DatumTest, CorruptInputIsDataError) {
  Schema array = MustParse(R"({"type": "array", "items": "long"})");
  // Block count 2^40 with three bytes of input: rejected before allocating.
  std::string huge;
  Encoder(&huge).WriteLong(int64_t{1} << 40);
  huge += "\x02\x04";
  Decoder d(huge);
  auto value = DecodeValue(array, array.root(), d);
  ASSERT_FALSE(value);
  EXPECT_EQ(value.error().kind, ErrorKind::kData);

  Schema nulls = MustParse(R"({"type": "array", "items": "null"})");
  std::string many_nulls;
  Encoder(&many_nulls).WriteLong(int64_t{1} << 40);
  Decoder dn(many_nulls);
  EXPECT_FALSE(DecodeValue(nulls, nulls.root(), dn));

  Schema e = MustParse(R"({"type": "enum", "name": "E", "symbols": ["A"]})");
  Decoder de(std::string_view("\x02", 1));
  EXPECT_FALSE(DecodeValue(e, e.root(), de));

  Schema u = MustParse(R"(["null", "int"])");
  Decoder du(std::string_view("\x04", 1));
  EXPECT_FALSE(DecodeValue(u, u.root(), du));

  // A self-recursive list nested beyond the depth bound.
  Schema list = MustParse(
      R"({"type": "record", "name": "L", "fields": [{"name": "next", "type": ["null", "L"]}]})");
  const std::string deep(1000, '\x02');
  Decoder dl(deep);
  auto deep_value = DecodeValue(list, list.root(), dl);
  ASSERT_FALSE(deep_value);
  EXPECT_EQ(deep_value.error().kind, ErrorKind::kData);
}

}  // namespace
}  // namespace databox::avro
