// cuzk C ABI — the engine: creation with its timeline sinks, key
// registration, submission of copied partitions, statistics.
#include "objects.hpp"

using namespace cuzk;
using namespace cuzk::capi;

namespace cuzk::capi {

namespace {

// The deleter of engine objects (see engine_reaper).
struct engine_deleter {
    std::shared_ptr<engine_reaper> r;
    void operator()(engine_obj* p) const noexcept
    {
        {
            std::lock_guard lk(r->mu);
            if (r->waiting) {
                r->handed = p;
                r->cv.notify_all();
                return;
            }
        }
        delete p;
    }
};

// Removes the engine handle from the registry and returns its object (null
// when `h` is not a live engine handle).
std::shared_ptr<engine_obj> take_engine(const cuzk_engine* h)
{
    registry& r = reg();
    std::unique_lock lk(r.mu);
    auto it = r.live.find(token(h));
    if (it == r.live.end() || it->second->get_kind() != kind::engine) return nullptr;
    std::shared_ptr<engine_obj> o = std::static_pointer_cast<engine_obj>(std::move(it->second));
    r.live.erase(it);
    return o;   // released by the caller, outside the registry lock
}

// cuzk_engine_destroy on any thread but the engine's delivery thread: waits
// until the calls on the engine in progress on other threads (its timeline
// callback's included) have returned, then shuts the engine down here.
void destroy_here(std::shared_ptr<engine_obj> e) noexcept
{
    const std::shared_ptr<engine_reaper> r = e->reaper;
    {
        std::lock_guard lk(r->mu);
        r->waiting = true;
    }
    e.reset();   // the last reference, or the deleter hands it over later
    engine_obj* p = nullptr;
    {
        std::unique_lock lk(r->mu);
        r->cv.wait(lk, [&] { return r->handed != nullptr; });
        p = r->handed;
    }
    delete p;
}

// cuzk_engine_add_key for a BN254 key: the engine's BN254 add_key (a snarkjs
// key: no PCE, no densities).
uint32_t add_bn254_key(engine_obj& e, const key_obj& k, bool has_pce, const pipeline::key_options& ko, const char* fn)
{
    if (has_pce)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: the key is a BN254 (snarkjs) key, which takes no PCE (its A "
                                                    "and B travel with the key); pass NULL",
                                                    fn));
    if (!k.bn.pk) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: the key is a verifying key only", fn));
    const pipeline::key_id id = e.eng->add_key(k.bn.pk, ko);
    engine_key ek;
    ek.name = ko.name;
    ek.pk = k.bn.pk;
    std::lock_guard lk(e.keys_mu);
    e.keys[id] = std::move(ek);
    return id;
}

// One copied partition of a BN254 key: a WITNESS partition whose inputs ‖
// aux become the engine's full witness.
pipeline::full_witness_partition_t<bn254_curve> bn254_part(const cuzk_partition& p, size_t i, const engine_key& k, uint32_t key_id,
                                             const char* fn)
{
    const std::string pname = fmt::format("partition {}", i);
    if (p.kind == CUZK_PARTITION_ABC)
        fail(CUZK_ERR_UNSUPPORTED, fmt::format("{}: {}: key {} is a BN254 key, which takes CUZK_PARTITION_WITNESS "
                                               "partitions only (its A and B travel with the key)",
                                               fn, pname, key_id));
    if (p.kind != CUZK_PARTITION_WITNESS)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {}: unknown kind {}", fn, pname, p.kind));
    auto check_len = [&](const char* what, size_t given, uint64_t expected) {
        if (given != expected)
            throw error(errc::bad_length, fmt::format("{}: {}: {} has {} values, the key{} expects {}", fn, pname, what,
                                                      given, k.name.empty() ? "" : " " + k.name, expected));
    };
    const groth16::proving_key_t<bn254_curve>& pk = k.proving_key<bn254_curve>();
    check_len("inputs (including ONE)", p.num_inputs, pk.num_inputs);
    check_len("aux", p.num_aux, pk.num_aux);
    pipeline::full_witness_partition_t<bn254_curve> w;
    w.w = scalars<bn254::fr>(p.inputs, p.num_inputs, pname + " inputs", fn);
    if (w.w.empty() || w.w[0] != bn254::fr::one())
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {}: inputs[0] must be ONE (1)", fn, pname));
    const std::vector<bn254::fr> ax = scalars<bn254::fr>(p.aux, p.num_aux, pname + " aux", fn);
    w.w.insert(w.w.end(), ax.begin(), ax.end());
    return w;
}

} // namespace

