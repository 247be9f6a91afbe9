// cuzk serve — the cuzk.v1.ProvingEngine service: each RPC on the job
// table and the key store.
//
// Status codes: INVALID_ARGUMENT for a request that can be refused as it is
// (a bad kind, size, encoding, field length, a missing `submit`, an id in
// use by another request), naming the field; NOT_FOUND for an unknown job
// id or a key file that is not there; UNAVAILABLE while shutting down. A
// proof that fails (a vanilla proof that does not check, a key that does
// not load, a proof that does not verify) is an OK answer with status
// FAILED and the reason in error_message, as curio's daemon answers.
#pragma once

#include <grpcpp/grpcpp.h>

#include "cuzk/v1/proving.grpc.pb.h"
#include "status.hpp"

namespace cuzk::daemon {

class proving_service final : public v1::ProvingEngine::Service {
public:
    explicit proving_service(const daemon_view& d) : d_(d) {}

    grpc::Status SubmitProof(grpc::ServerContext*, const v1::SubmitProofRequest*, v1::SubmitProofResponse*) override;
    grpc::Status AwaitProof(grpc::ServerContext*, const v1::AwaitProofRequest*, v1::AwaitProofResponse*) override;
    grpc::Status Prove(grpc::ServerContext*, const v1::ProveRequest*, v1::ProveResponse*) override;
    grpc::Status CancelProof(grpc::ServerContext*, const v1::CancelProofRequest*, v1::CancelProofResponse*) override;
    grpc::Status GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*, v1::GetStatusResponse*) override;
    grpc::Status GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*, v1::GetMetricsResponse*) override;
    grpc::Status PreloadSRS(grpc::ServerContext*, const v1::PreloadSrsRequest*, v1::PreloadSrsResponse*) override;
    grpc::Status EvictSRS(grpc::ServerContext*, const v1::EvictSrsRequest*, v1::EvictSrsResponse*) override;

private:
    // Starts or attaches to the request's job; a non-OK status refuses it.
    grpc::Status start(const v1::SubmitProofRequest& r, std::shared_ptr<job>* out);

    daemon_view d_;
};

} // namespace cuzk::daemon
