// cuzk C ABI — internal: the objects behind the handles (keys, PCEs,
// recorders, timeline buffers, engines, jobs) and the small helpers several
// area files share. Not installed.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>

#include "registry.hpp"

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/post/post.hpp"
#include "cuzk/filecoin/update/update.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_builder.hpp"
#include "cuzk/timeline/async_sink.hpp"
#include "cuzk/timeline/sinks.hpp"

namespace cuzk::capi {

// ---- keys (keys.cpp, porep.cpp, post.cpp, update.cpp) ------------------------------------------------------------
// A key's Groth16 objects over one curve C: its proving key (null for a
// verifying key only; the shell, vk and sizes without points, of a mapped
// key), its verifying key, and the prepared verifying key, made on first use
// (thread-safe).
template <class C>
struct curve_part {
    std::shared_ptr<const groth16::proving_key_t<C>> pk;
    groth16::verifying_key_t<C> vk;
    const groth16::prepared_verifying_key_t<C>& prepared()
    {
        std::call_once(pvk_once, [&] {
            pvk = std::make_unique<groth16::prepared_verifying_key_t<C>>(groth16::prepare_verifying_key(vk));
        });
        return *pvk;
    }

private:
    std::once_flag pvk_once;
    std::unique_ptr<groth16::prepared_verifying_key_t<C>> pvk;
};

// A key handle's object. Its own curve_part (pk, vk, prepared()) is
// BLS12-381's, with the BLS12-381 members below; a BN254 key (a bn128
// .zkey) has its curve_part in bn, and every BLS12-381 member is empty for
// it, so each entry point branches on `curve` first (as<C>() picks the part).
struct key_obj final : object, curve_part<bls12_381_curve> {
    static constexpr kind static_kind = kind::key;
    kind get_kind() const noexcept override { return static_kind; }

    // A .params key kept mapped (cuzk_key_load_params, cuzk_porep_key_load):
    // its points are decoded where they are needed, into a cuda engine's
    // device memory chunk by chunk, or whole (points()) for a cpu engine or
    // a host call, once.
    std::shared_ptr<const io::mapped_params> params;
    unsigned decode_threads = 0;
    groth16::convention conv = groth16::convention::bellperson;
    std::optional<groth16::query_density> density;    // known for dev-setup bellperson keys and PoRep keys
    std::shared_ptr<const r1cs::pce> own_pce;         // the key's own circuit (PoRep keys)
    std::optional<filecoin::seal_config> porep;       // the PoRep shape of a PoRep key
    std::optional<filecoin::post_config> post;        // the PoSt proof type of a PoSt key
    std::optional<filecoin::update_config> update;    // the update proof type of an update key

    curve_id curve = curve_id::bls12_381;
    curve_part<bn254_curve> bn;   // a BN254 key's
    template <class C>
    curve_part<C>& as()
    {
        if constexpr (std::is_same_v<C, bls12_381_curve>) return *this;
        else return bn;
    }

    // The proving key with its points: pk, or a mapped key decoded on first
    // use (thread-safe; later calls share it).
    std::shared_ptr<const groth16::proving_key> points();
    // Registers the key on eng (bellperson keys with density d when given,
    // snarkjs keys with d and p null): a mapped key from its mapping on a
    // cuda engine, otherwise points().
    pipeline::key_id add_to(pipeline::engine& eng, std::shared_ptr<const r1cs::pce> p,
                            const groth16::query_density* d, const pipeline::key_options& ko);

