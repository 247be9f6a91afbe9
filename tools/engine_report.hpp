// What the Filecoin proving commands (porep c2, post prove) report about an
// engine run: where a registered key went, and the run's timeline.
#pragma once

#include <string>
#include <vector>

#include "cuzk/pipeline/engine.hpp"
#include "cuzk/timeline/event.hpp"
#include "options.hpp"

#include <functional>

#include "cuzk/filecoin/porep/prove.hpp"

namespace cuzk::cli {

// Prints on stderr, after `who`, how long registering `key` took (for a
// mapped .params key on the devices also its parts) and, on the devices,
// whether the key is resident or streamed and its size. Returns its placement.
pipeline::engine::key_placement report_key(const char* who, const pipeline::engine& eng, pipeline::key_id key,
                                           bool mapped, double seconds);

// Prints on stderr, after `who`, the most device memory the engine held on
// each device (its high-water mark) against the budget, when it ran on GPUs.
void report_device_memory(const char* who, const pipeline::engine& eng);

// The run's timeline as CSV, or as a Chrome trace when the name ends in .json.
void write_timeline(const std::string& path, const std::vector<timeline::event>& events);

// The engine of a proof of `partitions` partitions (post prove, update
// prove): the backend, the devices of --devices / --cpu-devices, the
// --device-memory-budget when given and --host-memory-budget (the command
// declares them), up to two
// synthesis workers, each running the circuit's parallel witness on its
// share of `threads` (0 = all cores).
pipeline::engine_config proof_engine(const options& o, bool gpu, unsigned partitions, unsigned threads);
// The key of a prove command (post prove, update prove): --params FILE
// through params(path, gpu) (mapped for the GPU, decoded for the CPU), or
// --dev-key through dev() with its verifying key written to --vk when
// given; what was done and how long it took said on stderr after `who`.
filecoin::porep_key proof_key(const options& o, const char* who, bool gpu,
                              const std::function<filecoin::porep_key(const std::string&)>& params,
                              const std::function<filecoin::porep_key()>& dev);
// The placement in one word: host, resident or streamed.
const char* placement_name(pipeline::engine::key_placement p);

} // namespace cuzk::cli
