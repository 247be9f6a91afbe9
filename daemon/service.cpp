// cuzk serve — the ProvingEngine RPCs (service.hpp).
#include "service.hpp"

#include <chrono>
#include <cstdio>
#include <functional>

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::daemon {

namespace {

// A request's content without its id: a repeated id must carry the same.
uint64_t fingerprint(const v1::SubmitProofRequest& r)
{
    v1::SubmitProofRequest copy = r;
    copy.clear_request_id();
    std::string bytes;
    copy.SerializeToString(&bytes);
    return std::hash<std::string>{}(bytes);
}

v1::AwaitProofResponse::Status wire_status(job_state s)
{
    switch (s) {
    case job_state::completed: return v1::AwaitProofResponse::COMPLETED;
    case job_state::failed: return v1::AwaitProofResponse::FAILED;
    case job_state::cancelled: return v1::AwaitProofResponse::CANCELLED;
    default: return v1::AwaitProofResponse::TIMEOUT;   // not ended yet
    }
}

void fill_result(const job& j, v1::AwaitProofResponse& out)
{
    const job_outcome o = j.outcome();
    out.set_job_id(j.id());
    out.set_status(wire_status(o.state));
    out.set_proof(std::string(o.proof.begin(), o.proof.end()));
    out.set_error_message(o.error);
    if (!ended(o.state)) out.set_error_message(fmt::format("job {} is still {}", j.id(), state_name(o.state)));
    out.set_queue_wait_ms(o.queue_wait_ms);
    out.set_srs_load_ms(o.srs_load_ms);
    out.set_synthesis_ms(o.synthesis_ms);
    out.set_gpu_compute_ms(o.gpu_compute_ms);
    out.set_total_ms(o.total_ms);
}

grpc::Status key_error(const error& e)
{
    const grpc::StatusCode code = e.code() == errc::io ? grpc::StatusCode::NOT_FOUND
                                  : e.code() == errc::bad_format || e.code() == errc::invalid_argument
                                      ? grpc::StatusCode::FAILED_PRECONDITION
                                      : grpc::StatusCode::INTERNAL;
    return {code, e.what()};
}

} // namespace

grpc::Status proving_service::start(const v1::SubmitProofRequest& r, std::shared_ptr<job>* out)
{
    if (d_.jobs.draining()) return {grpc::StatusCode::UNAVAILABLE, "the daemon is shutting down"};
    const uint64_t fp = fingerprint(r);
    // A repeated id of the same request attaches without decoding it again.
    if (!r.request_id().empty())
        if (auto j = d_.jobs.attachable(r.request_id()); j && j->fingerprint() == fp) {
            *out = j;
            return grpc::Status::OK;
        }
    try {
        bool attached = false;
        *out = d_.jobs.submit(r.request_id(), fp, decode_request(r), &attached);
        return grpc::Status::OK;
    } catch (const request_error& e) {
        return {d_.jobs.draining() ? grpc::StatusCode::UNAVAILABLE : grpc::StatusCode::INVALID_ARGUMENT, e.what()};
    } catch (const std::exception& e) {
        return {grpc::StatusCode::INTERNAL, e.what()};
    }
}

grpc::Status proving_service::SubmitProof(grpc::ServerContext*, const v1::SubmitProofRequest* r,
                                          v1::SubmitProofResponse* out)
{
    std::shared_ptr<job> j;
    if (grpc::Status s = start(*r, &j); !s.ok()) return s;
    out->set_job_id(j->id());
    out->set_queue_position(uint32_t(d_.jobs.active()));
    return grpc::Status::OK;
}

grpc::Status proving_service::AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* r,
                                         v1::AwaitProofResponse* out)
{
    const std::shared_ptr<job> j = d_.jobs.find(r->job_id());
    if (!j) return {grpc::StatusCode::NOT_FOUND, fmt::format("job_id: no job '{}'", r->job_id())};
    j->wait(std::chrono::milliseconds(r->timeout_ms()), [ctx] { return ctx->IsCancelled(); });
    fill_result(*j, *out);
    return grpc::Status::OK;
}

grpc::Status proving_service::Prove(grpc::ServerContext* ctx, const v1::ProveRequest* r, v1::ProveResponse* out)
{
    if (!r->has_submit()) return {grpc::StatusCode::INVALID_ARGUMENT, "submit: missing"};
    std::shared_ptr<job> j;
    if (grpc::Status s = start(r->submit(), &j); !s.ok()) return s;
    const bool done = j->wait(std::chrono::milliseconds(0), [ctx] { return ctx->IsCancelled(); });
    if (!done && d_.cfg.cancel_on_disconnect && j->cancel())
        std::fprintf(stderr, "cuzk serve: job %s cancelled: its Prove client went away\n", j->id().c_str());
    fill_result(*j, *out->mutable_result());
    return grpc::Status::OK;
}

grpc::Status proving_service::CancelProof(grpc::ServerContext*, const v1::CancelProofRequest* r,
                                          v1::CancelProofResponse* out)
{
    const std::shared_ptr<job> j = d_.jobs.find(r->job_id());
    if (!j) return {grpc::StatusCode::NOT_FOUND, fmt::format("job_id: no job '{}'", r->job_id())};
    out->set_was_running(j->cancel());
    return grpc::Status::OK;
}

grpc::Status proving_service::GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*, v1::GetStatusResponse* out)
{
    fill_status(d_, *out);
    return grpc::Status::OK;
}

grpc::Status proving_service::GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*, v1::GetMetricsResponse* out)
{
    out->set_prometheus_text(metrics_text(d_));
    return grpc::Status::OK;
}

grpc::Status proving_service::PreloadSRS(grpc::ServerContext*, const v1::PreloadSrsRequest* r, v1::PreloadSrsResponse* out)
{
    const std::optional<circuit> c = circuit_by_id(r->circuit_id());
    if (!c)
        return {grpc::StatusCode::INVALID_ARGUMENT,
                fmt::format("circuit_id: unknown '{}' (e.g. porep-32g, wpost-32g, winning-32g, snap-32g)", r->circuit_id())};
    out->set_already_loaded(d_.keys.find(*c) != nullptr);
    try {
        uint64_t ms = 0;
        d_.keys.get(*c, &ms);
        out->set_load_time_ms(ms);
    } catch (const error& e) {
        return key_error(e);
    } catch (const std::exception& e) {
        return {grpc::StatusCode::INTERNAL, e.what()};
    }
    return grpc::Status::OK;
}

grpc::Status proving_service::EvictSRS(grpc::ServerContext*, const v1::EvictSrsRequest* r, v1::EvictSrsResponse* out)
{
    const std::optional<circuit> c = circuit_by_id(r->circuit_id());
    if (!c) return {grpc::StatusCode::INVALID_ARGUMENT, fmt::format("circuit_id: unknown '{}'", r->circuit_id())};
    uint64_t freed = 0;
    out->set_was_loaded(d_.keys.evict(*c, &freed));
    out->set_freed_bytes(freed);
    return grpc::Status::OK;
}

} // namespace cuzk::daemon
