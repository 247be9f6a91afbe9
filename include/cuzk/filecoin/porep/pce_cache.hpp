// cuzk — the PoRep circuit's recorded R1CS (PCE), kept between processes in
// a cache directory.
//
// Recording a 32 GiB partition's circuit (130 M constraints) takes about a
// minute, and a proving process needs it before its first proof. With a
// cache directory the first process writes it as a PCE file
// (docs/PCE-FORMAT.md, ~9 GB for 32 GiB) and every later one maps that file
// instead, its checksums verified: seconds instead of a minute.
//
// A file is found by its name, which hashes everything the circuit depends
// on (porep_pce_file_name), so shapes never share a file. What protects a
// proof from a file that is not the circuit it claims to be (renamed,
// edited with a matching checksum): the key's sizes are checked against it
// (map_porep_key), and the engine verifies every proof before it is
// reported, so such a file gives failed jobs, never a wrong proof.
#pragma once

#include <memory>
#include <string>

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::filecoin {

// Raised whenever the recorded circuit of a shape changes (a gadget fixed or
// reordered), so that files of the older recording are no longer found.
inline constexpr unsigned porep_circuit_revision = 1;

// "porep-<shape name>-<16 hex digits>.pce": the digits hash the circuit
// revision, nodes, layers, challenges per partition, tree arities, API
// version and porep id (the shape name only makes the name readable).
std::string porep_pce_file_name(const seal_config& config);

// What porep_pce did.
struct porep_pce_source {
    bool loaded = false;   // read from `path`; else recorded
    bool saved = false;    // recorded and written to `path`
    std::string path;      // the cache file ("" without a cache directory)
    std::string note;      // why a file was not read or not written ("" when none)
    double seconds = 0;    // loading, or recording and writing
};

// The circuit of `config`: mapped from cache_dir/porep_pce_file_name(config)
// when that file exists and loads (structure and checksums verified, with
// `threads` threads, 0 = all), else recorded and, when cache_dir is not
// empty, written there (to a temporary name of this process, then renamed:
// a reader never sees half a file, and processes writing at once leave one
// whole file). A file that does not load, or a directory that cannot be
// written, is not an error: the circuit is recorded, and source->note says
// what happened (a file that did not load is replaced). A process killed
// while writing leaves its temporary file (<name>.<process id>.tmp) behind;
// nothing removes it, as it may belong to a live process. With an empty
// cache_dir this is record_porep_pce.
std::shared_ptr<const r1cs::pce> porep_pce(const seal_config& config, const std::string& cache_dir,
                                           porep_pce_source* source = nullptr, unsigned threads = 0);

} // namespace cuzk::filecoin
