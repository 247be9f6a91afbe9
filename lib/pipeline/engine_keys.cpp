// engine::add_key and what a key must pass before the engine takes it: its
// counts against the circuit, the host and device memory budgets, and the
// device keys the cuda backend builds from it (engine_core.hpp).
#include <algorithm>
#include <limits>

#include "engine_core.hpp"

namespace cuzk::pipeline {

using detail::key_entry;
using detail::size_text;
using detail::variables;

namespace {

// Host bytes of a proving key's points and coefficients (either curve).
template <class C>
uint64_t key_host_bytes(const groth16::proving_key_t<C>& pk)
{
    const uint64_t g1 = pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size() + pk.vk.ic.size();
    return g1 * sizeof(typename C::g1_affine) + pk.b_g2.size() * sizeof(typename C::g2_affine) +
           pk.coefs.size() * sizeof(groth16::sparse_coef_t<C>);
}

// The device budget's checks for a new key (mu held); throws what add_key refuses.
void check_device_budget(const detail::engine_core& c, const key_entry& e)
{
    const uint64_t budget = c.cfg.device_memory_budget;
    if (budget == 0) return;
    // The resident keys must fit, and leave room for the device part of
    // every key whose jobs are admitted (those whose part fitted when
    // they were added): queued work must never become impossible.
    // A key whose own part does not fit is registered; submit() refuses
    // its jobs.
    const uint64_t resident = c.resident_total + e.resident_bytes;
    if (resident > budget)
        throw error(errc::out_of_memory,
                    fmt::format("add_key {}: the device memory budget of {} cannot hold the resident keys ({} with "
                                "this one)",
                                e.name, size_text(budget), size_text(resident)));
    if (c.max_device_bytes > budget - resident)
        throw error(errc::out_of_memory,
                    fmt::format("add_key {}: with this key resident ({}) the device memory budget of {} no longer "
                                "has room for a device part of {} of an earlier key",
                                e.name, size_text(e.resident_bytes), size_text(budget),
                                size_text(c.max_device_bytes)));
}

// The same for the host budget: the registered keys (and the backend's
// page-locked staging) must fit and leave room for a partition of every key
// whose jobs are admitted.
void check_host_budget(const detail::engine_core& c, const key_entry& e)
{
    const uint64_t budget = c.cfg.host_memory_budget;
    if (budget == 0) return;
    const uint64_t resident = c.resident_host + e.host_bytes;
    if (resident > budget)
        throw error(errc::out_of_memory,
                    fmt::format("add_key {}: the host memory budget of {} cannot hold the registered keys ({} with "
                                "this one)",
                                e.name, size_text(budget), size_text(resident)));
    if (c.max_partition_bytes > budget - resident)
        throw error(errc::out_of_memory,
                    fmt::format("add_key {}: with this key ({} of host memory) the host memory budget of {} no "
                                "longer has room for a partition of {} of an earlier key",
                                e.name, size_text(e.host_bytes), size_text(budget),
                                size_text(c.max_partition_bytes)));
}

// The sizes add_key checks in a bellperson key: a proving key's vectors, or
// a mapped .params file's counts (domain |h| + 1, inputs |ic|, aux |l|).
struct bellperson_counts {
    uint64_t n = 0;
    size_t ni = 0, na = 0;
    size_t h = 0, l = 0, ic = 0, a = 0, b1 = 0, b2 = 0;
};

bellperson_counts counts_of(const groth16::proving_key& pk)
{
    return {pk.domain_size, pk.num_inputs, pk.num_aux, pk.h.size(), pk.l.size(), pk.vk.ic.size(),
            pk.a.size(),    pk.b_g1.size(), pk.b_g2.size()};
}

bellperson_counts counts_of(const io::mapped_params& mp)
{
    using q = io::params_query;
    const size_t ic = mp.vk().ic.size(), l = mp.count(q::l);
    return {uint64_t(mp.count(q::h)) + 1, ic, l, mp.count(q::h), l, ic, mp.count(q::a), mp.count(q::b_g1),
            mp.count(q::b_g2)};
}

// add_key's checks of a bellperson key against its density and PCE; throws
// errc::invalid_argument naming the mismatch.
void check_bellperson(const std::string& nm, const bellperson_counts& k, const groth16::query_density& density,
                      const r1cs::pce* pce)
{
    const uint64_t n = k.n;
    if (n == 0 || (n & (n - 1)) != 0 || k.h + 1 != n || k.l != k.na || k.ic != k.ni || k.ni == 0)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: inconsistent key (domain {}, {} H points, {} L points for {} aux, {} IC "
                                "points for {} inputs)",
                                nm, n, k.h, k.l, k.na, k.ic, k.ni));
    if (density.a_aux.size() != k.na || density.b_aux.size() != k.na || density.b_input.size() != k.ni)
        throw error(errc::invalid_argument, fmt::format("add_key {}: density bitmaps do not match the key's {} inputs "
                                                        "and {} aux", nm, k.ni, k.na));
    const size_t na = k.ni + size_t(std::count(density.a_aux.begin(), density.a_aux.end(), true));
    const size_t nb = size_t(std::count(density.b_input.begin(), density.b_input.end(), true)) +
                      size_t(std::count(density.b_aux.begin(), density.b_aux.end(), true));
    if (na != k.a || nb != k.b1 || nb != k.b2)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: the density selects {} A and {} B points, the key has {}, {} and {}", nm,
                                na, nb, k.a, k.b1, k.b2));
    if (!pce) return;
    if (pce->num_inputs != k.ni || pce->num_aux != k.na)
        throw error(errc::invalid_argument, fmt::format("add_key {}: the PCE has {} inputs and {} aux, the key {} and {}",
                                                        nm, pce->num_inputs, pce->num_aux, k.ni, k.na));
    if (pce->num_constraints + k.ni > n)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: {} constraints plus {} input rows do not fit the domain of {}", nm,
                                pce->num_constraints, k.ni, n));
}