cuzk_job* submit_job(engine_obj& e, pipeline::proof_request req, const cuzk_job_options* opt, const char* fn)
{
    if (opt) {
        const cuzk_job_options o = read_struct(opt, sizeof(cuzk_job_options), fn, "cuzk_job_options");
        req.priority = o.priority;
        if (o.id) req.id = o.id;
    }
    auto j = std::make_shared<job_obj>();
    j->num_parts = req.partitions.size();
    j->h = e.eng->submit(std::move(req));
    return add_handle<cuzk_job>(j);
}

} // namespace cuzk::capi

extern "C" {

// ---- engine ---------------------------------------------------------------------------------

CUZK_API cuzk_status cuzk_engine_options_init(cuzk_engine_options* out)
{
    if (!clear_struct(out)) return CUZK_ERR_NULL;
    const pipeline::engine_config d;
    out->synth_workers = d.synth_workers;
    out->synth_threads = d.synth_threads;
    out->lookahead = d.lookahead;
    out->devices = d.devices;
    out->workers_per_device = d.workers_per_device;
    out->device_threads = d.device_threads;
    out->tail_threads = d.tail_threads;
    out->host_memory_budget = d.host_memory_budget;
    out->self_verify = d.self_verify ? 1 : 0;
    out->partitions_per_call = d.partitions_per_call;
    out->backend = d.backend == pipeline::engine_backend::cuda ? CUZK_BACKEND_CUDA : CUZK_BACKEND_CPU;
    out->device_memory_budget = d.device_memory_budget;
    out->max_batch = d.max_batch;
    return CUZK_OK;
}

CUZK_API cuzk_status cuzk_engine_create(cuzk_engine** out, const cuzk_engine_options* opt, char* err, size_t err_len)
{
    static const char* fn = "cuzk_engine_create";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        cuzk_engine_options o;
        if (opt) o = read_struct(opt, sizeof(cuzk_engine_options), fn, "cuzk_engine_options");
        else cuzk_engine_options_init(&o);
        if (o.reserved0 != 0 || o.reserved1 != 0)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: reserved0 and reserved1 must be 0", fn));

        auto reaper = std::make_shared<engine_reaper>();
        std::shared_ptr<engine_obj> e(new engine_obj, engine_deleter{reaper});
        e->reaper = std::move(reaper);
        std::vector<std::shared_ptr<timeline::sink>> sinks;
        if (o.timeline_callbacks) {
            const cuzk_timeline_callbacks cb = read_struct(o.timeline_callbacks, sizeof(cuzk_timeline_callbacks), fn,
                                                           "cuzk_timeline_callbacks");
            // The engine records under its lock: the host's callback runs on
            // the engine object's delivery thread instead (cuzk.h).
            if (cb.on_event) {
                e->events = std::make_shared<timeline::async_sink>(make_callback_sink(cb));
                sinks.push_back(e->events);
            }
        }
        if (o.timeline_buffer) {
            auto b = find<timeline_buffer_obj>(o.timeline_buffer);
            if (!b) fail(CUZK_ERR_INVALID_HANDLE, fmt::format("{}: timeline_buffer is not a live cuzk_timeline_buffer", fn));
            sinks.push_back(b->sink);
        }
        pipeline::engine_config cfg;
        cfg.synth_workers = o.synth_workers;
        cfg.synth_threads = o.synth_threads;
        cfg.lookahead = o.lookahead;
        cfg.devices = o.devices;
        cfg.workers_per_device = o.workers_per_device;
        cfg.device_threads = o.device_threads;
        cfg.tail_threads = o.tail_threads;
        cfg.host_memory_budget = o.host_memory_budget;
        cfg.self_verify = o.self_verify != 0;
        cfg.partitions_per_call = o.partitions_per_call;
        cfg.device_memory_budget = o.device_memory_budget;
        cfg.device_error_limit = o.device_error_limit;
        cfg.max_batch = o.max_batch;
        if (o.num_cuda_devices > 4096)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: num_cuda_devices {} is above 4096", fn, o.num_cuda_devices));
        if (o.num_cuda_devices && !o.cuda_devices)
            fail(CUZK_ERR_NULL, fmt::format("{}: cuda_devices is NULL with num_cuda_devices {}", fn, o.num_cuda_devices));
        if (o.cuda_devices) cfg.cuda_devices.assign(o.cuda_devices, o.cuda_devices + o.num_cuda_devices);
        if (o.backend == CUZK_BACKEND_CPU) cfg.backend = pipeline::engine_backend::cpu;
        else if (o.backend == CUZK_BACKEND_CUDA) cfg.backend = pipeline::engine_backend::cuda;
        else fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: unknown backend {}", fn, o.backend));
        if (!sinks.empty()) {
            e->sink = std::make_shared<timeline::fan_out>(std::move(sinks));
            cfg.sink = e->sink.get();
        }
        e->eng = std::make_unique<pipeline::engine>(cfg);
        *out = add_handle<cuzk_engine>(e);
        return CUZK_OK;
    });
}

