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

} // namespace cuzk::dev