// One device key per engine device, made by make(d) on a thread per device;
// the first error is rethrown naming its CUDA device.
template <class Key, class Make>
std::vector<std::shared_ptr<const Key>> per_device(const std::vector<int>& numbers, Make make)
{
    std::vector<std::shared_ptr<const Key>> keys(numbers.size());
    std::vector<std::exception_ptr> errs(numbers.size());
    std::vector<std::thread> th;
    for (size_t d = 0; d < numbers.size(); ++d)
        th.emplace_back([&, d] {
            try {
                keys[d] = make(d);
            } catch (...) {
                errs[d] = std::current_exception();
            }
        });
    for (auto& t : th) t.join();
    for (size_t d = 0; d < numbers.size(); ++d)
        if (errs[d]) {
            try {
                std::rethrow_exception(errs[d]);
            } catch (const error& e) {
                throw error(e.code(), fmt::format("add_key: CUDA device {}: {}", numbers[d], e.what()));
            }
        }
    return keys;
}

// The key uploaded to each device, from host memory or decoded from the
// mapped .params file (params not null; each device decodes on its share of
// the cores).
std::vector<std::shared_ptr<const gpu_key>> make_device_keys(const std::vector<int>& numbers,
                                                             const std::shared_ptr<const groth16::proving_key>& pk,
                                                             const std::shared_ptr<const io::mapped_params>& params,
                                                             const groth16::query_density& density,
                                                             const std::shared_ptr<const r1cs::pce>& pce,
                                                             const gpu_key_options& base)
{
    const unsigned decode_threads = std::max(1u, resolve_threads(0) / unsigned(std::max<size_t>(numbers.size(), 1)));
    return per_device<gpu_key>(numbers, [&](size_t d) {
        gpu_key_options go = base;
        go.device = numbers[d];
        go.decode_threads = decode_threads;
        return params ? std::make_shared<const gpu_key>(params, density, pce, go)
                      : std::make_shared<const gpu_key>(pk, density, pce, go);
    });
}

