// cuzk C ABI — the timeline: events into a host callback (behind the engine
// object's timeline::async_sink, engine.cpp), or into a buffer the host drains.
#include "objects.hpp"

using namespace cuzk;
using namespace cuzk::capi;

namespace cuzk::capi {

namespace {
// The C view of e: its strings stay e's; keys and values receive the detail pointers.
cuzk_event c_view(const timeline::event& e, std::vector<const char*>& keys, std::vector<const char*>& values)
{
    keys.clear();
    values.clear();
    keys.reserve(e.details.size());
    values.reserve(e.details.size());
    for (const auto& [k, v] : e.details) {
        keys.push_back(k.c_str());
        values.push_back(v.c_str());
    }
    cuzk_event ev{};
    ev.struct_size = sizeof(cuzk_event);
    ev.phase = int32_t(e.ph);
    ev.t_ns = e.t_ns;
    ev.partition = e.partition;
    ev.worker = e.worker;
    ev.device = e.device;
    ev.num_details = uint32_t(e.details.size());
    ev.name = e.name.c_str();
    ev.job = e.job.c_str();
    ev.detail_keys = keys.data();
    ev.detail_values = values.data();
    return ev;
}
} // namespace

// An event converted for C: the strings it points to live in `owned`.
struct c_event {
    timeline::event owned;
    std::vector<const char*> keys, values;
    cuzk_event ev{};
    void build() { ev = c_view(owned, keys, values); }
};


namespace {

class callback_sink final : public timeline::sink {
public:
    explicit callback_sink(const cuzk_timeline_callbacks& cb) : cb_(cb) {}
    void record(const timeline::event& e) noexcept override
    {
        if (!cb_.on_event) return;
        try {
            std::vector<const char*> keys, values;
            const cuzk_event ev = c_view(e, keys, values);
            cb_.on_event(cb_.user_data, &ev);
        } catch (...) {   // out of memory building the arrays: drop the event
        }
    }

private:
    cuzk_timeline_callbacks cb_;
};


} // namespace

std::shared_ptr<timeline::sink> make_callback_sink(const cuzk_timeline_callbacks& cb)
{
    return std::make_shared<callback_sink>(cb);
}

void buffer_sink::record(const timeline::event& e) noexcept
{
    try {
        std::lock_guard lk(mu_);
        if (q_.size() >= cap_) {
            ++dropped_;
            return;
        }
        q_.push_back(e);
    } catch (...) {
        std::lock_guard lk(mu_);
        ++dropped_;
    }
}

std::vector<timeline::event> buffer_sink::take(size_t n, size_t* waiting)
{
    std::lock_guard lk(mu_);
    *waiting = q_.size();
    std::vector<timeline::event> r;
    const size_t k = std::min(n, q_.size());
    r.reserve(k);
    for (size_t i = 0; i < k; ++i) {
        r.push_back(std::move(q_.front()));
        q_.pop_front();
    }
    return r;
}

uint64_t buffer_sink::dropped() const
{
    std::lock_guard lk(mu_);
    return dropped_;
}

timeline_buffer_obj::~timeline_buffer_obj() = default;

} // namespace cuzk::capi

extern "C" {

// ---- timeline -------------------------------------------------------------------------------

CUZK_API cuzk_status cuzk_timeline_callbacks_init(cuzk_timeline_callbacks* out)
{
    if (!clear_struct(out)) return CUZK_ERR_NULL;
    return CUZK_OK;
}

CUZK_API cuzk_status cuzk_timeline_buffer_create(cuzk_timeline_buffer** out, size_t capacity, char* err,
                                                 size_t err_len)
{
    static const char* fn = "cuzk_timeline_buffer_create";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        if (capacity == 0) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: capacity is 0", fn));
        auto o = std::make_shared<timeline_buffer_obj>();
        o->sink = std::make_shared<buffer_sink>(capacity);
        *out = add_handle<cuzk_timeline_buffer>(o);
        return CUZK_OK;
    });
}

CUZK_API void cuzk_timeline_buffer_destroy(cuzk_timeline_buffer* buf) { remove_handle(buf, kind::timeline_buffer); }

CUZK_API size_t cuzk_timeline_buffer_last_error(char* out, size_t out_len, const cuzk_timeline_buffer* buf)
{
    return last_error<timeline_buffer_obj>(out, out_len, buf);
}

CUZK_API cuzk_status cuzk_timeline_buffer_drain(size_t* out_count, cuzk_event* out, size_t capacity,
                                                size_t event_size, cuzk_timeline_buffer* buf)
{
    static const char* fn = "cuzk_timeline_buffer_drain";
    return call<timeline_buffer_obj>(buf, fn, [&](timeline_buffer_obj& b) -> cuzk_status {
        need(out_count, fn, "out_count");
        if (capacity && !out) fail(CUZK_ERR_NULL, fmt::format("{}: out is NULL but capacity is {}", fn, capacity));
        if (capacity && event_size < sizeof(cuzk_event))
            fail(CUZK_ERR_STRUCT_SIZE,
                 fmt::format("{}: event_size is {}, at least {} expected (sizeof(cuzk_event))", fn, event_size, sizeof(cuzk_event)));
        std::lock_guard lk(b.drained_mu);
        size_t waiting = 0;
        if (capacity == 0) {
            b.sink->take(0, &waiting);
            *out_count = waiting;
            return CUZK_OK;
        }
        std::vector<timeline::event> evs = b.sink->take(capacity, &waiting);
        std::vector<std::unique_ptr<c_event>> conv;
        conv.reserve(evs.size());
        for (auto& e : evs) {
            auto c = std::make_unique<c_event>();
            c->owned = std::move(e);
            c->build();
            conv.push_back(std::move(c));
        }
        auto* dst = reinterpret_cast<unsigned char*>(out);
        for (size_t i = 0; i < conv.size(); ++i) {
            unsigned char* slot = dst + i * event_size;
            std::memset(slot, 0, event_size);
            std::memcpy(slot, &conv[i]->ev, sizeof(cuzk_event));
        }
        b.drained = std::move(conv);   // the previous drain's strings go now
        *out_count = b.drained.size();
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_timeline_buffer_dropped(uint64_t* out, const cuzk_timeline_buffer* buf)
{
    return call<timeline_buffer_obj>(buf, "cuzk_timeline_buffer_dropped", [&](timeline_buffer_obj& b) -> cuzk_status {
        need(out, "cuzk_timeline_buffer_dropped", "out");
        *out = b.sink->dropped();
        return CUZK_OK;
    });
}

} // extern "C"
