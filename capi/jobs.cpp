// cuzk C ABI — jobs: waiting, polling, cancelling, and reading a completed
// job's proofs and public inputs.
#include <chrono>

#include "objects.hpp"

#include "cuzk/io/eip197.hpp"

using namespace cuzk;
using namespace cuzk::capi;

namespace {

// The result of a completed job, or the status explaining why there is none.
const pipeline::job_result& completed_result(const job_obj& j, const char* fn)
{
    const pipeline::job_status st = j.h.poll();
    if (!pipeline::is_final(st))
        fail(CUZK_ERR_NOT_FINISHED, fmt::format("{}: job {} has not ended ({})", fn, j.h.id(), pipeline::status_name(st)));
    const pipeline::job_result& r = j.h.result();
    if (r.status == pipeline::job_status::cancelled)
        fail(CUZK_ERR_CANCELLED, fmt::format("{}: job {} was cancelled: {}", fn, r.id, r.message));
    if (r.status == pipeline::job_status::failed) {
        const cuzk_status c = r.code == errc::ok ? CUZK_ERR_INTERNAL : cuzk_status(int(r.code));
        fail(c, fmt::format("{}: job {} failed: {}", fn, r.id, r.message));
    }
    return r;
}

const pipeline::partition_result& part_of(const pipeline::job_result& r, size_t partition, const char* fn)
{
    if (partition >= r.partitions.size())
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: partition {} out of range (job {} has {} partitions)", fn,
                                                    partition, r.id, r.partitions.size()));
    return r.partitions[partition];
}

// A partition's proof in the ABI's encoding of its curve (cuzk.h, Proofs):
// the engine's 192 bytes for BLS12-381, EIP-197's 256 for BN254.
void append_proof(std::vector<uint8_t>& out, const pipeline::partition_result& p)
{
    if (p.curve() == curve_id::bn254) {
        const auto b = io::eip197_proof_bytes(p.get<bn254_curve>().proof);
        out.insert(out.end(), b.begin(), b.end());
    } else {
        out.insert(out.end(), p.bytes.begin(), p.bytes.end());
    }
}

} // namespace

