// SHA-256 digests as lower-case hex (OpenSSL): SigV4 payload hashes, USFWS run ids and media ids.
#pragma once

#include <string>
#include <string_view>

namespace databox {

//! Lower-case hex SHA-256 of `data` (64 characters).
std::string Sha256Hex(std::string_view data);

}  // namespace databox