// A BN254 key uploaded to each device: its gpu_key_t works on the device
// current when it is made.
std::vector<std::shared_ptr<const gpu_key_t<bn254_curve>>>
make_device_keys(const std::vector<int>& numbers, const std::shared_ptr<const groth16::proving_key_t<bn254_curve>>& pk)
{
    return per_device<gpu_key_t<bn254_curve>>(numbers, [&](size_t d) {
        const cuda_device_scope scope(numbers[d]);
        return std::make_shared<const gpu_key_t<bn254_curve>>(pk);
    });
}

key_id admit_key(detail::engine_core& c, std::shared_ptr<key_entry> e, const void* key_ptr, uint64_t key_bytes);

// cuda: a streamed key with a PCE proves its partitions in batches as large
// as every device's plan allows (device_plan.hpp; engine_config::max_batch
// caps it); a device call then reserves the plan's bytes for a whole batch:
// one prove's buffers, the MSMs' room and a slot per further partition.
// The lookahead grows to a batch, so that one can form.
// A streamed key of one partition a call (its PCE on the host, or no room
// for a second) reserves the plan's bytes too, not the prover's estimate of
// a resident key's MSMs.
void plan_batches(detail::engine_core& c, key_entry& e)
{
    unsigned batch = c.cfg.max_batch ? c.cfg.max_batch : std::numeric_limits<unsigned>::max();
    uint64_t call_bytes = 0;
    for (const auto& g : e.gpu) {
        if (g->resident()) return;
        const gpu_plan p = g->plan();
        if (!p.fits) return;
        batch = std::min(batch, p.batch);   // 1 where the PCE stays on the host
        call_bytes = std::max(call_bytes, p.one_prove + p.msm_room);
    }
    if (e.gpu.empty()) return;
    e.device_bytes = call_bytes;
    if (batch < 2) return;
    e.batch = batch;
    e.batch_slot = e.gpu.front()->batch_slot_bytes();
    e.device_bytes = call_bytes + (batch - 1) * e.batch_slot;
    std::lock_guard lk(c.mu);
    c.lookahead_cap = std::max(c.lookahead_cap, batch);
}

