// The engine's synthesis workers: each takes the next partition in the
// dispatch order once the host budget has room, builds its witness (and, by
// the key's kind, a, b, c or the packed witness the device evaluates),
// and queues it for a lookahead slot (engine_core.hpp).
#include "engine_core.hpp"

namespace cuzk::pipeline::detail {

namespace {

// Sizes of a witness against the key, and input 0.
void check_witness(const key_entry& k, std::span<const fr> inputs, std::span<const fr> aux,
                   const char* what)
{
    const groth16::proving_key& pk = *k.pk;
    if (inputs.size() != pk.num_inputs || aux.size() != pk.num_aux)
        throw error(errc::invalid_argument,
                    fmt::format("{} has {} inputs and {} aux, key {} expects {} and {}", what, inputs.size(),
                                aux.size(), k.name, pk.num_inputs, pk.num_aux));
    if (!inputs[0].is_one())
        throw error(errc::invalid_argument, fmt::format("{}: input 0 must be the constant one", what));
}

// A snarkjs key's full witness: its size and value 0 (either curve).
template <class F>
void check_full_witness(const key_entry& k, size_t n_vars, std::span<const F> w)
{
    if (w.size() != n_vars)
        throw error(errc::invalid_argument,
                    fmt::format("the witness has {} values, key {} expects {}", w.size(), k.name, n_vars));
    if (!w[0].is_one()) throw error(errc::invalid_argument, "the witness: value 0 must be the constant one");
}

// A witness_partition (BLS12-381's inputs and aux) joined into the full
// witness w; false for any other form, and for the other curve.
bool join_witness(partition& in, std::vector<fr>& w)
{
    auto* wp = std::get_if<witness_partition>(&in);
    if (!wp) return false;
    w = std::move(wp->inputs);
    w.insert(w.end(), wp->aux.begin(), wp->aux.end());
    wp->aux = {};
    return true;
}
template <class F>
bool join_witness(partition&, std::vector<F>&)
{
    return false;
}

// A span of the synthesis stage (device −1): begins now, ends with the scope.
class stage_span {
public:
    stage_span(engine_core* e, const char* name, const work_item& it, int32_t worker)
        : e_(e), name_(name), job_(it.job.get()), part_(int32_t(it.part)), worker_(worker)
    {
        e_->emit(timeline::phase::begin, name_, job_, part_, worker_, -1);
    }
    ~stage_span() { e_->emit(timeline::phase::end, name_, job_, part_, worker_, -1); }
    stage_span(const stage_span&) = delete;
    stage_span& operator=(const stage_span&) = delete;

private:
    engine_core* e_;
    const char* name_;
    const job_state* job_;
    int32_t part_, worker_;
};

} // namespace

std::unique_ptr<gpu_packed_witness> engine_core::take_packed()
{
    {
        std::lock_guard lk(mu);
        if (!packed_pool.empty()) {
            auto p = std::move(packed_pool.back());
            packed_pool.pop_back();
            pooled -= p->host_bytes();
            return p;
        }
    }
    return std::make_unique<gpu_packed_witness>();
}

void engine_core::give_packed(std::unique_ptr<gpu_packed_witness> p)
{
    if (!p) return;
    std::lock_guard lk(mu);
    if (!host_fits(p->host_bytes())) return;   // p is freed after the lock is released
    pooled += p->host_bytes();
    note_peak();
    packed_pool.push_back(std::move(p));
}

std::vector<fr> engine_core::take_aux(size_t n)
{
    std::lock_guard lk(mu);
    for (auto& v : aux_pool)
        if (v.size() == n) {
            std::vector<fr> r = std::move(v);
            v = std::move(aux_pool.back());
            aux_pool.pop_back();
            pooled -= r.size() * sizeof(fr);
            return r;
        }
    return {};
}

void engine_core::give_aux(std::vector<fr>& v)
{
    std::vector<fr> old = std::move(v);   // freed after the lock when not kept
    v = {};
    if (old.empty()) return;
    std::lock_guard lk(mu);
    const uint64_t bytes = old.size() * sizeof(fr);
    if (aux_pool.size() >= cfg.synth_workers || !host_fits(bytes)) return;
    pooled += bytes;
    note_peak();
    aux_pool.push_back(std::move(old));
}

// A host's array (borrowed): every value canonical in Montgomery form.
void engine_core::check_canonical(std::span<const fr> v, const char* what, unsigned threads) const
{
    std::atomic<size_t> bad{SIZE_MAX};
    parallel_for(threads, v.size(), [&](size_t i0, size_t i1, unsigned) {
        for (size_t i = i0; i < i1 && i < bad.load(std::memory_order_relaxed); ++i)
            if (!fr::is_canonical(v[i].mont())) {
                size_t cur = bad.load();
                while (i < cur && !bad.compare_exchange_weak(cur, i)) {
                }
                return;
            }
    });
    if (bad.load() != SIZE_MAX)
        throw error(errc::non_canonical, fmt::format("the borrowed {}[{}] is not a canonical scalar (>= r in "
                                                     "Montgomery form)",
                                                     what, bad.load()));
}

// The device evaluates a, b, c: aux is packed here, in the synthesis
// stage (a PACK span), and the owned vector given back or the host's
// arrays released. Without page-locked memory aux goes to the device as
// it is.
void engine_core::pack_aux(work_item& it, int32_t worker, unsigned th)
{
    it.device_eval = true;
    std::unique_ptr<gpu_packed_witness> pw = take_packed();
    emit(timeline::phase::begin, "PACK", it.job.get(), int32_t(it.part), worker, -1);
    const auto err = capture([&] { pw->pack(it.aux_span(), th); });
    emit(timeline::phase::end, "PACK", it.job.get(), int32_t(it.part), worker, -1,
         {{"others", std::to_string(err ? 0 : pw->others())}});
    if (err) return;
    it.packed = std::move(pw);
    give_aux(it.aux);
    it.drop_borrowed();
    stage_packed(it);
}

// Starts the packed witness's copy to a device now, from the synthesis
// stage (gpu_packed_witness::stage), so that it runs beside the kernels
// of the partitions before it and the device part's H2D is the
// expansion alone. The devices take turns; a partition proved on
// another device, or whose staging failed (the device short of memory),
// copies from the host in its device part as before.
void engine_core::stage_packed(work_item& it)
{
    const key_entry& k = *it.key;
    if (!it.packed || k.gpu.empty() || k.snarkjs) return;
    const size_t d = stage_turn.fetch_add(1, std::memory_order_relaxed) % k.gpu.size();
    try {
        it.packed->stage(*k.gpu[d]);
    } catch (const std::exception&) {
        // left to the device part's own copy
    }
}

// a, b, c = A·w, B·w, C·w on the host with the key's PCE (a PCE_EVAL
// span), and the satisfaction check.
void engine_core::evaluate(work_item& it, int32_t worker, unsigned th)
{
    const r1cs::pce& p = *it.key->pce;
    const stage_span pce_eval(this, "PCE_EVAL", it, worker);
    for (auto* v : {&it.a, &it.b, &it.c}) {
        v->reserve(it.key->pk->domain_size);   // room for the input rows and the NTT domain
        v->resize(p.num_constraints);
    }
    r1cs::evaluate(p, it.inputs, it.aux_span(), it.a, it.b, it.c, th);
    if (auto bad = r1cs::first_unsatisfied(it.a, it.b, it.c, th))
        throw error(errc::unsatisfied, fmt::format("constraint {} of {} is not satisfied by the witness (a·b != c)",
                                                   *bad, p.num_constraints));
}

// A snarkjs key's partition (key curve C): the whole witness over C's
// scalars (a BLS12-381 key also takes it as inputs and aux); A·w and B·w
// from the key's coefficients, on the cuda backend on the device.
template <class C>
void engine_core::synthesize_snarkjs(work_item& it, partition& in, int32_t worker)
{
    const key_entry& k = *it.key;
    const curve_key<C>& ck = k.as<C>();
    const groth16::proving_key_t<C>& pk = *ck.pk;
    snarkjs_vectors<C>& v = it.as<C>();
    scalars<C> w;
    if (auto* fw = std::get_if<full_witness_partition_t<C>>(&in))
        w = std::move(fw->w);
    else if (!join_witness(in, w))
        throw error(errc::invalid_argument,
                    fmt::format("key {} is a snarkjs key: partitions must be witnesses", k.name));
    check_full_witness<typename C::fr>(k, size_t(pk.num_inputs) + pk.num_aux, w);
    v.inputs.assign(w.begin(), w.begin() + pk.num_inputs);
    if (!ck.gpu.empty()) {   // gpu_prove_start_snarkjs evaluates A·w and B·w on the device
        v.w = std::move(w);
        return;
    }
    const stage_span pce_eval(this, "PCE_EVAL", it, worker);
    groth16::snarkjs_evaluate_ab(pk, w, v.a, v.b, cfg.synth_threads);
    v.w = std::move(w);
}

// a, b, c given: sizes against the key and the domain, and a·b = c.
void engine_core::check_abc(const work_item& it, unsigned th) const
{
    const key_entry& k = *it.key;
    const std::span<const fr> a = it.a_span(), b = it.b_span(), c = it.c_span();
    if (b.size() != a.size() || c.size() != a.size())
        throw error(errc::invalid_argument,
                    fmt::format("a, b, c have {}, {}, {} rows", a.size(), b.size(), c.size()));
    if (a.size() + k.pk->num_inputs > k.pk->domain_size)
        throw error(errc::invalid_argument,
                    fmt::format("{} rows plus {} input rows do not fit the key's domain of {}", a.size(),
                                k.pk->num_inputs, k.pk->domain_size));
    if (k.pce && a.size() != k.pce->num_constraints)
        throw error(errc::invalid_argument, fmt::format("a, b, c have {} rows, key {} has {} constraints",
                                                        a.size(), k.name, k.pce->num_constraints));
    if (auto bad = r1cs::first_unsatisfied(a, b, c, th))
        throw error(errc::unsatisfied, fmt::format("row {} of a, b, c is not satisfied (a·b != c)", *bad));
}

// The host's a, b, c: borrowed by the cuda device part, copied on the
// cpu backend (its NTTs work in place) and released.
void engine_core::take_borrowed_abc(work_item& it, borrowed_abc_partition& bp, unsigned th)
{
    it.inputs.assign(bp.inputs.begin(), bp.inputs.end());
    it.borrowed_aux = bp.aux;
    it.borrowed_a = bp.a;
    it.borrowed_b = bp.b;
    it.borrowed_c = bp.c;
    it.hold = std::move(bp.hold);
    it.borrowed = true;
    check_witness(*it.key, it.inputs, it.aux_span(), "the borrowed assignment");
    check_canonical(bp.inputs, "inputs", 1);
    for (auto [v, name] : {std::pair{bp.aux, "aux"}, {bp.a, "a"}, {bp.b, "b"}, {bp.c, "c"}})
        check_canonical(v, name, th);
    if (!it.key->gpu.empty()) return;
    it.aux.assign(bp.aux.begin(), bp.aux.end());
    it.a.assign(bp.a.begin(), bp.a.end());
    it.b.assign(bp.b.begin(), bp.b.end());
    it.c.assign(bp.c.begin(), bp.c.end());
    it.drop_borrowed();
}

// The witness of a bellperson-key partition, in it.inputs and it.aux
// (owned) or it.borrowed_aux (the host's); false for an abc form (a, b,
// c given, nothing to evaluate).
bool engine_core::take_witness(work_item& it, partition& in, unsigned th)
{
    const key_entry& k = *it.key;
    const groth16::proving_key& pk = *k.pk;
    if (auto* fw = std::get_if<full_witness_partition>(&in)) {
        if (fw->w.size() < pk.num_inputs)
            throw error(errc::invalid_argument, fmt::format("the witness has {} values, key {} has {} inputs",
                                                            fw->w.size(), k.name, pk.num_inputs));
        it.inputs.assign(fw->w.begin(), fw->w.begin() + pk.num_inputs);
        it.aux.assign(fw->w.begin() + pk.num_inputs, fw->w.end());
        fw->w = {};
    } else if (auto* cp = std::get_if<circuit_partition>(&in)) {
        // A circuit's own (parallel) witness path when it has one, on
        // the synthesis threads; otherwise synthesis on a witness_cs.
        it.aux = take_aux(pk.num_aux);
        if (!cp->circuit->witness(it.inputs, it.aux, th)) {
            r1cs::witness_cs cs;
            cs.reserve(pk.num_inputs, pk.num_aux);
            cp->circuit->synthesize(cs);
            it.inputs = cs.take_inputs();
            it.aux = cs.take_aux();
        }
    } else if (auto* wp = std::get_if<witness_partition>(&in)) {
        it.inputs = std::move(wp->inputs);
        it.aux = std::move(wp->aux);
    } else if (auto* bw = std::get_if<borrowed_witness_partition>(&in)) {
        it.inputs.assign(bw->inputs.begin(), bw->inputs.end());
        it.borrowed_aux = bw->aux;
        it.hold = std::move(bw->hold);
        it.borrowed = true;
        check_witness(k, it.inputs, it.aux_span(), "the borrowed witness");
        check_canonical(bw->inputs, "inputs", 1);
        check_canonical(bw->aux, "aux", th);
    } else if (auto* bp = std::get_if<borrowed_abc_partition>(&in)) {
        take_borrowed_abc(it, *bp, th);
        return false;
    } else {
        auto& ap = std::get<abc_partition>(in);
        it.inputs = std::move(ap.inputs);
        it.aux = std::move(ap.aux);
        it.a = std::move(ap.a);
        it.b = std::move(ap.b);
        it.c = std::move(ap.c);
        check_witness(k, it.inputs, it.aux, "the assignment");
        return false;
    }
    check_witness(k, it.inputs, it.aux_span(), "the witness");
    return true;
}

// A circuit with a sliced witness path (r1cs::circuit::witness_packed)
// fills a packed witness directly: no aux vector, no PACK pass. False
// (nothing taken) for other partitions and circuits without that path.
bool engine_core::synthesize_packed(work_item& it, partition& in, unsigned th)
{
    auto* cp = std::get_if<circuit_partition>(&in);
    if (!cp) return false;
    std::unique_ptr<gpu_packed_witness> pw = take_packed();
    bool done = false;
    try {
        done = cp->circuit->witness_packed(it.inputs, *pw, th);
    } catch (...) {
        give_packed(std::move(pw));
        throw;
    }
    if (!done) {
        give_packed(std::move(pw));
        return false;
    }
    const key_entry& k = *it.key;
    const groth16::proving_key& pk = *k.pk;
    if (it.inputs.size() != pk.num_inputs || pw->size() != pk.num_aux || !it.inputs[0].is_one()) {
        const size_t aux = pw->size();
        give_packed(std::move(pw));
        throw error(errc::invalid_argument,
                    fmt::format("the circuit's packed witness has {} inputs and {} aux (input 0 {}), key {} "
                                "expects {} and {} (input 0 one)",
                                it.inputs.size(), aux, it.inputs.empty() || !it.inputs[0].is_one() ? "not one" : "one",
                                k.name, pk.num_inputs, pk.num_aux));
    }
    it.device_eval = true;
    it.packed = std::move(pw);
    stage_packed(it);
    return true;
}

// The witness and a, b, c of one partition; throws on any problem.
void engine_core::synthesize(work_item& it, partition& in, int32_t worker)
{
    const key_entry& k = *it.key;
    const unsigned th = cfg.synth_threads;
    if (k.snarkjs)
        return with_curve(k.curve, [&](auto c) { synthesize_snarkjs<decltype(c)>(it, in, worker); });
    // The cuda backend evaluates witnesses of a key with a PCE on every
    // device; a PCE left on the host (a device too small) is evaluated here.
    if (k.device_eval && synthesize_packed(it, in, th)) return;
    if (!take_witness(it, in, th)) return check_abc(it, th);
    if (k.device_eval) pack_aux(it, worker, th);
    else evaluate(it, worker, th);
}

// Waits (mu held by lk) until the head of the dispatch order fits the host
// budget, a MEM_WAIT span open while it does not; false when the engine
// stops first. Pooled buffers given up for room go into `dropped`, to be
// freed once mu is released.
bool engine_core::wait_for_head(std::unique_lock<std::mutex>& lk, int32_t worker, dropped_buffers& dropped)
{
    std::shared_ptr<job_state> waiting;   // the head a MEM_WAIT span is open for
    uint32_t waiting_part = 0;
    auto end_wait = [&] {
        if (waiting) emit(timeline::phase::end, "MEM_WAIT", waiting.get(), int32_t(waiting_part), worker, -1);
    };
    while (!stopping) {
        if (!dispatch.empty()) {
            const auto& head = dispatch.begin()->second;
            const uint64_t need = head->key->partition_bytes;
            if (make_room(need, dropped)) break;
            if (waiting != head) {
                end_wait();
                waiting = head;
                waiting_part = head->next_dispatch;
                emit(timeline::phase::begin, "MEM_WAIT", head.get(), int32_t(waiting_part), worker, -1,
                     {{"bytes", std::to_string(need)}});
            }
        }
        cv_synth.wait(lk);
    }
    end_wait();
    return !stopping;
}

// The next partition of the dispatch order (mu held), its host bytes
// reserved; its input is moved into `input`.
std::unique_ptr<work_item> engine_core::take_head(partition& input)
{
    auto dit = dispatch.begin();
    std::shared_ptr<job_state> job = dit->second;
    auto item = std::make_unique<work_item>();
    item->job = job;
    item->key = job->key;
    item->part = job->next_dispatch++;
    input = std::move(job->inputs[item->part]);
    if (job->next_dispatch == job->n_parts) dispatch.erase(dit);
    item->reserved = job->key->partition_bytes;
    reserved += item->reserved;
    note_peak();
    job_status queued = job_status::queued;
    job->status.compare_exchange_strong(queued, job_status::running);
    return item;
}

// Synthesises one partition (without mu): its time in ms, or nothing when
// it failed (its job is failed here) or its job had ended already.
std::optional<double> engine_core::synthesize_item(work_item& item, partition& input, int32_t worker)
{
    const std::shared_ptr<job_state>& job = item.job;
    if (job->ending.load()) return std::nullopt;
    const uint64_t t_start = now_ns();
    emit(timeline::phase::instant, "SYNTH_START", job.get(), int32_t(item.part), worker, -1);
    const auto err = capture([&] { synthesize(item, input, worker); });
    if (!err) return ms(now_ns() - t_start);
    // The host's arrays are released before the job ends, so that a waiter
    // sees them free.
    item.drop_borrowed();
    input = partition{};
    item.key.reset();   // the key is not needed again: let the failed job's key go with it
    fail(job, item.part, *err);
    return std::nullopt;
}

// Waits (mu held by lk) for a lookahead slot; true when the partition may
// enter the lookahead, false when the engine stops or its job ends first.
// A free slot goes to the waiting partition first in the queue's order, not
// to whichever worker wakes first (which let later jobs' partitions pass
// one of an earlier job for 16 s on the H200).
bool engine_core::wait_for_slot(std::unique_lock<std::mutex>& lk, const order_key& key, const work_item& item,
                                int32_t worker, double synth_ms)
{
    const job_state& job = *item.job;
    slot_waiters.insert(key);
    // Emitted once the partition is in line for a slot, so that
    // SYNTH_END … CHAN_SEND is exactly its wait.
    emit(timeline::phase::instant, "SYNTH_END", &job, int32_t(item.part), worker, -1,
         {{"synth_ms", fmt::format("{:.3f}", synth_ms)}});
    cv_synth.wait(lk, [&] {
        return stopping || job.ending.load() || (lookahead.size() < lookahead_cap && *slot_waiters.begin() == key);
    });
    slot_waiters.erase(key);
    cv_synth.notify_all();   // the next waiter may have a slot too
    return !stopping && !job.ending.load();
}

void engine_core::synth_loop(int32_t worker)
{
    std::unique_lock lk(mu);
    for (;;) {
        dropped_buffers dropped;
        if (!wait_for_head(lk, worker, dropped)) return;
        partition input;
        std::unique_ptr<work_item> item = take_head(input);
        lk.unlock();
        dropped = {};
        const std::optional<double> synth_ms = synthesize_item(*item, input, worker);
        input = partition{};   // drop the host's copy (a circuit may hold its own data)
        lk.lock();
        const order_key key{-int64_t(item->job->priority), item->job->seq, item->part};
        if (!synth_ms || !wait_for_slot(lk, key, *item, worker, *synth_ms)) {
            release_locked(item->reserved);
            continue;
        }
        emit(timeline::phase::instant, "CHAN_SEND", item->job.get(), int32_t(item->part), worker, -1);
        lookahead.emplace(key, std::move(item));
        cv_prove.notify_one();
    }
}

} // namespace cuzk::pipeline::detail
