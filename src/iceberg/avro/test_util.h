// Helpers shared by this module's tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "common/test_paths.h"

namespace databox::avro {

//! Bytes as space-separated lowercase hex ("06 66 6f 6f"), as the Avro spec prints them.
inline std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
  }
  return out;
}

//! The whole file as bytes ("" if it cannot be read).
inline std::string ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

//! Runs `script` with the project venv's python in `dir`, passing `args` (already
//! shell-quoted); returns its combined output and fails the test on a non-zero exit.
inline std::string RunVenvPython(const std::filesystem::path& dir, std::string_view script,
                                 const std::string& args) {
  const std::filesystem::path script_path = dir / "script.py";
  const std::filesystem::path log_path = dir / "script.log";
  std::ofstream(script_path) << script;
  const std::string command = test_paths::VenvDir() + "/bin/python " + script_path.string() + " " +
                              args + " > " + log_path.string() + " 2>&1";
  const int rc = std::system(command.c_str());
  std::string log = ReadFileBytes(log_path);
  EXPECT_EQ(rc, 0) << log;
  return log;
}

//! A DuckDB (avro extension) script: argv path, extension dir, output JSON path; writes
//! {"columns": [...], "rows": [[...]]} with bytes as hex.
inline constexpr std::string_view kDuckDbAvroReader = R"py(
import json, sys, duckdb
path, ext_dir, out = sys.argv[1], sys.argv[2], sys.argv[3]
con = duckdb.connect(config={'extension_directory': ext_dir, 'autoinstall_known_extensions': False,
                             'autoload_known_extensions': False})
con.load_extension('avro')
rel = con.sql("select * from read_avro('" + path.replace("'", "''") + "')")
def plain(v):
    if isinstance(v, (bytes, bytearray)): return v.hex()
    if isinstance(v, dict): return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, list): return [plain(x) for x in v]
    return v
json.dump({'columns': rel.columns, 'rows': [[plain(v) for v in row] for row in rel.fetchall()]}, open(out, 'w'), default=str)
)py";

}  // namespace databox::avro