    std::mutex points_mu;
    std::shared_ptr<const groth16::proving_key> decoded;
};

// New handles of keys (keys.cpp).
cuzk_key* new_key(groth16::proving_key pk, std::optional<groth16::query_density> d = std::nullopt);
cuzk_key* new_key(std::shared_ptr<key_obj> k);
cuzk_key* new_vk_key(groth16::verifying_key vk);
// A BN254 key (snarkjs convention).
cuzk_key* new_bn254_key(groth16::proving_key_t<bn254_curve> pk);
// A .params key kept mapped (points decoded on demand with `threads` threads).
cuzk_key* new_mapped_key(std::shared_ptr<const io::mapped_params> mp, unsigned threads);

// ---- PCE and recorder (circuits.cpp) -------------------------------------------------------
struct pce_obj final : object {
    static constexpr kind static_kind = kind::pce;
    kind get_kind() const noexcept override { return static_kind; }
    std::shared_ptr<const r1cs::pce> p;
};

cuzk_pce* new_pce(r1cs::pce p);

struct recorder_obj final : object {
    static constexpr kind static_kind = kind::recorder;
    kind get_kind() const noexcept override { return static_kind; }
    std::mutex mu;
    uint32_t num_inputs = 1;   // ONE
    uint32_t num_aux = 0;
    std::unique_ptr<r1cs::pce_builder> b = std::make_unique<r1cs::pce_builder>(r1cs::pce_builder::columns::tagged);
    std::vector<r1cs::pce_builder::entry> s[3];
};

// ---- timeline (timeline.cpp) ---------------------------------------------------------------
// Events into a host callback (converted to cuzk_event on the fly), on the
// calling thread: the engine object puts it behind a timeline::async_sink.
std::shared_ptr<timeline::sink> make_callback_sink(const cuzk_timeline_callbacks& cb);

// A bounded queue of events the host drains.
class buffer_sink final : public timeline::sink {
public:
    explicit buffer_sink(size_t capacity) : cap_(capacity) {}
    void record(const timeline::event& e) noexcept override;
    // Moves up to n events out (n = 0: only counts).
    std::vector<timeline::event> take(size_t n, size_t* waiting);
    uint64_t dropped() const;

private:
    mutable std::mutex mu_;
    std::deque<timeline::event> q_;
    size_t cap_;
    uint64_t dropped_ = 0;
};

struct c_event;   // an event converted for C, with its strings (timeline.cpp)

struct timeline_buffer_obj final : object {
    static constexpr kind static_kind = kind::timeline_buffer;
    kind get_kind() const noexcept override { return static_kind; }
    ~timeline_buffer_obj() override;
    std::shared_ptr<buffer_sink> sink;
    std::mutex drained_mu;
    std::vector<std::unique_ptr<c_event>> drained;   // the last drain's events (their strings)
};

// A key object holding a Filecoin key (PoRep or PoSt: proving key or a
// mapping's shell, its circuit, densities; threads decode a mapped key's
// points, 0 = all); the caller sets its porep or post shape (porep.cpp).
std::shared_ptr<key_obj> key_obj_of(filecoin::porep_key k, unsigned threads);

// ---- engine and jobs (engine.cpp, jobs.cpp, borrowed.cpp, porep.cpp, post.cpp) -----------------------
template <class C>
using shared_proving_key = std::shared_ptr<const groth16::proving_key_t<C>>;

// A key registered with an engine object: its proving key, of either curve,
// and what the submit calls check partitions and requests against.
struct engine_key {
    per_curve<shared_proving_key> pk;   // the key's, of its curve (the alternative's index is the curve_id)
    std::shared_ptr<const r1cs::pce> pce;
    std::string name;
    std::optional<filecoin::seal_config> porep;   // set for a PoRep key (cuzk_porep_c2_submit)
    std::optional<filecoin::post_config> post;    // set for a PoSt key (cuzk_post_submit)
    std::optional<filecoin::update_config> update;   // set for an update key (cuzk_update_submit)
    curve_id curve() const noexcept { return curve_id(pk.index()); }
    // The proving key of curve C; the caller has checked curve() (throws std::bad_variant_access otherwise).
    template <class C>
    const groth16::proving_key_t<C>& proving_key() const
    {
        return *std::get<shared_proving_key<C>>(pk);
    }
};

struct engine_obj;

// How an engine object reaches the thread that destroys it. The object is
// held by a shared_ptr whose deleter (engine.cpp) deletes it where the last
// reference goes, unless cuzk_engine_destroy is waiting for it: then the
// object is handed to that thread, which shuts the engine down itself (so
// that the timeline callback is never left running after destroy returns).
struct engine_reaper {
    std::mutex mu;
    std::condition_variable cv;
    bool waiting = false;
    engine_obj* handed = nullptr;
};

struct engine_obj final : object {
    static constexpr kind static_kind = kind::engine;
    kind get_kind() const noexcept override { return static_kind; }

    std::shared_ptr<engine_reaper> reaper;

    // The host callback behind its delivery thread (null without a callback).
    std::shared_ptr<timeline::async_sink> events;
    std::shared_ptr<timeline::fan_out> sink;    // must outlive eng (the engine borrows it)
    std::unique_ptr<pipeline::engine> eng;
    std::mutex keys_mu;
    std::unordered_map<uint32_t, engine_key> keys;

    // Cancels, joins the engine's threads; then delivers the events still
    // queued and joins the delivery thread. Run on the delivery thread (the
    // callback destroyed its engine), the delivery was abandoned already and
    // the thread ends by itself (timeline::async_sink::close).
    ~engine_obj() override
    {
        eng.reset();
        if (events) events->close();
    }

    // The registered key `id`, or CUZK_ERR_INVALID_ARGUMENT naming fn.
    engine_key key(uint32_t id, const char* fn)
    {
        std::lock_guard lk(keys_mu);
        auto it = keys.find(id);
        if (it == keys.end())
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: key id {} is not registered with this engine", fn, id));
        return it->second;
    }
};

struct job_obj final : object {
    static constexpr kind static_kind = kind::job;
    kind get_kind() const noexcept override { return static_kind; }
    pipeline::job_handle h;
    size_t num_parts = 0;
};

// Queues req on the engine and returns the new job handle (engine.cpp).
cuzk_job* submit_job(engine_obj& e, pipeline::proof_request req, const cuzk_job_options* opt, const char* fn);

// The live key_obj behind `key`, or CUZK_ERR_NULL / CUZK_ERR_INVALID_HANDLE naming `what`.
inline std::shared_ptr<key_obj> need_key(const cuzk_key* key, const char* fn, const char* what = "key")
{
    if (!key) fail(CUZK_ERR_NULL, fmt::format("{}: {} is NULL", fn, what));
    auto k = find<key_obj>(key);
    if (!k) fail(CUZK_ERR_INVALID_HANDLE, fmt::format("{}: {} is not a live cuzk_key handle", fn, what));
    return k;
}

} // namespace cuzk::capi
