// cuzk — drawing an analysed timeline: an ASCII waterfall and summary for a
// terminal, the same picture as SVG, and a self-contained HTML page.
//
// The waterfall has one row per partition, grouped under a header line per
// job, then one row per device, then a time axis in seconds from the first
// event. Each row is `<label>|<plot>|`, exactly `width` characters; the
// other lines are at most `width` (the text is word-wrapped). In a
// partition row a cell shows the latest stage that touches it:
//   ~ synthesis (SYNTH_START..SYNTH_END)
//   _ waiting to be queued (SYNTH_END..CHAN_SEND: the lookahead is full)
//   . queue wait (CHAN_SEND..GPU_PICKUP)
//   = device stage (GPU_START..GPU_END), nothing more specific in the cell
//   : lock wait (LOCK_WAIT spans of this partition)
//   * CPU tail (CPU_TAIL spans of this partition)
//   # device work (device spans of this partition)
// In a device row a cell is '#' when the device is busy for at least as long
// as it is idle within the cell (idle counted inside the device's window);
// otherwise the letter of the cause of the listed gap that covers most
// of it (S no synthesized partition ready, L lock held by another worker,
// T CPU tail, N nothing submitted, Q ready but waiting for dispatch), '-' for
// idle in gaps shorter than the listing threshold, ' ' outside the device's
// window. The legend above the rows lists only the marks that are drawn.
//
// The summary: utilisation per device and in total with its source; the
// idle gaps by cause and the top N longest; min/median/p90/max of each
// stage; median synthesis time by concurrency; throughput; the verdict
// (word-wrapped to the width).
#pragma once

#include <cstddef>
#include <string>

#include "cuzk/timeline/analysis.hpp"

namespace cuzk::timeline {

struct render_options {
    unsigned width = 100;      // terminal columns (at least 40 is used)
    size_t top_gaps = 10;      // gaps listed in the summary
    size_t max_rows = 0;       // partition rows drawn (0 = all); the rest are counted
    unsigned svg_width = 1200; // pixels
    std::string title;         // e.g. the log's file name
    // What the text calls the device, in the backend's own words: "device"
    // (default), "GPU", or "CPU prover" for the CPU backend's stand-in; and
    // the short form of the device rows' labels ("dev 0 busy", "gpu 0 busy").
    std::string device_word = "device";
    std::string device_short = "dev";
};

// `text` (e.g. analysis::verdict_text) with "device" and GPU_START..GPU_END
// said in opt.device_word; unchanged for the default word.
std::string in_device_words(const std::string& text, const render_options& opt);

// $COLUMNS when it is a number >= 40, else 100.
unsigned terminal_width() noexcept;

std::string render_waterfall(const analysis& a, const render_options& opt = {});
std::string render_summary(const analysis& a, const render_options& opt = {});
std::string render_text(const analysis& a, const render_options& opt = {});   // waterfall + summary
std::string render_svg(const analysis& a, const render_options& opt = {});
std::string render_html(const analysis& a, const render_options& opt = {});

} // namespace cuzk::timeline
