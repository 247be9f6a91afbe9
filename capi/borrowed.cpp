// cuzk C ABI — host-synthesized partitions borrowed until they are read
// (cuzk_engine_submit_borrowed), in canonical or Montgomery form, and keys
// registered with the host's query densities (cuzk_engine_add_key_density).
//
// Montgomery form (cuzk's fr has the same limbs), arrays aligned to 8 bytes:
// the partition is handed to the engine as a pipeline::borrowed_witness_partition
// or borrowed_abc_partition, read in place (no copy: packed for the upload
// straight from the host's memory on the cuda backend) and released when the
// engine drops its hold. Canonical form (or unaligned arrays): a WITNESS
// partition becomes a circuit_partition whose circuit is a view of the host's
// arrays; its witness(), called by the synthesis stage, converts the values
// into the engine's own vectors and then releases the host's arrays; an ABC
// partition is converted at submit. A job's on_done releases every partition
// not released by then. Each partition has a mutex so that a read in progress
// and the job's end never race: whichever comes second sees `released` and
// does nothing.
#include <atomic>
#include <cstdint>
#include <span>

#include "objects.hpp"

#include "cuzk/util/parallel.hpp"

using namespace cuzk;
using namespace cuzk::capi;

namespace {

// ---- reading scalar arrays in either form --------------------------------------------------
// Writes n scalars from host memory p into out[0..n); `what` names the array.
void read_into(fr* out, const void* p, size_t n, uint32_t form, const std::string& what, const char* fn,
               unsigned threads)
{
    if (n == 0) return;
    const auto* bytes = static_cast<const uint8_t*>(p);
    std::atomic<size_t> bad{SIZE_MAX};
    parallel_for(threads, n, [&](size_t i0, size_t i1, unsigned) {
        for (size_t i = i0; i < i1; ++i) {
            bool ok;
            if (form == CUZK_FORM_MONTGOMERY) {
                std::memcpy(out[i].l, bytes + 32 * i, 32);
                ok = fr::is_canonical(out[i].mont());
            } else {
                ok = fr::from_bytes_le(bytes + 32 * i, out[i]);
            }
            if (!ok) {
                size_t cur = bad.load();
                while (i < cur && !bad.compare_exchange_weak(cur, i)) {
                }
            }
        }
    });
    if (bad.load() != SIZE_MAX)
        throw error(errc::non_canonical, fmt::format("{}: {}[{}] is not a canonical scalar (>= r{})", fn, what,
                                                     bad.load(), form == CUZK_FORM_MONTGOMERY ? " in Montgomery form" : ""));
}

std::vector<fr> read_vec(const void* p, size_t n, uint32_t form, const std::string& what, const char* fn)
{
    std::vector<fr> v(n);
    read_into(v.data(), p, n, form, what, fn, 1);
    return v;
}

// ---- the release bookkeeping of one job --------------------------------------------------------
struct borrowed_part {
    std::mutex mu;
    bool released = false;
    bool in_place = false;   // read in place by the engine: only the engine's hold releases it
    bool armed = false;      // in place: the submit succeeded (a failed submit releases nothing)
    bool dropped = false;    // in place: the engine has dropped its hold
    cuzk_borrowed_partition p{};
    size_t index = 0;

    // Calls the host's release once; the caller holds mu.
    void release_locked() noexcept
    {
        if (released) return;
        released = true;
        if (p.release) p.release(p.user_data, index);
    }
};

struct borrowed_job {
    std::vector<std::unique_ptr<borrowed_part>> parts;
    // At the job's end: every partition the engine does not read in place
    // (those are released when the engine drops its hold, which may come
    // later: a read in progress when the job ended finishes first).
    void release_all() noexcept
    {
        for (auto& bp : parts) {
            if (bp->in_place) continue;
            std::lock_guard lk(bp->mu);
            bp->release_locked();
        }
    }
};

// A WITNESS partition as a circuit whose witness is the host's arrays.
class borrowed_circuit final : public r1cs::circuit {
public:
    borrowed_circuit(std::shared_ptr<borrowed_job> job, size_t i) : job_(std::move(job)), i_(i) {}