// The part of add_key common to both conventions: the estimates, the cuda
// backend's resident key, the memory budgets, the key table. With params
// (cuda backend only), pk is the mapping's key shell and the device keys
// decode the points from the file.
key_id register_key(detail::engine_core& c, std::shared_ptr<key_entry> e,
                    std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                    groth16::query_density density, const key_options& opt,
                    const std::shared_ptr<const io::mapped_params>& params = nullptr)
{
    // One registration at a time: the budget checks below stay true while
    // add_key waits for host memory.
    std::lock_guard reg(c.add_key_mu);
    if (e->name.empty()) e->name = fmt::format("#{}", c.keys_size());
    e->pvk = groth16::prepare_verifying_key(pk->vk);
    const uint64_t budget = c.cfg.device_memory_budget;
    if (c.cfg.backend == engine_backend::cuda) {
        gpu_key_options go;
        go.h_copies_budget = opt.h_copies_bytes;
        go.device_decode = !opt.host_decode;
        go.force_streaming = opt.force_streaming;
        go.stream_chunk_points = size_t(opt.stream_chunk_bytes / 192);   // G2 affine points of BLS12-381
        if (budget != 0) {
            std::lock_guard lk(c.mu);
            const uint64_t used = c.resident_total;
            go.device_budget = used < budget ? budget - used : 1;
        }
        e->gpu = make_device_keys(c.numbers, pk, params, density, pce, go);
        // Every device is charged the largest of its keys' sizes.
        for (const auto& g : e->gpu) {
            e->resident_bytes = std::max(e->resident_bytes, g->device_bytes());
            e->device_bytes = std::max(e->device_bytes, opt.device_bytes ? opt.device_bytes : g->prove_scratch_bytes());
        }
        if (!opt.device_bytes) plan_batches(c, *e);
        e->device_eval = !e->gpu.empty() &&
                         std::all_of(e->gpu.begin(), e->gpu.end(), [](const auto& g) { return g->has_pce(); });
        // The host's share of a partition: a, b, c too where the devices do not evaluate them.
        const bool host_abc = pk->conv != groth16::convention::snarkjs && !e->device_eval;
        e->partition_bytes = opt.partition_bytes ? opt.partition_bytes : partition_bytes_estimate_cuda(*pk, host_abc);
    } else {
        e->partition_bytes = opt.partition_bytes ? opt.partition_bytes : partition_bytes_estimate(*pk);
        e->device_bytes = opt.device_bytes ? opt.device_bytes : device_bytes_estimate(*pk);
        // The cpu backend batches only when asked (max_batch): the modelled
        // device holds each partition's device part of the batch.
        if (c.cfg.max_batch > 1 && pk->conv != groth16::convention::snarkjs) {
            e->batch = c.cfg.max_batch;
            e->batch_slot = e->device_bytes;
            e->device_bytes *= c.cfg.max_batch;
            std::lock_guard lk(c.mu);
            c.lookahead_cap = std::max(c.lookahead_cap, e->batch);
        }
    }
    e->pk = std::move(pk);
    e->pce = std::move(pce);
    e->density = std::move(density);
    const void* key_ptr = e->pk.get();
    const uint64_t key_bytes = key_host_bytes(*e->pk);
    return admit_key(c, std::move(e), key_ptr, key_bytes);
}

// add_key for a BN254 key: the estimates, the cuda backend's device keys
// (resident: the points, and the proof scratch that gpu_key_t<bn254_curve>
// keeps after its first proof, 32·(3n + v) bytes), the memory budgets, the
// table.
key_id register_key(detail::engine_core& c, std::shared_ptr<key_entry> e,
                    std::shared_ptr<const groth16::proving_key_t<bn254_curve>> pk, const key_options& opt)
{
    std::lock_guard reg(c.add_key_mu);
    if (e->name.empty()) e->name = fmt::format("#{}", c.keys_size());
    detail::curve_key<bn254_curve>& b = *e->bn;
    b.pvk = groth16::prepare_verifying_key(pk->vk);
    e->partition_bytes = opt.partition_bytes ? opt.partition_bytes : partition_bytes_estimate(*pk);
    e->device_bytes = opt.device_bytes ? opt.device_bytes : device_bytes_estimate(*pk);
    if (c.cfg.backend == engine_backend::cuda) {
        b.gpu = make_device_keys(c.numbers, pk);
        const uint64_t scratch = 32 * (3 * pk->domain_size + variables(*pk));
        for (const auto& g : b.gpu) e->resident_bytes = std::max(e->resident_bytes, g->device_bytes() + scratch);
    }
    const void* key_ptr = pk.get();
    const uint64_t key_bytes = key_host_bytes(*pk);
    b.pk = std::move(pk);
    return admit_key(c, std::move(e), key_ptr, key_bytes);
}

