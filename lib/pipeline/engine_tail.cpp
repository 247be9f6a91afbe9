// The end of a partition and of a job: the CPU tail (blinding, encoding,
// self-verification) and finish(), which ends a job exactly once and
// publishes its result (engine_core.hpp).
#include "engine_core.hpp"

namespace cuzk::pipeline::detail {

namespace {

[[noreturn]] void self_verify_failed()
{
    throw error(errc::internal, "self-verify failed: the proof does not verify (a, b, c inconsistent with the "
                                "witness, or a prover bug)");
}

} // namespace

bool engine_core::finish(const std::shared_ptr<job_state>& job, job_status st, std::string message, errc code, int part)
{
    if (job->ending.exchange(true)) return false;
    // 1. Take it out of the engine: no new work starts for it, and
    //    what is queued gives its memory back. The job lets go of its key
    //    (its partitions in flight hold their own references), and what it
    //    drops is freed once mu is released.
    std::shared_ptr<const key_entry> key;
    std::vector<std::unique_ptr<work_item>> dropped;
    {
        std::lock_guard lk(mu);
        key = std::move(job->key);
        auto it = live.find(job->id);
        if (it != live.end() && it->second == job) live.erase(it);
        dispatch.erase(std::pair<int64_t, uint64_t>{-int64_t(job->priority), job->seq});
        job->inputs.clear();
        for (auto i = lookahead.begin(); i != lookahead.end();) {
            if (i->second->job == job) {
                release_locked(i->second->reserved);
                dropped.push_back(std::move(i->second));
                i = lookahead.erase(i);
            } else {
                ++i;
            }
        }
        if (st == job_status::completed) ++counters.jobs_completed;
        else if (st == job_status::failed) ++counters.jobs_failed;
        else ++counters.jobs_cancelled;
        cv_synth.notify_all();
    }
    dropped.clear();
    key.reset();
    // 2. Publish the result and wake the waiters.
    {
        std::lock_guard lk(job->m);
        job_result& r = job->result;
        r.id = job->id;
        r.status = st;
        r.message = std::move(message);
        r.code = code;
        r.failed_partition = st == job_status::failed ? part : -1;
        r.submitted_ns = job->submitted_ns;
        r.ended_ns = now_ns();
        if (st == job_status::completed) r.partitions = std::move(job->results);
        job->results.clear();
        job->status.store(st);
        job->published = true;
    }
    job->cv.notify_all();
    // 3. Timeline and callback.
    if (st == job_status::completed) {
        emit(timeline::phase::instant, "JOB_DONE", job.get(), -1, -1, -1,
             {{"partitions", std::to_string(job->n_parts)}});
    } else if (st == job_status::failed) {
        emit(timeline::phase::instant, "JOB_FAILED", job.get(), part, -1, -1,
             {{"code", errc_name(code)}, {"message", job->result.message}});
    } else {
        emit(timeline::phase::instant, "JOB_CANCELLED", job.get(), -1, -1, -1,
             {{"message", job->result.message}});
    }
    if (job->on_done) {
        try {
            job->on_done(job->result);
        } catch (...) {   // a throwing callback must not take a worker down
        }
    }
    return true;
}

void engine_core::tail_loop(int32_t worker)
{
    std::unique_lock lk(mu);
    for (;;) {
        cv_tail.wait(lk, [&] { return stopping || !tails.empty(); });
        if (stopping) return;
        tail_item t = std::move(tails.front());
        tails.pop_front();
        lk.unlock();
        run_tail(t, worker);
        lk.lock();
    }
}

// The tail of a partition of a key over curve C: blinding, the public
// inputs, the self-verify; for BLS12-381 also the 192-byte encoding.
template <class C>
void engine_core::finish_proof(const curve_key<C>& k, const tail_item& t, partition_result& res) const
{
    curve_proof<C>& out = res.value.emplace<curve_proof<C>>();
    out.proof = groth16::prove_finish(k.pk->vk, std::get<groth16::prove_sums_t<C>>(t.sums));
    if constexpr (std::is_same_v<C, bls12_381_curve>) {
        std::span<uint8_t, 192> b(res.bytes);
        g1_compress(out.proof.a, b.subspan<0, 48>());
        g2_compress(out.proof.b, b.subspan<48, 96>());
        g1_compress(out.proof.c, b.subspan<144, 48>());
    }
    const scalars<C>& inputs = std::get<scalars<C>>(t.inputs);
    out.public_inputs.assign(inputs.begin() + 1, inputs.end());
    if (cfg.self_verify && !groth16::verify(k.pvk, out.proof, std::span<const typename C::fr>(out.public_inputs)))
        self_verify_failed();
}

void engine_core::run_tail(tail_item& t, int32_t worker)
{
    const std::shared_ptr<job_state>& job = t.job;
    if (job->ending.load()) return;
    const key_entry& k = *t.key;
    const int32_t part = int32_t(t.part);
    partition_result res;
    emit(timeline::phase::begin, "CPU_TAIL", job.get(), part, worker, -1);
    const auto err = capture([&] {
        with_curve(k.curve, [&](auto c) { finish_proof(k.as<decltype(c)>(), t, res); });
    });
    emit(timeline::phase::end, "CPU_TAIL", job.get(), part, worker, -1);
    if (err) {
        t.key.reset();
        fail(job, t.part, *err);
        return;
    }
    emit(timeline::phase::instant, "GPU_END", job.get(), part, t.prove_worker, t.device,
         {{"gpu_ms", fmt::format("{:.3f}", ms(now_ns() - t.gpu_start_ns))}});
    bool complete = false;
    {
        std::lock_guard lk(job->m);
        if (job->published) return;
        job->results[t.part] = std::move(res);
        complete = ++job->parts_done == job->n_parts;
    }
    t.key.reset();   // before the job ends: its waiters may remove the key at once
    if (complete) finish(job, job_status::completed, "", errc::ok, -1);
}

} // namespace cuzk::pipeline::detail