    void synthesize(r1cs::constraint_system&) const override
    {
        throw error(errc::internal, "a borrowed partition has no constraints of its own (witness() provides it)");
    }

    bool witness(std::vector<fr>& inputs, std::vector<fr>& aux, unsigned threads) const override
    {
        static const char* fn = "cuzk_engine_submit_borrowed";
        borrowed_part& bp = *job_->parts[i_];
        std::lock_guard lk(bp.mu);
        if (bp.released)
            throw error(errc::cancelled, fmt::format("partition {}: its arrays were already released", i_));
        const cuzk_borrowed_partition& p = bp.p;
        const std::string name = fmt::format("partition {}", i_);
        try {
            inputs.resize(p.num_inputs);
            aux.resize(p.num_aux);
            read_into(inputs.data(), p.inputs, p.num_inputs, p.form, name + " inputs", fn, 1);
            read_into(aux.data(), p.aux, p.num_aux, p.form, name + " aux", fn, threads);
        } catch (...) {
            bp.release_locked();
            throw;
        }
        bp.release_locked();
        if (inputs.empty() || inputs[0] != fr::one())
            throw error(errc::invalid_argument, fmt::format("{}: {}: inputs[0] must be ONE (1)", fn, name));
        return true;
    }

private:
    std::shared_ptr<borrowed_job> job_;
    size_t i_;
};

// Checks one partition's shape against the key (the values come later).
void check_part(const cuzk_borrowed_partition& p, size_t i, const engine_key& k, uint32_t key_id, const char* fn)
{
    const std::string pname = fmt::format("partition {}", i);
    if (k.curve() == curve_id::bn254)
        fail(CUZK_ERR_UNSUPPORTED, fmt::format("{}: key {} is a BN254 key; borrowed partitions are for BLS12-381 "
                                               "bellperson keys (submit its witnesses with cuzk_engine_submit)",
                                               fn, key_id));
    if (p.form != CUZK_FORM_CANONICAL && p.form != CUZK_FORM_MONTGOMERY)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {}: unknown form {}", fn, pname, p.form));
    if (p.reserved) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {}: reserved must be 0", fn, pname));
    auto check_len = [&](const char* what, size_t given, uint64_t expected) {
        if (given != expected)
            throw error(errc::bad_length, fmt::format("{}: {}: {} has {} values, the key{} expects {}", fn, pname, what,
                                                      given, k.name.empty() ? "" : " " + k.name, expected));
    };
    auto check_ptr = [&](const void* ptr, size_t n, const char* what) {
        if (n && !ptr) fail(CUZK_ERR_NULL, fmt::format("{}: {} {} is NULL but its count is {}", fn, pname, what, n));
    };
    const groth16::proving_key& pk = k.proving_key<bls12_381_curve>();
    check_len("inputs (including ONE)", p.num_inputs, pk.num_inputs);
    check_len("aux", p.num_aux, pk.num_aux);
    check_ptr(p.inputs, p.num_inputs, "inputs");
    check_ptr(p.aux, p.num_aux, "aux");
    if (pk.conv == groth16::convention::snarkjs)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {}: key {} is a snarkjs key; borrowed partitions are for "
                                                    "bellperson keys", fn, pname, key_id));
    if (p.kind == CUZK_PARTITION_WITNESS) {
        if (!k.pce)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {}: a witness partition needs the key's PCE; key {} was "
                                                        "added without one", fn, pname, key_id));
    } else if (p.kind == CUZK_PARTITION_ABC) {
        const uint64_t m = k.pce ? k.pce->num_constraints : pk.n_constraints;
        if (m) check_len("a, b and c", p.num_constraints, m);
        check_ptr(p.a, p.num_constraints, "a");
        check_ptr(p.b, p.num_constraints, "b");
        check_ptr(p.c, p.num_constraints, "c");
    } else {
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {}: unknown kind {}", fn, pname, p.kind));
    }
}