// The rest of add_key (add_key_mu held): the host bytes of the key's points
// (key_ptr, key_bytes), its PCE and its device keys' host memory, the budget
// checks, the wait for room, the key table.
key_id admit_key(detail::engine_core& c, std::shared_ptr<key_entry> e, const void* key_ptr, uint64_t key_bytes)
{
    const uint64_t budget = c.cfg.device_memory_budget;
    detail::engine_core::dropped_buffers dropped;   // freed after mu is released
    std::unique_lock lk(c.mu);
    // Host memory: the key's points and coefficients and its PCE, each
    // counted once however many keys share them, and what a cuda key holds
    // on the host besides.
    e->own_host_bytes = 0;
    for (const auto& g : e->gpu) e->own_host_bytes += g->host_bytes();
    e->shared = {key_ptr};
    if (e->pce) e->shared.push_back(e->pce.get());
    // The key's bytes with those of the shared objects no registered key
    // holds yet (recounted while add_key waits: a key removed meanwhile may
    // have been their last holder).
    const auto host_bytes_now = [&] {
        uint64_t b = e->own_host_bytes;
        if (!c.counted.count(key_ptr)) b += key_bytes;
        if (e->pce && !c.counted.count(e->pce.get())) b += e->pce->memory_bytes();
        return b;
    };
    e->host_bytes = host_bytes_now();
    check_device_budget(c, *e);
    check_host_budget(c, *e);
    const uint64_t hbudget = c.cfg.host_memory_budget;
    if (hbudget != 0) {
        // Partitions in flight may hold the room for now: wait for them
        // (admission leaves what is waiting here alone).
        c.key_waiting += e->host_bytes;
        c.cv_synth.wait(lk, [&] {
            c.key_waiting -= e->host_bytes;
            e->host_bytes = host_bytes_now();
            const bool ok = c.stopping || c.make_room(e->host_bytes, dropped);
            c.key_waiting += e->host_bytes;
            return ok;
        });
        c.key_waiting -= e->host_bytes;
        if (c.stopping) throw error(errc::cancelled, fmt::format("add_key {}: the engine is shutting down", e->name));
        if (e->partition_bytes <= hbudget - c.resident_host - e->host_bytes)
            c.max_partition_bytes = std::max(c.max_partition_bytes, e->partition_bytes);
    } else {
        e->host_bytes = host_bytes_now();
    }
    if (budget != 0 && e->device_bytes <= budget - c.resident_total - e->resident_bytes)
        c.max_device_bytes = std::max(c.max_device_bytes, e->device_bytes);
    for (const void* p : e->shared) {
        auto [it, fresh] = c.counted.try_emplace(p);
        if (fresh) it->second.bytes = p == key_ptr ? key_bytes : e->pce->memory_bytes();
        ++it->second.users;
    }
    c.resident_host += e->host_bytes;
    c.note_peak();
    c.resident_total += e->resident_bytes;
    for (auto& r : c.dev_reserved) r += e->resident_bytes;
    for (size_t d = 0; d < c.dev_peak.size(); ++d) c.dev_peak[d] = std::max(c.dev_peak[d], c.dev_reserved[d]);
    e->id = key_id(c.keys.size());
    e->admitted = true;
    c.keys.push_back(std::move(e));
    return c.keys.back()->id;
}

} // namespace

key_id engine::add_key(std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                       const key_options& opt)
{
    if (pk && pk->conv == groth16::convention::snarkjs)   // no density: the key's points are per signal
        return add_key(std::move(pk), std::move(pce), groth16::query_density{}, opt);
    if (!pce) throw error(errc::invalid_argument, "add_key: without a PCE the query density must be given");
    groth16::query_density d = groth16::density_of(*pce);
    return add_key(std::move(pk), std::move(pce), std::move(d), opt);
}

