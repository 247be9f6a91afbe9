// cuzk client — status and timed PoRep C2 proofs through a running daemon
// (client.hpp). The requests are built as Curio builds them (requests.hpp):
// vanilla_proof = {"SectorNum", "Phase1Out": base64 of the C1 JSON,
// "SectorSize"}, the prover id from miner_id; the daemon checks the C1
// output against that prover id and the sector number, so a synthetic C1
// must be made for them (`cuzk porep c1 --synthetic --zero --miner-id N
// --sector-number S`).
#include "client.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/c1_json.hpp"
#include "cuzk/io/json.hpp"
#include "config.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "requests.hpp"

namespace cuzk::daemon {

namespace {

namespace fc = cuzk::filecoin;
using clock_type = std::chrono::steady_clock;

constexpr int max_message = 256 << 20;   // as the daemon and Curio

const char* const usage_text =
    "usage: cuzk client ADDR status\n"
    "       cuzk client ADDR preload CIRCUIT_ID\n"
    "       cuzk client ADDR porep-c2 c1.json --miner-id N --sector-number N [--clients K] [--proofs P]\n"
    "                                 [--out proof.bin]\n"
    "  ADDR: the daemon's host:port or unix:///path\n"
    "  status     GetStatus: devices, loaded keys, queues, totals\n"
    "  preload    PreloadSRS: load a circuit's key (e.g. porep-32g) before the first request\n"
    "  porep-c2   P proofs (default K) of the C1 output, sent by K client threads at once (default 1)\n"
    "             as Prove calls; each must come back COMPLETED with 192 bytes a partition (the\n"
    "             daemon verifies every proof first); prints each proof's time and seconds per\n"
    "             proof; --out writes the last proof\n";

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::unique_ptr<v1::ProvingEngine::Stub> connect(const std::string& addr)
{
    grpc::ChannelArguments a;
    a.SetMaxReceiveMessageSize(max_message);
    a.SetMaxSendMessageSize(max_message);
    return v1::ProvingEngine::NewStub(grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), a));
}

void check_rpc(const grpc::Status& s, const char* what)
{
    if (!s.ok())
        throw error(errc::io, fmt::format("{}: {} (gRPC code {})", what, s.error_message(), int(s.error_code())));
}

int show_status(v1::ProvingEngine::Stub& stub)
{
    grpc::ClientContext ctx;
    v1::GetStatusResponse r;
    check_rpc(stub.GetStatus(&ctx, v1::GetStatusRequest{}, &r), "GetStatus");
    for (const v1::GPUStatus& g : r.gpus())
        std::printf("gpu %u: %s, %.2f GB total, %.2f GB free, job '%s' %s\n", g.ordinal(), g.name().c_str(),
                    double(g.vram_total_bytes()) / 1e9, double(g.vram_free_bytes()) / 1e9, g.current_job_id().c_str(),
                    g.current_proof_kind().c_str());
    for (const v1::SRSStatus& k : r.loaded_srs())
        std::printf("key %s: %s, %.2f GB, %u job(s)\n", k.circuit_id().c_str(),
                    v1::SRSStatus::Tier_Name(k.tier()).c_str(), double(k.size_bytes()) / 1e9, k.ref_count());
    for (const v1::QueueStatus& q : r.queues())
        std::printf("queue %s: %u pending, %u in progress\n", q.proof_kind().c_str(), q.pending(), q.in_progress());
    std::printf("proofs: %llu completed, %llu failed; up %llu s; pinned %.2f of %.2f GB\n",
                (unsigned long long)r.total_proofs_completed(), (unsigned long long)r.total_proofs_failed(),
                (unsigned long long)r.uptime_seconds(), double(r.pinned_memory_bytes()) / 1e9,
                double(r.pinned_memory_limit_bytes()) / 1e9);
    return 0;
}

