// Shared pieces of the `cuzk porep` subcommands: argument forms (porep ids,
// 32-byte hex values, sector sizes) and the JSON object each prints.
#pragma once

#include <string>

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "options.hpp"

namespace cuzk::cli::porep {

// --porep-id: a registered seal proof number (5 = 2 KiB V1_1, 8 = 32 GiB
// V1_1, …) or 64 hex digits (then the API version comes from --api, default 1.1).
struct porep_id_arg {
    filecoin::porep_id_t id{};
    int registered = -1;   // the number when one was given
    filecoin::api_version api = filecoin::api_version::v1_1;
};
porep_id_arg parse_porep_id(const options& o);

// --backend auto|cpu|cuda: whether to use the GPU (auto: when one is usable;
// cuda without one is an error that says why).
bool use_gpu(const options& o);

// A 32-byte value given as 64 hex digits (Filecoin's byte order).
filecoin::domain hex32(const options& o, const std::string& flag);

// Prints a result object on stdout: with --json as one line of JSON (for
// scripts), otherwise one "key: value" line per member (arrays space-separated).
void print_result(const io::json& j, bool json);
// `circuit`'s size (constraints, inputs, aux, counted by synthesizing it on
// a counting system) printed after the members `head` (its shape, its name).
int print_circuit_size(const options& o, const r1cs::circuit& circuit, io::json::object_t head);
// A sector's data from --data FILE (unpadded, at most 127/128 of the
// sector, zero-filled after) or --zero / nothing (all zero), Fr32-padded to
// sector_bytes.
std::vector<uint8_t> sector_data(const options& o, uint64_t sector_bytes);
// A value as print_result shows it without --json (arrays space-separated).
std::string plain_text(const io::json& v);

io::json hex_json(const filecoin::domain& d);

} // namespace cuzk::cli::porep
