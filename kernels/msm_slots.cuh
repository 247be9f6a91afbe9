// cuzk kernels — the backends' cached scratch buffers, by use (the `slot`
// argument of Be::buffer in msm_device.cuh and the kernels built on it).
#pragma once

namespace cuzk::dev {

enum scratch_slot : int {
    slot_keys_a,
    slot_keys_b,
    slot_vals_a,
    slot_vals_b,
    slot_buckets,
    slot_part_pts,
    slot_part_keys,
    slot_part_flags,
    slot_part_pos,
    slot_list_pts,
    slot_list_keys,
    slot_count,
    slot_seg_a,
    slot_seg_b,
    slot_ntt_scratch,
    slot_ntt_tables,
    slot_points,
    slot_scalars,
    slot_io,
    slot_aff_count,
    slot_aff_pos,
    slot_aff_pre,
    slot_aff_tot,
    slot_aff_keys_a,
    slot_aff_pts_a,
    slot_aff_keys_b,
    slot_aff_pts_b,
    slot_merge,
    slot_pce_class,   // the PCE evaluation's witness classes (kernels/pce.cu)
    slot_count_all
};

// A slot's name, for messages.
inline const char* scratch_slot_name(int s)
{
    static constexpr const char* names[] = {
        "keys_a",   "keys_b",   "vals_a",     "vals_b",      "buckets",    "part_pts",  "part_keys",
        "part_flags", "part_pos", "list_pts", "list_keys",   "count",      "seg_a",     "seg_b",
        "ntt_scratch", "ntt_tables", "points", "scalars",    "io",         "aff_count", "aff_pos",
        "aff_pre",  "aff_tot",  "aff_keys_a", "aff_pts_a",   "aff_keys_b", "aff_pts_b", "merge",
        "pce_class"};
    static_assert(sizeof(names) / sizeof(names[0]) == slot_count_all, "a name for every slot");
    return s >= 0 && s < slot_count_all ? names[s] : "?";
}

} // namespace cuzk::dev
