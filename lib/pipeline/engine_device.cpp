// The engine's prove workers: each takes the head of the lookahead (and what
// follows it of the same key, up to partitions_per_call), reserves the
// device's memory, waits its turn at the device lock, runs the device parts
// and hands each partition on to its CPU tail (engine_core.hpp).
#include <deque>
#include <functional>

#include "engine_core.hpp"

namespace cuzk::pipeline::detail {

void engine_core::prove_loop(int32_t worker, int32_t device)
{
    std::vector<std::unique_ptr<work_item>> batch;
    std::unique_lock lk(mu);
    for (;;) {
        cv_prove.wait(lk, [&] { return stopping || counters.device_excluded[size_t(device)] || !lookahead.empty(); });
        if (stopping || counters.device_excluded[size_t(device)]) return;
        // The head of the order, then what follows it while it is of the same key.
        const key_entry* key = lookahead.begin()->second->key.get();
        const size_t per_call = key->batch > 1 ? key->batch : std::max(1u, cfg.partitions_per_call);
        const uint64_t call_no = next_call++;
        const std::string call = cfg.sink ? std::to_string(call_no) : std::string();
        while (batch.size() < per_call && !lookahead.empty() && lookahead.begin()->second->key.get() == key) {
            auto node = lookahead.extract(lookahead.begin());
            batch.push_back(std::move(node.mapped()));
            emit(timeline::phase::instant, "GPU_PICKUP", batch.back()->job.get(), int32_t(batch.back()->part),
                 worker, device, {{"call", call}});
        }
        cv_synth.notify_all();   // lookahead slots are free
        lk.unlock();
        device_call(batch, *key, worker, device, call);
        batch.clear();
        lk.lock();
    }
}

// Reserves `bytes` of the device's budget, waiting while it is short;
// false when the engine stops first. Under a budget the reservations are
// granted in arrival order (a ticket each), so that a worker back from
// its call cannot take the memory again before one already waiting.
bool engine_core::reserve_device(uint64_t bytes, const job_state* job, int32_t part, int32_t worker, int32_t device)
{
    std::unique_lock lk(mu);
    const size_t d = size_t(device);
    uint64_t& r = dev_reserved[d];
    if (cfg.device_memory_budget != 0) {
        const uint64_t ticket = dev_mem_next[d]++;
        auto ready = [&] { return dev_mem_turn[d] == ticket && r + bytes <= cfg.device_memory_budget; };
        if (!ready()) {
            emit(timeline::phase::begin, "DEV_MEM_WAIT", job, part, worker, device, {{"bytes", std::to_string(bytes)}});
            cv_devmem.wait(lk, [&] { return stopping || ready(); });
            emit(timeline::phase::end, "DEV_MEM_WAIT", job, part, worker, device);
        }
        ++dev_mem_turn[d];
        cv_devmem.notify_all();   // the next ticket may fit as well
        if (stopping) return false;
    }
    r += bytes;
    dev_peak[size_t(device)] = std::max(dev_peak[size_t(device)], r);
    return true;
}

void engine_core::release_device(uint64_t bytes, int32_t device)
{
    {
        std::lock_guard lk(mu);
        dev_reserved[size_t(device)] -= bytes;
    }
    cv_devmem.notify_all();
}

// One prove call: the device parts of `batch` (partitions of key k, in
// order) in one hold of the device lock, with one partition's device
// bytes reserved around it; each partition's tail is handed on as soon
// as its device part ends.
void engine_core::device_call(std::vector<std::unique_ptr<work_item>>& batch, const key_entry& k, int32_t worker,
                              int32_t device, const std::string& call)
{
    // Partitions of jobs that have ended are dropped here, and again
    // before each device part.
    auto live = [&](work_item& it) {
        if (!it.job->ending.load()) return true;
        release(it.reserved);
        return false;
    };
    size_t first = 0;
    while (first < batch.size() && !live(*batch[first])) ++first;
    if (first == batch.size()) return;

    work_item& head = *batch[first];
    uint64_t gpu_start = now_ns();
    emit(timeline::phase::instant, "GPU_START", head.job.get(), int32_t(head.part), worker, device);
    const uint64_t dev_bytes = k.device_bytes;
    if (!reserve_device(dev_bytes, head.job.get(), int32_t(head.part), worker, device)) {
        for (size_t i = first; i < batch.size(); ++i) release(batch[i]->reserved);
        return;
    }
    // The place in line first, then the wait's event: a LOCK_WAIT span
    // sees only calls that were ahead of it.
    detail::fifo_mutex& dev_lock = *device_locks[size_t(device)];
    const uint64_t ticket = dev_lock.take();
    emit(timeline::phase::begin, "LOCK_WAIT", head.job.get(), int32_t(head.part), worker, device);
    dev_lock.wait(ticket);
    std::unique_lock dev(dev_lock, std::adopt_lock);
    emit(timeline::phase::end, "LOCK_WAIT", head.job.get(), int32_t(head.part), worker, device);
    const uint64_t t_busy = now_ns();
    if (k.batch > 1) top_up(batch, k, worker, device, call);
    uint64_t proved = 0;
    std::vector<tail_item> own_tails;   // tail_threads == 0: run after the lock
    // The call's last partition is handed on only after the lock, the
    // device bytes and the counters are released: once every job has
    // ended and the synthesis workers are idle, no call holds any of them.
    std::optional<part_outcome> last;
    bool exclude_now = false;   // device_error_limit reached
    // Each partition is handed on once the next one's device part starts
    // (so that its tail runs meanwhile), or, in a batch, once the batch is done.
    auto flush = [&] {
        if (last) hand_on(*last->it, last->sums, last->err, worker, device, last->gpu_start, own_tails);
        last.reset();
    };
    auto done = [&](part_outcome o) {
        flush();
        ++proved;
        if (o.err) o.err->what = fmt::format("{}: {}", device_name(device), o.err->what);
        exclude_now |= count_device_result(device, o.err);
        last = std::move(o);
    };
    if (!batch_device_parts(batch, first, k, worker, device, gpu_start, done)) {
        for (size_t i = first; i < batch.size(); ++i) {
            work_item& it = *batch[i];
            if (i != first) {
                if (!live(it)) continue;
                gpu_start = now_ns();
                emit(timeline::phase::instant, "GPU_START", it.job.get(), int32_t(it.part), worker, device);
            }
            flush();
            device_sums sums;   // read only when err is empty
            // Device-timed spans come from the BLS12-381 cuda prover; the
            // BN254 one (and the cpu backend) bracket the steps on the host.
            span_observer obs(this, it.job.get(), int32_t(it.part), worker, device, !k.gpu.empty());
            auto err = capture([&] { sums = run_device_part(it, k, device, obs); });
            done(part_outcome{&it, sums, err, gpu_start});
        }
    }
    dev.unlock();
    const uint64_t busy = now_ns() - t_busy;
    emit_memory_high_water(device);
    release_device(dev_bytes, device);
    {
        std::lock_guard lk(mu);
        counters.device_busy_ns[size_t(device)] += busy;
        counters.partitions_proved += proved;
        ++counters.device_calls;
    }
    if (last) hand_on(*last->it, last->sums, last->err, worker, device, last->gpu_start, own_tails);
    for (tail_item& t : own_tails) run_tail(t, worker);
    if (exclude_now)
        exclude(unsigned(device), fmt::format("{} consecutive device errors (device_error_limit)",
                                              cfg.device_error_limit));
}

// After a device call: the device's memory high-water mark on the timeline
// (a DEVICE_MEMORY instant; the allocation count's on CUDA, the
// reservations' on the cpu backend), for the waterfall's summary.
void engine_core::emit_memory_high_water(int32_t device)
{
    std::lock_guard lk(mu);
    emit(timeline::phase::instant, "DEVICE_MEMORY", nullptr, -1, -1, device,
         {{"high_water", std::to_string(memory_high_water(size_t(device)))}});
}

// engine_stats::device_memory_high_water of device d. With mu.
uint64_t engine_core::memory_high_water(size_t d) const
{
    return cfg.backend == engine_backend::cuda ? gpu_memory_use_of(numbers[d]).peak : dev_peak[d];
}

// A batching key's call, the device lock held: more synthesized partitions
// of the same key from the head of the lookahead, up to k.batch (those that
// arrived while the call waited for the lock).
void engine_core::top_up(std::vector<std::unique_ptr<work_item>>& batch, const key_entry& k, int32_t worker,
                         int32_t device, const std::string& call)
{
    std::lock_guard lk(mu);
    const size_t before = batch.size();
    while (batch.size() < k.batch && !lookahead.empty() && lookahead.begin()->second->key.get() == &k) {
        auto node = lookahead.extract(lookahead.begin());
        batch.push_back(std::move(node.mapped()));
        emit(timeline::phase::instant, "GPU_PICKUP", batch.back()->job.get(), int32_t(batch.back()->part), worker,
             device, {{"call", call}});
    }
    if (batch.size() != before) cv_synth.notify_all();   // lookahead slots are free
}

// A batching key (k.batch > 1): the partitions from `first` as one batch,
// each outcome passed to `done` in order. cuda (device-evaluated
// partitions): one gpu_prove_start_witness_batch; false when the call is no
// batch (fewer than two partitions, or one not device-evaluated) or the
// batch failed: the caller then proves them one at a time, so that a
// failure stays with its own partition. cpu (max_batch): each partition's
// device part in turn, each with its own outcome, all handed on together.
// Partitions whose job has ended are proved all the same and discarded by
// hand_on.
bool engine_core::batch_device_parts(std::vector<std::unique_ptr<work_item>>& batch, size_t first,
                                     const key_entry& k, int32_t worker, int32_t device, uint64_t gpu_start,
                                     const std::function<void(part_outcome)>& done)
{
    const bool cuda = !k.gpu.empty();
    if (k.batch < 2 || k.snarkjs || batch.size() - first < 2) return false;
    for (size_t i = first; i < batch.size(); ++i)
        if (cuda && !batch[i]->device_eval) return false;
    std::deque<span_observer> obs;
    for (size_t i = first; i < batch.size(); ++i) {
        work_item& it = *batch[i];
        if (i != first) emit(timeline::phase::instant, "GPU_START", it.job.get(), int32_t(it.part), worker, device);
        obs.emplace_back(this, it.job.get(), int32_t(it.part), worker, device, cuda);
    }
    std::vector<part_outcome> out;
    if (!cuda) {   // the cpu backend: each partition's device part in turn, handed on together
        for (size_t i = first; i < batch.size(); ++i) {
            device_sums sums;
            auto err = capture([&] { sums = run_device_part(*batch[i], k, device, obs[i - first]); });
            out.push_back(part_outcome{batch[i].get(), sums, err, gpu_start});
        }
    } else {
        std::vector<gpu_batch_part> parts;
        for (size_t i = first; i < batch.size(); ++i) {
            const work_item& it = *batch[i];
            parts.push_back({it.inputs, it.packed ? std::span<const fr>() : it.aux_span(), it.packed.get(),
                             &obs[i - first]});
        }
        std::vector<groth16::prove_sums> sums;
        if (capture([&] { sums = gpu_prove_start_witness_batch(*k.gpu[size_t(device)], parts); })) return false;
        for (size_t i = first; i < batch.size(); ++i)
            out.push_back(part_outcome{batch[i].get(), sums[i - first], std::nullopt, gpu_start});
    }
    for (part_outcome& o : out) done(std::move(o));
    return true;
}

// "device 1 (CUDA 3)" / "device 1 of the cpu backend", for messages.
std::string engine_core::device_name(int32_t device) const
{
    if (cfg.backend == engine_backend::cuda)
        return fmt::format("device {} (CUDA {})", device, numbers[size_t(device)]);
    return fmt::format("device {} of the cpu backend", device);
}

// Counts a device part's outcome; true when the device has now failed
// device_error_limit times in a row with a device error.
bool engine_core::count_device_result(int32_t device, const std::optional<failure>& err)
{
    std::lock_guard lk(mu);
    const size_t d = size_t(device);
    ++counters.device_partitions[d];
    if (!err || err->code != errc::device) {
        consecutive_errors[d] = 0;
        return false;
    }
    ++counters.device_failures[d];
    return cfg.device_error_limit != 0 && ++consecutive_errors[d] >= cfg.device_error_limit;
}

// Takes device d out of service (see engine::exclude_device). Without mu.
bool engine_core::exclude(unsigned d, const std::string& reason)
{
    std::vector<std::shared_ptr<job_state>> orphans;
    {
        std::lock_guard lk(mu);
        if (counters.device_excluded[d]) return false;
        counters.device_excluded[d] = 1;
        --live_devices;
        emit(timeline::phase::instant, "DEVICE_EXCLUDED", nullptr, -1, -1, int32_t(d), {{"reason", reason}});
        if (live_devices == 0)
            for (auto& [id, j] : live) orphans.push_back(j);
    }
    cv_prove.notify_all();
    std::sort(orphans.begin(), orphans.end(), [](const auto& x, const auto& y) { return x->seq < y->seq; });
    for (auto& j : orphans)
        finish(j, job_status::failed,
               fmt::format("job {}: no device left to prove on ({} excluded: {})", j->id, device_name(int32_t(d)),
                           reason),
               errc::device, -1);
    return true;
}

// The options of the CPU backend's device part, which first passes the
// failure points a device has too (fault.hpp).
groth16::prove_options engine_core::cpu_prove_options(int32_t device) const
{
    fault::check(fault::point::alloc, "cpu prove: device scratch", device);
    fault::check(fault::point::copy, "cpu prove: H2D of the witness", device);
    fault::check(fault::point::kernel, "cpu prove: NTT", device);
    groth16::prove_options po;
    po.threads = cfg.device_threads;
    return po;
}

// A snarkjs key's device part over its curve C: from the witness on the
// cuda backend, from the synthesis stage's A·w and B·w on the cpu backend.
template <class C>
device_sums engine_core::snarkjs_device_part(work_item& it, const key_entry& k, int32_t device, span_observer& obs)
{
    const curve_key<C>& ck = k.as<C>();
    snarkjs_vectors<C>& v = it.as<C>();
    if (!ck.gpu.empty()) return gpu_prove_start_snarkjs(*ck.gpu[size_t(device)], v.w, &obs);
    const groth16::prove_options po = cpu_prove_options(device);
    return groth16::prove_start_snarkjs(*ck.pk, std::move(v.a), std::move(v.b),
                                        std::span<const typename C::fr>(v.w), po, &obs);
}

// The device part of one partition on the engine's backend.
device_sums engine_core::run_device_part(work_item& it, const key_entry& k, int32_t device, span_observer& obs)
{
    if (k.snarkjs)
        return with_curve(k.curve, [&](auto c) { return snarkjs_device_part<decltype(c)>(it, k, device, obs); });
    if (!k.gpu.empty()) {
        const gpu_key& g = *k.gpu[size_t(device)];
        if (it.device_eval && it.packed) return gpu_prove_start_witness(g, it.inputs, *it.packed, &obs);
        if (it.device_eval) return gpu_prove_start_witness(g, it.inputs, it.aux_span(), &obs);
        return gpu_prove_start(g, it.a_span(), it.b_span(), it.c_span(), it.inputs, it.aux_span(), &obs);
    }
    const groth16::prove_options po = cpu_prove_options(device);
    return groth16::prove_start(*k.pk, k.density, std::move(it.a), std::move(it.b), std::move(it.c), it.inputs,
                                it.aux_span(), po, &obs);
}

// After a partition's device part: free what it no longer needs, report
// a failure, or queue (or run) its CPU tail.
void engine_core::hand_on(work_item& it, const device_sums& sums, const std::optional<failure>& err, int32_t worker,
             int32_t device, uint64_t gpu_start, std::vector<tail_item>& own_tails)
{
    const std::shared_ptr<job_state> job = it.job;
    // What is left of the partition is a few points and the public inputs.
    // The reservation is returned first, so that the pools may keep the
    // buffers within the budget.
    it.a = {};
    it.b = {};
    it.c = {};
    it.w = {};
    per_curve<scalars> inputs = with_curve(it.key->curve, [&](auto c) {
        using C = decltype(c);
        return per_curve<scalars>(std::in_place_type<scalars<C>>, std::move(it.as<C>().inputs));
    });
    it.bn = {};
    it.drop_borrowed();   // the host's arrays are free again
    release(it.reserved);
    give_aux(it.aux);
    give_packed(std::move(it.packed));
    // The key goes on with the tail (or is let go of here), so that a job
    // that ends holds its key nowhere but in what is still running for it.
    std::shared_ptr<const key_entry> key = std::move(it.key);
    if (err) {
        key.reset();
        fail(job, it.part, *err);
        return;
    }
    if (job->ending.load()) return;

    tail_item t{job, it.part, sums, std::move(inputs), worker, device, gpu_start, std::move(key)};
    if (cfg.tail_threads == 0) {
        own_tails.push_back(std::move(t));
        return;
    }
    {
        std::lock_guard lk(mu);
        if (stopping) return;
        tails.push_back(std::move(t));
    }
    cv_tail.notify_one();
}

} // namespace cuzk::pipeline::detail