CUZK_API void cuzk_engine_destroy(cuzk_engine* engine)
{
    if (!engine) return;
    try {
        std::shared_ptr<engine_obj> e = take_engine(engine);
        if (!e) return;
        if (e->events && e->events->on_delivery_thread()) {
            // From the engine's own timeline callback: nothing more is
            // delivered; the engine shuts down when the last reference goes
            // (now, or when another thread's call on it returns).
            e->events->abandon();
            e.reset();
            return;
        }
        destroy_here(std::move(e));
    } catch (...) {   // a failed lock: leave the engine to the references left
    }
}

CUZK_API size_t cuzk_engine_last_error(char* out, size_t out_len, const cuzk_engine* engine)
{
    return last_error<engine_obj>(out, out_len, engine);
}

CUZK_API cuzk_status cuzk_engine_add_key(uint32_t* out, cuzk_engine* engine, const cuzk_key* key, const cuzk_pce* pce,
                                         const char* name, uint64_t partition_bytes)
{
    static const char* fn = "cuzk_engine_add_key";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        auto k = need_key(key, fn);
        std::shared_ptr<const r1cs::pce> p = k->own_pce;   // a PoRep key brings its circuit
        if (pce) {
            auto po = find<pce_obj>(pce);
            if (!po) fail(CUZK_ERR_INVALID_HANDLE, fmt::format("{}: pce is not a live cuzk_pce handle", fn));
            if (k->own_pce && po->p != k->own_pce)
                fail(CUZK_ERR_INVALID_ARGUMENT,
                     fmt::format("{}: the key is a PoRep key with its own circuit; pass NULL as pce", fn));
            p = po->p;
        }
        pipeline::key_options ko;
        ko.name = name ? name : "";
        ko.partition_bytes = partition_bytes;
        if (k->curve == curve_id::bn254) {
            *out = add_bn254_key(e, *k, pce != nullptr, ko, fn);
            return CUZK_OK;
        }
        if (!k->pk) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: the key is a verifying key only", fn));
        pipeline::key_id id;
        if (k->conv == groth16::convention::snarkjs) {
            if (p)
                fail(CUZK_ERR_INVALID_ARGUMENT,
                     fmt::format("{}: a snarkjs key takes no PCE (its A and B travel with the key); pass NULL", fn));
            id = k->add_to(*e.eng, nullptr, nullptr, ko);
        } else if (p && k->density) {
            id = k->add_to(*e.eng, p, &*k->density, ko);
        } else if (p) {
            id = k->add_to(*e.eng, p, nullptr, ko);
        } else {
            if (!k->density)
                fail(CUZK_ERR_INVALID_ARGUMENT,
                     fmt::format("{}: without a PCE the key's query densities are needed; only keys from "
                                 "cuzk_key_setup_dev (bellperson) know them — pass the key's PCE",
                                 fn));
            id = k->add_to(*e.eng, nullptr, &*k->density, ko);
        }
        {
            std::lock_guard lk(e.keys_mu);
            e.keys[id] = engine_key{k->pk, p, ko.name, k->porep, k->post, k->update};
        }
        *out = id;
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_partition_init(cuzk_partition* out)
{
    if (!clear_struct(out)) return CUZK_ERR_NULL;
    out->kind = CUZK_PARTITION_WITNESS;
    return CUZK_OK;
}

CUZK_API cuzk_status cuzk_job_options_init(cuzk_job_options* out)
{
    if (!clear_struct(out)) return CUZK_ERR_NULL;
    return CUZK_OK;
}

CUZK_API cuzk_status cuzk_engine_submit(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                        const cuzk_partition* parts, size_t num_parts, const cuzk_job_options* opt)
{
    static const char* fn = "cuzk_engine_submit";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        need(parts, fn, "parts");
        if (num_parts == 0) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: num_parts is 0", fn));
        if (num_parts > CUZK_MAX_PARTITIONS)
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: num_parts is {}, at most {} per job", fn, num_parts, CUZK_MAX_PARTITIONS));
        const engine_key k = e.key(key_id, fn);
        const uint32_t stride = parts[0].struct_size;
        pipeline::proof_request req;
        req.key = key_id;
        req.partitions.reserve(num_parts);
        for (size_t i = 0; i < num_parts; ++i) {
            const auto* pp = reinterpret_cast<const cuzk_partition*>(reinterpret_cast<const unsigned char*>(parts) +
                                                                     size_t(stride) * i);
            if (pp->struct_size != stride)
                fail(CUZK_ERR_STRUCT_SIZE, fmt::format("{}: partition {} has struct_size {}, partition 0 has {}", fn, i,
                                                       pp->struct_size, stride));
            const std::string pname = fmt::format("partition {}", i);
            const cuzk_partition p = read_struct(pp, sizeof(cuzk_partition), fn, pname.c_str());
            if (k.curve() == curve_id::bn254) {
                req.partitions.emplace_back(bn254_part(p, i, k, key_id, fn));
                continue;
            }
            auto check_len = [&](const char* what, size_t given, uint64_t expected) {
                if (given != expected)
                    throw error(errc::bad_length,
                                fmt::format("{}: partition {}: {} has {} values, the key{} expects {}", fn, i, what,
                                            given, k.name.empty() ? "" : " " + k.name, expected));
            };
            const groth16::proving_key& pk = k.proving_key<bls12_381_curve>();
            check_len("inputs (including ONE)", p.num_inputs, pk.num_inputs);
            check_len("aux", p.num_aux, pk.num_aux);
            std::vector<fr> in = scalars(p.inputs, p.num_inputs, pname + " inputs", fn);
            std::vector<fr> ax = scalars(p.aux, p.num_aux, pname + " aux", fn);
            if (in.empty() || in[0] != fr::one())
                fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: partition {}: inputs[0] must be ONE (1)", fn, i));
            const bool snarkjs = pk.conv == groth16::convention::snarkjs;
            if (p.kind == CUZK_PARTITION_WITNESS) {
                if (!k.pce && !snarkjs)
                    fail(CUZK_ERR_INVALID_ARGUMENT,
                         fmt::format("{}: partition {}: a witness partition needs the key's PCE; key {} was added "
                                     "without one",
                                     fn, i, key_id));
                req.partitions.emplace_back(pipeline::witness_partition{std::move(in), std::move(ax)});
            } else if (p.kind == CUZK_PARTITION_ABC) {
                if (snarkjs)
                    fail(CUZK_ERR_INVALID_ARGUMENT,
                         fmt::format("{}: partition {}: key {} is a snarkjs key, which takes witness partitions only",
                                     fn, i, key_id));
                const uint64_t m = k.pce ? k.pce->num_constraints : pk.n_constraints;
                if (m) check_len("a, b and c", p.num_constraints, m);
                pipeline::abc_partition ap;
                ap.a = scalars(p.a, p.num_constraints, pname + " a", fn);
                ap.b = scalars(p.b, p.num_constraints, pname + " b", fn);
                ap.c = scalars(p.c, p.num_constraints, pname + " c", fn);
                ap.inputs = std::move(in);
                ap.aux = std::move(ax);
                req.partitions.emplace_back(std::move(ap));
            } else {
                fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: partition {}: unknown kind {}", fn, i, p.kind));
            }
        }
        *out = submit_job(e, std::move(req), opt, fn);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_engine_device_count(uint32_t* out, const cuzk_engine* engine)
{
    static const char* fn = "cuzk_engine_device_count";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        *out = e.eng->device_count();
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_device_stats_get(cuzk_device_stats* out, const cuzk_engine* engine, uint32_t device)
{
    static const char* fn = "cuzk_device_stats_get";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        if (device >= e.eng->device_count())
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: no device {} (the engine has {})", fn, device, e.eng->device_count()));
        const pipeline::engine_stats s = e.eng->stats();
        cuzk_device_stats v{};
        v.struct_size = sizeof v;
        v.number = s.device_numbers[device];
        v.excluded = s.device_excluded[device];
        v.busy_ns = s.device_busy_ns[device];
        v.partitions = s.device_partitions[device];
        v.failures = s.device_failures[device];
        v.memory_reserved = s.device_memory_reserved[device];
        v.memory_peak = s.device_memory_peak[device];
        v.memory_high_water = s.device_memory_high_water[device];
        write_struct(out, v, sizeof(cuzk_device_stats), fn);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_engine_exclude_device(uint32_t* out_excluded, cuzk_engine* engine, uint32_t device,
                                                const char* reason)
{
    static const char* fn = "cuzk_engine_exclude_device";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        if (device >= e.eng->device_count())
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: no device {} (the engine has {})", fn, device, e.eng->device_count()));
        const bool did = e.eng->exclude_device(device, reason ? reason : "excluded by the host");
        if (out_excluded) *out_excluded = did ? 1 : 0;
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_engine_key_placement(uint32_t* out_placement, uint64_t* out_device_bytes,
                                               const cuzk_engine* engine, uint32_t key_id)
{
    static const char* fn = "cuzk_engine_key_placement";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        const auto p = e.eng->placement(key_id);
        const uint64_t bytes = e.eng->resident_bytes(key_id);
        if (out_placement)
            *out_placement = p == pipeline::engine::key_placement::resident   ? CUZK_KEY_RESIDENT
                             : p == pipeline::engine::key_placement::streamed ? CUZK_KEY_STREAMED
                                                                              : CUZK_KEY_ON_HOST;
        if (out_device_bytes) *out_device_bytes = bytes;
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_engine_remove_key(uint64_t* out_host_bytes, uint64_t* out_device_bytes, uint32_t* out_freed,
                                            cuzk_engine* engine, uint32_t key_id)
{
    static const char* fn = "cuzk_engine_remove_key";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        e.key(key_id, fn);   // a key of this engine, not removed
        const pipeline::key_removal r = e.eng->remove_key(key_id);
        {
            std::lock_guard lk(e.keys_mu);
            e.keys.erase(key_id);
        }
        if (out_host_bytes) *out_host_bytes = r.host_bytes;
        if (out_device_bytes) *out_device_bytes = r.device_bytes;
        if (out_freed) *out_freed = r.freed ? 1u : 0u;
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_engine_key_registration(double* out_layout_s, double* out_pce_s, double* out_points_s,
                                                  const cuzk_engine* engine, uint32_t key_id)
{
    static const char* fn = "cuzk_engine_key_registration";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        const pipeline::key_registration_timings t = e.eng->registration_timings(key_id);
        if (out_layout_s) *out_layout_s = t.layout_s;
        if (out_pce_s) *out_pce_s = t.pce_s;
        if (out_points_s) *out_points_s = t.points_s;
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_engine_stats_get(cuzk_engine_stats* out, const cuzk_engine* engine)
{
    static const char* fn = "cuzk_engine_stats_get";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        const pipeline::engine_stats s = e.eng->stats();
        cuzk_engine_stats v{};
        v.struct_size = sizeof v;
        v.jobs_submitted = s.jobs_submitted;
        v.jobs_completed = s.jobs_completed;
        v.jobs_failed = s.jobs_failed;
        v.jobs_cancelled = s.jobs_cancelled;
        v.jobs_live = s.jobs_live;
        v.partitions_proved = s.partitions_proved;
        v.memory_reserved = s.memory_reserved;
        v.memory_peak = s.memory_peak;
        v.uptime_ns = s.uptime_ns;
        v.device_calls = s.device_calls;
        write_struct(out, v, sizeof(cuzk_engine_stats), fn);
        return CUZK_OK;
    });
}

} // extern "C"