namespace {

// add_key's checks of a snarkjs-convention key (either curve): the point
// sections against the domain and the signal counts, the coefficients in
// range; errc::invalid_argument naming the mismatch.
template <class C>
void check_snarkjs_key(const std::string& nm, const groth16::proving_key_t<C>& pk)
{
    const uint64_t n = pk.domain_size, n_vars = variables(pk);
    if (n == 0 || (n & (n - 1)) != 0 || pk.h.size() != n || pk.l.size() != pk.num_aux || pk.a.size() != n_vars ||
        pk.b_g1.size() != n_vars || pk.b_g2.size() != n_vars || pk.vk.ic.size() != pk.num_inputs ||
        pk.num_inputs == 0)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: inconsistent snarkjs key (domain {}, {} H points, {} L points for {} "
                                "private signals, {}/{}/{} A/B1/B2 points for {} signals, {} IC points for {} "
                                "inputs)",
                                nm, n, pk.h.size(), pk.l.size(), pk.num_aux, pk.a.size(), pk.b_g1.size(),
                                pk.b_g2.size(), n_vars, pk.vk.ic.size(), pk.num_inputs));
    for (const groth16::sparse_coef_t<C>& c : pk.coefs)
        if (c.constraint >= n || c.signal >= n_vars || c.matrix > 1)
            throw error(errc::invalid_argument,
                        fmt::format("add_key {}: coefficient (matrix {}, constraint {}, signal {}) out of range", nm,
                                    c.matrix, c.constraint, c.signal));
}

} // namespace

key_id engine::add_key(std::shared_ptr<const groth16::proving_key_t<bn254_curve>> pk, const key_options& opt)
{
    if (!pk) throw error(errc::invalid_argument, "add_key: no proving key");
    if (pk->conv != groth16::convention::snarkjs)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: a BN254 key must follow the snarkjs convention", opt.name));
    check_snarkjs_key(opt.name, *pk);
    auto e = detail::new_key_entry(p_);
    e->name = opt.name;
    e->curve = curve_id::bn254;
    e->snarkjs = true;
    e->bn = std::make_unique<detail::curve_key<bn254_curve>>();
    return register_key(*p_, std::move(e), std::move(pk), opt);
}

key_id engine::add_key(std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                       groth16::query_density density, const key_options& opt)
{
    if (!pk) throw error(errc::invalid_argument, "add_key: no proving key");
    auto e = detail::new_key_entry(p_);
    e->name = opt.name;
    const std::string& nm = e->name;
    if (pk->conv == groth16::convention::snarkjs) {
        e->snarkjs = true;
        if (pce)
            throw error(errc::invalid_argument,
                        fmt::format("add_key {}: a snarkjs key takes no PCE (pass nullptr)", nm));
        check_snarkjs_key(nm, *pk);
        return register_key(*p_, std::move(e), std::move(pk), nullptr, std::move(density), opt);
    }
    if (pk->conv != groth16::convention::bellperson)
        throw error(errc::unsupported, fmt::format("add_key {}: unknown key convention", nm));
    check_bellperson(nm, counts_of(*pk), density, pce.get());
    return register_key(*p_, std::move(e), std::move(pk), std::move(pce), std::move(density), opt);
}

key_id engine::add_key(std::shared_ptr<const io::mapped_params> params, std::shared_ptr<const r1cs::pce> pce,
                       const key_options& opt)
{
    if (!pce) throw error(errc::invalid_argument, "add_key: without a PCE the query density must be given");
    groth16::query_density d = groth16::density_of(*pce);
    return add_key(std::move(params), std::move(pce), std::move(d), opt);
}

key_id engine::add_key(std::shared_ptr<const io::mapped_params> params, std::shared_ptr<const r1cs::pce> pce,
                       groth16::query_density density, const key_options& opt)
{
    if (!params) throw error(errc::invalid_argument, "add_key: no mapped parameters");
    // Checked on the file's counts first: a mismatched key is refused before
    // any point is decoded.
    check_bellperson(opt.name, counts_of(*params), density, pce.get());
    if (cfg_.backend != engine_backend::cuda) {
        // The CPU prover reads every point from host memory: decode the whole key.
        auto pk = std::make_shared<const groth16::proving_key>(params->to_proving_key());
        return add_key(std::move(pk), std::move(pce), std::move(density), opt);
    }
    auto e = detail::new_key_entry(p_);
    e->name = opt.name;
    auto shell = std::make_shared<const groth16::proving_key>(params->key_shell());
    return register_key(*p_, std::move(e), std::move(shell), std::move(pce), std::move(density), opt, params);
}