extern "C" {

// ---- jobs -----------------------------------------------------------------------------------

CUZK_API void cuzk_job_destroy(cuzk_job* job) { remove_handle(job, kind::job); }

CUZK_API size_t cuzk_job_last_error(char* out, size_t out_len, const cuzk_job* job)
{
    return last_error<job_obj>(out, out_len, job);
}

CUZK_API const char* cuzk_job_id(const cuzk_job* job)
{
    try {
        auto j = job ? find<job_obj>(job) : nullptr;
        return j ? j->h.id().c_str() : nullptr;
    } catch (...) {
        return nullptr;
    }
}

CUZK_API cuzk_status cuzk_job_num_partitions(size_t* out, const cuzk_job* job)
{
    return call<job_obj>(job, "cuzk_job_num_partitions", [&](job_obj& j) -> cuzk_status {
        need(out, "cuzk_job_num_partitions", "out");
        *out = j.num_parts;
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_job_wait(cuzk_job* job, int64_t timeout_ms)
{
    return call<job_obj>(job, "cuzk_job_wait", [&](job_obj& j) -> cuzk_status {
        // Past ~100 years the deadline would overflow the clock's range:
        // treat it as "no timeout".
        constexpr int64_t forever_ms = int64_t(100) * 365 * 24 * 3600 * 1000;
        if (timeout_ms < 0 || timeout_ms >= forever_ms) {
            j.h.wait();
            return CUZK_OK;
        }
        if (j.h.wait_for(std::chrono::milliseconds(timeout_ms))) return CUZK_OK;
        fail(CUZK_ERR_TIMEOUT, fmt::format("cuzk_job_wait: job {} has not ended after {} ms", j.h.id(), timeout_ms));
    });
}

CUZK_API cuzk_status cuzk_job_poll(int32_t* out, const cuzk_job* job)
{
    return call<job_obj>(job, "cuzk_job_poll", [&](job_obj& j) -> cuzk_status {
        need(out, "cuzk_job_poll", "out");
        *out = int32_t(j.h.poll());
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_job_cancel(int32_t* out, cuzk_job* job)
{
    return call<job_obj>(job, "cuzk_job_cancel", [&](job_obj& j) -> cuzk_status {
        const bool ended_now = j.h.cancel();
        if (out) *out = ended_now ? 1 : 0;
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_job_status(cuzk_status* out, int32_t* out_failed_partition, const cuzk_job* job)
{
    static const char* fn = "cuzk_job_status";
    return call<job_obj>(job, fn, [&](job_obj& j) -> cuzk_status {
        need(out, fn, "out");
        const pipeline::job_status st = j.h.poll();
        if (!pipeline::is_final(st))
            fail(CUZK_ERR_NOT_FINISHED, fmt::format("{}: job {} has not ended ({})", fn, j.h.id(), pipeline::status_name(st)));
        const pipeline::job_result& r = j.h.result();
        cuzk_status c = CUZK_OK;
        if (r.status == pipeline::job_status::cancelled) c = CUZK_ERR_CANCELLED;
        else if (r.status == pipeline::job_status::failed) c = r.code == errc::ok ? CUZK_ERR_INTERNAL : cuzk_status(int(r.code));
        *out = c;
        if (out_failed_partition) *out_failed_partition = r.failed_partition;
        return CUZK_OK;
    });
}

CUZK_API const char* cuzk_job_message(const cuzk_job* job)
{
    try {
        auto j = job ? find<job_obj>(job) : nullptr;
        if (!j) return nullptr;
        if (!pipeline::is_final(j->h.poll())) return "";
        return j->h.result().message.c_str();
    } catch (...) {
        return nullptr;
    }
}

CUZK_API cuzk_status cuzk_job_proof(uint8_t* out, size_t out_len, size_t* out_size, const cuzk_job* job,
                                    size_t partition)
{
    static const char* fn = "cuzk_job_proof";
    return call<job_obj>(job, fn, [&](job_obj& j) -> cuzk_status {
        need(out_size, fn, "out_size");
        const pipeline::job_result& r = completed_result(j, fn);
        std::vector<uint8_t> b;
        append_proof(b, part_of(r, partition, fn));
        return write_bytes(out, out_len, out_size, b.data(), b.size(), fn);
    });
}

CUZK_API cuzk_status cuzk_job_proofs(uint8_t* out, size_t out_len, size_t* out_size, const cuzk_job* job)
{
    static const char* fn = "cuzk_job_proofs";
    return call<job_obj>(job, fn, [&](job_obj& j) -> cuzk_status {
        need(out_size, fn, "out_size");
        const pipeline::job_result& r = completed_result(j, fn);
        std::vector<uint8_t> all;
        all.reserve(r.partitions.size() * io::eip197_proof_size);
        for (const auto& p : r.partitions) append_proof(all, p);
        return write_bytes(out, out_len, out_size, all.data(), all.size(), fn);
    });
}

CUZK_API cuzk_status cuzk_job_public_inputs(uint8_t* out, size_t out_len, size_t* out_size, const cuzk_job* job,
                                            size_t partition)
{
    static const char* fn = "cuzk_job_public_inputs";
    return call<job_obj>(job, fn, [&](job_obj& j) -> cuzk_status {
        need(out_size, fn, "out_size");
        const pipeline::job_result& r = completed_result(j, fn);
        const auto& p = part_of(r, partition, fn);
        const std::vector<uint8_t> b = with_curve(p.curve(), [&](auto c) {
            const auto& pub = p.get<decltype(c)>().public_inputs;
            std::vector<uint8_t> v(pub.size() * 32);
            put_scalars(v.data(), pub);
            return v;
        });
        return write_bytes(out, out_len, out_size, b.data(), b.size(), fn);
    });
}

} // extern "C"