int preload(v1::ProvingEngine::Stub& stub, const std::string& id)
{
    grpc::ClientContext ctx;
    v1::PreloadSrsRequest req;
    req.set_circuit_id(id);
    v1::PreloadSrsResponse r;
    check_rpc(stub.PreloadSRS(&ctx, req, &r), "PreloadSRS");
    const std::string what = r.already_loaded() ? "already loaded" : fmt::format("loaded in {} ms", r.load_time_ms());
    std::printf("key %s: %s\n", id.c_str(), what.c_str());
    return 0;
}

struct porep_args {
    std::string c1_path, out;
    uint64_t miner_id = 0, sector = 0;
    unsigned clients = 1, proofs = 0;
};

uint64_t number(const std::string& flag, const std::string& v, uint64_t max)
{
    if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos)
        throw usage_error(fmt::format("{}: expected a whole number, got '{}'", flag, v));
    const unsigned long long x = std::stoull(v);
    if (x > max) throw usage_error(fmt::format("{}: {} is more than {}", flag, v, max));
    return x;
}

porep_args parse_porep(std::span<char* const> a)
{
    porep_args p;
    bool miner = false, sector = false;
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string f = a[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= a.size()) throw usage_error(f + " needs a value");
            return a[++i];
        };
        if (f == "--miner-id") p.miner_id = number(f, value(), UINT64_MAX), miner = true;
        else if (f == "--sector-number") p.sector = number(f, value(), UINT64_MAX), sector = true;
        else if (f == "--clients") p.clients = unsigned(number(f, value(), 1024));
        else if (f == "--proofs") p.proofs = unsigned(number(f, value(), 100000));
        else if (f == "--out") p.out = value();
        else if (f.rfind("--", 0) == 0) throw usage_error(fmt::format("unknown flag '{}'", f));
        else if (p.c1_path.empty()) p.c1_path = f;
        else throw usage_error(fmt::format("unexpected argument '{}'", f));
    }
    if (p.c1_path.empty()) throw usage_error("porep-c2: expected the C1 output JSON file");
    if (!miner || !sector) throw usage_error("porep-c2: --miner-id and --sector-number are required");
    if (p.clients == 0) throw usage_error("--clients: at least 1");
    if (p.proofs == 0) p.proofs = p.clients;
    return p;
}

// The request as Curio sends it, its id left to the caller.
v1::SubmitProofRequest porep_request(const porep_args& p, const std::string& c1_json, const fc::c1_output& c1)
{
    const uint64_t size = c1.config.sector_bytes();
    const io::json wrapper = io::json::object({{"SectorNum", io::json::number(p.sector)},
                                               {"Phase1Out", io::json::string(base64_encode(c1_json))},
                                               {"SectorSize", io::json::number(size)}});
    v1::SubmitProofRequest r;
    r.set_proof_kind(v1::POREP_SEAL_COMMIT);
    r.set_sector_size(size);
    r.set_registered_proof(uint64_t(c1.config.registered_id));
    r.set_priority(v1::NORMAL);
    r.set_vanilla_proof(wrapper.dump());
    r.set_sector_number(p.sector);
    r.set_miner_id(p.miner_id);
    return r;
}

struct proof_outcome {
    double seconds = 0;
    std::string failure;   // empty: COMPLETED with the expected size
    std::string proof;
    uint64_t synthesis_ms = 0, gpu_ms = 0, queue_ms = 0;
};

proof_outcome prove_one(v1::ProvingEngine::Stub& stub, v1::SubmitProofRequest req, size_t proof_bytes)
{
    proof_outcome o;
    v1::ProveRequest pr;
    *pr.mutable_submit() = std::move(req);
    grpc::ClientContext ctx;
    v1::ProveResponse resp;
    const auto t0 = clock_type::now();
    const grpc::Status s = stub.Prove(&ctx, pr, &resp);
    o.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    const v1::AwaitProofResponse& r = resp.result();
    if (!s.ok()) o.failure = fmt::format("gRPC: {} (code {})", s.error_message(), int(s.error_code()));
    else if (r.status() != v1::AwaitProofResponse::COMPLETED)
        o.failure = fmt::format("{}: {}", v1::AwaitProofResponse::Status_Name(r.status()), r.error_message());
    else if (r.proof().size() != proof_bytes)
        o.failure = fmt::format("COMPLETED with {} proof bytes, expected {}", r.proof().size(), proof_bytes);
    o.proof = r.proof();
    o.synthesis_ms = r.synthesis_ms();
    o.gpu_ms = r.gpu_compute_ms();
    o.queue_ms = r.queue_wait_ms();
    return o;
}