// Whether the partition's arrays can be read in place as cuzk::fr.
bool in_place(const cuzk_borrowed_partition& p)
{
    if (p.form != CUZK_FORM_MONTGOMERY) return false;
    for (const void* q : {p.inputs, p.aux, p.a, p.b, p.c})
        if (reinterpret_cast<uintptr_t>(q) % alignof(fr) != 0) return false;
    return true;
}

std::span<const fr> view(const void* p, size_t n) { return {static_cast<const fr*>(p), p ? n : 0}; }

// The engine's hold on partition i: dropping its last copy releases the
// host's arrays (once, whatever else released them first).
std::shared_ptr<const void> hold_of(const std::shared_ptr<borrowed_job>& job, size_t i)
{
    borrowed_part* bp = job->parts[i].get();
    return std::shared_ptr<const void>(static_cast<const void*>(bp), [job](const void* q) {
        auto* part = static_cast<borrowed_part*>(const_cast<void*>(q));
        std::lock_guard lk(part->mu);
        part->dropped = true;
        if (part->armed) part->release_locked();
    });
}

// A Montgomery partition read in place by the engine.
pipeline::partition borrowed_view(const std::shared_ptr<borrowed_job>& job, size_t i)
{
    const cuzk_borrowed_partition& p = job->parts[i]->p;
    if (p.kind == CUZK_PARTITION_ABC)
        return pipeline::borrowed_abc_partition{view(p.a, p.num_constraints), view(p.b, p.num_constraints),
                                                view(p.c, p.num_constraints), view(p.inputs, p.num_inputs),
                                                view(p.aux, p.num_aux), hold_of(job, i)};
    return pipeline::borrowed_witness_partition{view(p.inputs, p.num_inputs), view(p.aux, p.num_aux),
                                                hold_of(job, i)};
}

// An ABC partition, read now.
pipeline::abc_partition read_abc(const cuzk_borrowed_partition& p, size_t i, const char* fn)
{
    const std::string pname = fmt::format("partition {}", i);
    pipeline::abc_partition ap;
    ap.inputs = read_vec(p.inputs, p.num_inputs, p.form, pname + " inputs", fn);
    if (ap.inputs.empty() || ap.inputs[0] != fr::one())
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {}: inputs[0] must be ONE (1)", fn, pname));
    ap.aux = read_vec(p.aux, p.num_aux, p.form, pname + " aux", fn);
    ap.a = read_vec(p.a, p.num_constraints, p.form, pname + " a", fn);
    ap.b = read_vec(p.b, p.num_constraints, p.form, pname + " b", fn);
    ap.c = read_vec(p.c, p.num_constraints, p.form, pname + " c", fn);
    return ap;
}

// Bitmap of `bits` bits (LSB first per byte) as bools.
std::vector<bool> bits_of(const uint8_t* p, size_t bits, size_t expected, const char* what, const char* fn)
{
    if (bits != expected)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: density.{} has {} bits, the key has {}", fn, what, bits, expected));
    if (bits && !p) fail(CUZK_ERR_NULL, fmt::format("{}: density.{} is NULL but has {} bits", fn, what, bits));
    std::vector<bool> v(bits);
    for (size_t i = 0; i < bits; ++i) v[i] = (p[i >> 3] >> (i & 7)) & 1;
    return v;
}

} // namespace