namespace {

// f(entry) of key k under the engine's lock; errc::invalid_argument naming
// the accessor for an unknown or removed id.
template <class F>
auto with_key(const detail::engine_core& c, key_id k, const char* what, F&& f)
{
    std::lock_guard lk(c.mu);
    return f(*c.live_key_locked(k, what));
}

} // namespace

curve_id engine::key_curve(key_id k) const
{
    return with_key(*p_, k, "key_curve", [](const key_entry& e) { return e.curve; });
}

uint64_t engine::partition_bytes(key_id k) const
{
    return with_key(*p_, k, "partition_bytes", [](const key_entry& e) { return e.partition_bytes; });
}

uint64_t engine::host_bytes(key_id k) const
{
    return with_key(*p_, k, "host_bytes", [](const key_entry& e) { return e.host_bytes; });
}

uint64_t engine::device_bytes(key_id k) const
{
    return with_key(*p_, k, "device_bytes", [](const key_entry& e) { return e.device_bytes; });
}

engine::key_placement engine::placement(key_id k) const
{
    const bool cuda = p_->cfg.backend == engine_backend::cuda;
    return with_key(*p_, k, "placement", [&](const key_entry& e) {
        if (!cuda) return key_placement::host;
        for (const auto& g : e.gpu)
            if (!g->resident()) return key_placement::streamed;
        return key_placement::resident;   // BN254 keys are always resident
    });
}

std::vector<gpu_plan> engine::plans(key_id k) const
{
    return with_key(*p_, k, "plans", [](const key_entry& e) {
        std::vector<gpu_plan> out;
        for (const auto& g : e.gpu) {
            out.push_back(g->plan());
            out.back().batch = e.batch;
        }
        return out;
    });
}

unsigned engine::batch(key_id k) const
{
    return with_key(*p_, k, "batch", [](const key_entry& e) { return e.batch; });
}

uint64_t engine::streamed_bytes(key_id k) const
{
    return with_key(*p_, k, "streamed_bytes", [](const key_entry& e) {
        uint64_t s = 0;
        for (const auto& g : e.gpu) s += g->streamed_bytes();
        return s;
    });
}

uint64_t engine::resident_bytes(key_id k) const
{
    return with_key(*p_, k, "resident_bytes", [](const key_entry& e) { return e.resident_bytes; });
}

key_registration_timings engine::registration_timings(key_id k) const
{
    return with_key(*p_, k, "registration_timings", [](const key_entry& e) {
        key_registration_timings t;
        for (const auto& g : e.gpu) {
            const gpu_key_timings d = g->timings();
            t.layout_s = std::max(t.layout_s, d.layout_s);
            t.pce_s = std::max(t.pce_s, d.pce_s);
            t.points_s = std::max(t.points_s, d.points_s);
        }
        return t;
    });
}

key_removal engine::remove_key(key_id k)
{
    detail::engine_core& c = *p_;
    std::shared_ptr<const key_entry> e;
    key_removal out;
    bool sole = false;
    {
        std::lock_guard lk(c.mu);
        e = c.live_key_locked(k, "remove_key");
        c.keys[k] = nullptr;
        c.removed_names.emplace(k, e->name);
        // The shared objects (points, PCE) whose last registered holder this was.
        uint64_t host = e->own_host_bytes;
        for (const void* p : e->shared) {
            const auto it = c.counted.find(p);
            if (it == c.counted.end() || --it->second.users != 0) continue;
            host += it->second.bytes;
            c.counted.erase(it);
        }
        out.host_bytes = host;
        out.device_bytes = e->resident_bytes;
        for (const auto& [id, j] : c.live)
            if (j->key == e) ++out.jobs;
        c.retiring[k] = {host, e->resident_bytes};
        // Every other holder copied its reference from the table or from a
        // holder, under mu: with none left now, none can appear.
        sole = e.use_count() == 1;
        c.emit(timeline::phase::instant, "KEY_REMOVE", nullptr, -1, -1, -1,
               {{"key", e->name}, {"jobs", std::to_string(out.jobs)}});
    }
    if (!sole) return out;
    e.reset();   // frees what the engine held of the key, here
    {
        std::lock_guard lk(c.mu);
        c.give_back_locked(k);
    }
    c.cv_synth.notify_all();
    c.cv_devmem.notify_all();
    out.freed = true;
    return out;
}

} // namespace cuzk::pipeline

