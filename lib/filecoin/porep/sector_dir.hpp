// Internal: reading and writing a sealed test sector's directory.
#pragma once

#include <string>
#include <vector>

#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/io/mapped_file.hpp"

namespace cuzk::filecoin::detail {

std::string sector_file(const std::string& dir, const char* name);
// sector.json, written to a temporary name and renamed (a crash leaves no
// half-written file under the real name).
void write_sector_json(const std::string& dir, const sector_info& s);
sector_info read_sector_json(const std::string& dir);
// Maps `name` after checking it is a regular file of exactly expected_bytes.
io::mapped_file map_sector_file(const std::string& dir, const char* name, uint64_t expected_bytes);

// The replica's nodes (the last layer's labels plus the data, as field
// elements): tree R_last's leaves. errc::non_canonical naming the node.
std::vector<fr> read_replica_nodes(const std::string& dir, const seal_config& c, unsigned threads);

} // namespace cuzk::filecoin::detail