extern "C" {

CUZK_API cuzk_status cuzk_borrowed_partition_init(cuzk_borrowed_partition* out)
{
    if (!clear_struct(out)) return CUZK_ERR_NULL;
    out->kind = CUZK_PARTITION_WITNESS;
    out->form = CUZK_FORM_CANONICAL;
    return CUZK_OK;
}

CUZK_API cuzk_status cuzk_query_density_init(cuzk_query_density* out)
{
    if (!clear_struct(out)) return CUZK_ERR_NULL;
    return CUZK_OK;
}

CUZK_API cuzk_status cuzk_engine_submit_borrowed(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                                 const cuzk_borrowed_partition* parts, size_t num_parts,
                                                 const cuzk_job_options* opt)
{
    static const char* fn = "cuzk_engine_submit_borrowed";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        need(parts, fn, "parts");
        if (num_parts == 0) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: num_parts is 0", fn));
        if (num_parts > CUZK_MAX_PARTITIONS)
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: num_parts is {}, at most {} per job", fn, num_parts, CUZK_MAX_PARTITIONS));
        const engine_key k = e.key(key_id, fn);
        const uint32_t stride = parts[0].struct_size;
        auto job = std::make_shared<borrowed_job>();
        for (size_t i = 0; i < num_parts; ++i) {
            const auto* pp = reinterpret_cast<const cuzk_borrowed_partition*>(
                reinterpret_cast<const unsigned char*>(parts) + size_t(stride) * i);
            if (pp->struct_size != stride)
                fail(CUZK_ERR_STRUCT_SIZE, fmt::format("{}: partition {} has struct_size {}, partition 0 has {}", fn,
                                                       i, pp->struct_size, stride));
            auto bp = std::make_unique<borrowed_part>();
            bp->p = read_struct(pp, sizeof(cuzk_borrowed_partition), fn, fmt::format("partition {}", i).c_str());
            bp->index = i;
            check_part(bp->p, i, k, key_id, fn);
            job->parts.push_back(std::move(bp));
        }
        pipeline::proof_request req;
        req.key = key_id;
        for (size_t i = 0; i < num_parts; ++i) {
            const cuzk_borrowed_partition& p = job->parts[i]->p;
            if (in_place(p)) {
                job->parts[i]->in_place = true;
                req.partitions.push_back(borrowed_view(job, i));
            } else if (p.kind == CUZK_PARTITION_ABC) {
                req.partitions.emplace_back(read_abc(p, i, fn));
            } else {
                req.partitions.emplace_back(pipeline::circuit_partition{std::make_shared<borrowed_circuit>(job, i)});
            }
        }
        req.on_done = [job](const pipeline::job_result&) { job->release_all(); };
        *out = submit_job(e, std::move(req), opt, fn);
        // ABC partitions converted above are free now; in-place ones are
        // released when the engine drops its hold (perhaps already done);
        // the others by their read or the job's end.
        for (auto& bp : job->parts) {
            std::lock_guard lk(bp->mu);
            if (bp->in_place) {
                bp->armed = true;
                if (bp->dropped) bp->release_locked();
            } else if (bp->p.kind == CUZK_PARTITION_ABC) {
                bp->release_locked();
            }
        }
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_engine_add_key_density(uint32_t* out, cuzk_engine* engine, const cuzk_key* key,
                                                 const cuzk_query_density* density, const char* name,
                                                 uint64_t partition_bytes)
{
    static const char* fn = "cuzk_engine_add_key_density";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        auto k = need_key(key, fn);
        const cuzk_query_density d = read_struct(density, sizeof(cuzk_query_density), fn, "cuzk_query_density");
        if (d.reserved) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: density.reserved must be 0", fn));
        if (k->curve == curve_id::bn254)
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: densities are for bellperson keys; this is a BN254 (snarkjs) key", fn));
        if (!k->pk) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: the key is a verifying key only", fn));
        if (k->conv != groth16::convention::bellperson)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: densities are for bellperson keys; this is a snarkjs key", fn));
        groth16::query_density qd;
        qd.a_aux = bits_of(d.a_aux, d.a_aux_bits, k->pk->num_aux, "a_aux", fn);
        qd.b_input = bits_of(d.b_input, d.b_input_bits, k->pk->num_inputs, "b_input", fn);
        qd.b_aux = bits_of(d.b_aux, d.b_aux_bits, k->pk->num_aux, "b_aux", fn);
        pipeline::key_options ko;
        ko.name = name ? name : "";
        ko.partition_bytes = partition_bytes;
        const pipeline::key_id id = k->add_to(*e.eng, nullptr, &qd, ko);
        {
            std::lock_guard lk(e.keys_mu);
            e.keys[id] = engine_key{k->pk, nullptr, ko.name, std::nullopt};
        }
        *out = id;
        return CUZK_OK;
    });
}

} // extern "C"