namespace cuzk::pipeline::detail {

std::shared_ptr<key_entry> new_key_entry(const std::shared_ptr<engine_core>& core)
{
    std::weak_ptr<engine_core> w = core;
    return std::shared_ptr<key_entry>(new key_entry, [w](const key_entry* e) {
        const bool tell = e->admitted;
        const key_id id = e->id;
        delete e;
        if (!tell) return;
        if (const std::shared_ptr<engine_core> c = w.lock()) c->key_freed(id);
    });
}

void engine_core::key_freed(key_id id) noexcept
{
    try {
        std::lock_guard lk(reap_mu);
        reaped.push_back(id);
    } catch (...) {   // out of memory: the bytes stay counted
        return;
    }
    reap_cv.notify_one();
}

void engine_core::reap_loop()
{
    std::unique_lock rl(reap_mu);
    for (;;) {
        reap_cv.wait(rl, [&] { return reap_stop || !reaped.empty(); });
        if (reap_stop) return;
        std::vector<key_id> ids = std::move(reaped);
        reaped.clear();
        rl.unlock();
        bool any = false;
        {
            std::lock_guard lk(mu);
            for (key_id id : ids) any |= give_back_locked(id);
        }
        if (any) {
            cv_synth.notify_all();
            cv_devmem.notify_all();
        }
        rl.lock();
    }
}

bool engine_core::give_back_locked(key_id id)
{
    const auto it = retiring.find(id);
    if (it == retiring.end()) return false;
    const retiring_key r = it->second;
    retiring.erase(it);
    resident_host -= r.host;
    resident_total -= r.device;
    for (auto& d : dev_reserved) d -= r.device;
    // The room kept for the largest partition and device part, and the
    // lookahead's size, follow the keys that are left (a key whose part did
    // not fit before may fit now).
    max_partition_bytes = max_device_bytes = 0;
    lookahead_cap = cfg.lookahead;
    for (const auto& e : keys) {
        if (!e) continue;
        if (cfg.host_memory_budget != 0 && resident_host <= cfg.host_memory_budget &&
            e->partition_bytes <= cfg.host_memory_budget - resident_host)
            max_partition_bytes = std::max(max_partition_bytes, e->partition_bytes);
        if (cfg.device_memory_budget != 0 && resident_total <= cfg.device_memory_budget &&
            e->device_bytes <= cfg.device_memory_budget - resident_total)
            max_device_bytes = std::max(max_device_bytes, e->device_bytes);
        if (e->batch > 1) lookahead_cap = std::max(lookahead_cap, e->batch);
    }
    emit(timeline::phase::instant, "KEY_FREED", nullptr, -1, -1, -1,
         {{"key", removed_names[id]}, {"host_bytes", std::to_string(r.host)},
          {"device_bytes", std::to_string(r.device)}});
    return true;
}

const std::shared_ptr<const key_entry>& engine_core::live_key_locked(key_id k, std::string_view what) const
{
    if (k >= keys.size()) throw error(errc::invalid_argument, fmt::format("{}: no key {}", what, k));
    if (!keys[k]) {
        const auto it = removed_names.find(k);
        throw error(errc::invalid_argument, fmt::format("{}: key {} ({}) was removed", what, k,
                                                        it == removed_names.end() ? "" : it->second));
    }
    return keys[k];
}

} // namespace cuzk::pipeline::detail