int porep_c2(v1::ProvingEngine::Stub& stub, const porep_args& p)
{
    const std::string text = read_file(p.c1_path);
    const fc::c1_output c1 = fc::read_c1_json(text, p.c1_path);
    const v1::SubmitProofRequest base = porep_request(p, text, c1);
    const size_t proof_bytes = 192 * c1.partitions.size();
    std::vector<proof_outcome> done(p.proofs);
    std::atomic<unsigned> next{0};
    std::mutex print_mu;
    const std::string tag = fmt::format("cuzk-client-{}-{}", ::getpid(), clock_type::now().time_since_epoch().count());
    const auto t0 = clock_type::now();
    auto worker = [&](unsigned client) {
        for (unsigned i; (i = next.fetch_add(1)) < p.proofs;) {
            v1::SubmitProofRequest r = base;
            r.set_request_id(fmt::format("{}-{}", tag, i));
            done[i] = prove_one(stub, std::move(r), proof_bytes);
            const proof_outcome& o = done[i];
            const std::lock_guard<std::mutex> lk(print_mu);
            std::printf("proof %u (client %u): %.3f s, queue %llu ms, synthesis %llu ms, gpu %llu ms%s%s\n", i, client,
                        o.seconds, (unsigned long long)o.queue_ms, (unsigned long long)o.synthesis_ms,
                        (unsigned long long)o.gpu_ms, o.failure.empty() ? "" : ": FAILED ", o.failure.c_str());
            std::fflush(stdout);
        }
    };
    std::vector<std::thread> threads;
    for (unsigned k = 0; k < p.clients; ++k) threads.emplace_back(worker, k);
    for (std::thread& t : threads) t.join();
    const double wall = std::chrono::duration<double>(clock_type::now() - t0).count();
    unsigned failed = 0;
    for (const proof_outcome& o : done) failed += !o.failure.empty();
    std::printf("cuzk client: %u proofs from %u clients in %.1f s: %.2f s per proof; %u failed\n", p.proofs, p.clients,
                wall, wall / p.proofs, failed);
    if (!p.out.empty() && done.back().failure.empty()) {
        std::ofstream f(p.out, std::ios::binary);
        f.write(done.back().proof.data(), std::streamsize(done.back().proof.size()));
        if (!f) throw error(errc::io, fmt::format("{}: cannot write", p.out));
    }
    return failed ? 1 : 0;
}

int run(std::span<char* const> a)
{
    if (a.size() < 2) throw usage_error("expected ADDR and a command (status, preload, porep-c2)");
    const std::string addr = a[0], cmd = a[1];
    auto stub = connect(addr);
    if (cmd == "status") {
        if (a.size() > 2) throw usage_error("status takes no arguments");
        return show_status(*stub);
    }
    if (cmd == "preload") {
        if (a.size() != 3) throw usage_error("preload takes one circuit id (e.g. porep-32g)");
        return preload(*stub, a[2]);
    }
    if (cmd == "porep-c2") return porep_c2(*stub, parse_porep(a.subspan(2)));
    throw usage_error(fmt::format("unknown command '{}' (status, preload, porep-c2)", cmd));
}

} // namespace

int client(std::span<char* const> args)
{
    try {
        for (char* a : args)
            if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
                std::fputs(usage_text, stdout);
                return 0;
            }
        return run(args);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "cuzk client: %s\n%s", e.what(), usage_text);
        return 2;
    } catch (const error& e) {
        std::fprintf(stderr, "cuzk client: %s [%s]\n", e.what(), errc_name(e.code()));
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk client: %s\n", e.what());
        return 1;
    }
}

} // namespace cuzk::daemon
