// cuzk serve — start-up, the command line, signals and shutdown (serve.hpp).
//
// Shutdown (SIGTERM or SIGINT): new jobs are refused (UNAVAILABLE), jobs in
// progress get daemon.shutdown_grace_s to finish, the rest are cancelled
// (their waiting clients get CANCELLED), then the server stops and the
// process exits 0.
#include "serve.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <grpcpp/grpcpp.h>

#include <fmt/format.h>

#include "address.hpp"
#include "config.hpp"
#include "cuzk/error.hpp"
#include "http.hpp"
#include "jobs.hpp"
#include "keys.hpp"
#include "service.hpp"
#include "status.hpp"
#include "timeline_tap.hpp"

namespace cuzk::daemon {

namespace {

constexpr int max_message = 256 << 20;   // Curio sends and accepts up to 256 MiB
constexpr const char* default_config_path = "/data/zk/cuzk.toml";

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* const usage_text =
    "usage: cuzk serve [--config FILE] [--listen ADDR] [flags]\n"
    "  a proving daemon speaking curio's cuzk.v1.ProvingEngine gRPC protocol (docs/DAEMON.md)\n"
    "  --config FILE          TOML settings (default /data/zk/cuzk.toml when it exists)\n"
    "  --listen ADDR          host:port or unix:///path (default unix:///run/curio/cuzk.sock)\n"
    "  --status-listen ADDR   host:port for HTTP GET /status (JSON) and /metrics\n"
    "  --backend B            auto | cpu | cuda (default auto: the GPU when usable)\n"
    "  --param-cache DIR      the key files (default $FIL_PROOFS_PARAMETER_CACHE or /data/zk/params)\n"
    "  --keep-results S       seconds a finished job answers its id (default 600)\n"
    "  --grace S              seconds running jobs may finish on SIGTERM (default 30)\n"
    "  --timeline             TIMELINE lines on stderr (cuzk waterfall reads them)\n"
    "  --dev-keys             TESTS ONLY: make a development key (NOT a trusted ceremony) for a\n"
    "                         circuit without a key file (its verifying key: cuzk-<id>.dev.vk)\n";

unsigned parse_seconds(const std::string& flag, const std::string& v)
{
    if (v.empty() || v.size() > 7 || v.find_first_not_of("0123456789") != std::string::npos)
        throw usage_error(fmt::format("{}: expected whole seconds, got '{}'", flag, v));
    return unsigned(std::stoul(v));
}

// The settings: defaults, the config file, then the flags.
config load_config(std::span<char* const> args)
{
    std::string config_path;
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (!std::strcmp(args[i], "--config") || !std::strcmp(args[i], "-c")) config_path = args[i + 1];
    config c = default_config();
    if (!config_path.empty()) apply_toml(c, read_file(config_path), config_path);
    else if (std::filesystem::exists(default_config_path)) apply_toml(c, read_file(default_config_path), default_config_path);
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string f = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw usage_error(f + " needs a value");
            return args[++i];
        };
        if (f == "--config" || f == "-c") ++i;
        else if (f == "--listen" || f == "-l") c.listen = value();
        else if (f == "--status-listen") c.status_listen = value();
        else if (f == "--backend") c.backend = value();
        else if (f == "--param-cache") c.param_cache = value();
        else if (f == "--keep-results") c.keep_results_s = parse_seconds(f, value());
        else if (f == "--grace") c.shutdown_grace_s = parse_seconds(f, value());
        else if (f == "--timeline") c.timeline = true;
        else if (f == "--dev-keys") c.dev_keys = true;
        else throw usage_error(fmt::format("unknown flag '{}'", f));
    }
    if (c.backend != "auto" && c.backend != "cpu" && c.backend != "cuda")
        throw usage_error("--backend: expected auto, cpu or cuda");
    return c;
}

// memory.total_budget = "auto": MemTotal less the safety margin.
uint64_t auto_budget(uint64_t margin)
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    while (in >> key >> kib) {
        if (key == "MemTotal:") return kib * 1024 > margin ? kib * 1024 - margin : 0;
        in.ignore(1 << 10, '\n');
    }
    return 0;
}

int wait_for_signal()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    int sig = 0;
    sigwait(&set, &sig);
    return sig;
}

int run(config& cfg)
{
    for (const std::string& w : cfg.warnings) std::fprintf(stderr, "cuzk serve: warning: config %s\n", w.c_str());
    if (cfg.total_budget == 0) cfg.total_budget = auto_budget(cfg.safety_margin);
    const listen_address addr = parse_address(cfg.listen, "listen");
    if (addr.unix_socket) prepare_unix_socket(addr);
    // SIGTERM and SIGINT go to sigwait alone: blocked before any thread starts.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    timeline_tap tap(cfg.timeline);
    key_store keys(cfg, tap);
    job_table jobs(cfg, keys, tap);
    const daemon_view view{cfg, jobs, keys, tap};
    proving_service service(view);
    grpc::ServerBuilder b;
    int bound_port = 0;
    b.AddListeningPort(addr.grpc, grpc::InsecureServerCredentials(), addr.unix_socket ? nullptr : &bound_port);
    b.SetMaxReceiveMessageSize(max_message);
    b.SetMaxSendMessageSize(max_message);
    b.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = b.BuildAndStart();
    if (!server) throw error(errc::io, fmt::format("listen: cannot listen on {}", cfg.listen));
    std::unique_ptr<http_status> http;
    if (!cfg.status_listen.empty()) {
        const listen_address h = parse_address(cfg.status_listen, "status_listen");
        if (h.unix_socket) throw error(errc::invalid_argument, "status_listen: takes host:port");
        http = std::make_unique<http_status>(h.host, h.port, [&] { return status_json(view); },
                                             [&] { return metrics_text(view); });
        std::fprintf(stderr, "cuzk serve: HTTP status on %s:%d (/status, /metrics)\n", h.host.c_str(), http->port());
    }
    std::fprintf(stderr, "cuzk serve: listening on %s (backend %s: %s; keys from %s%s)\n",
                 addr.unix_socket ? cfg.listen.c_str() : fmt::format("{}:{}", addr.host, bound_port).c_str(),
                 keys.gpu() ? "cuda" : "cpu", keys.backend_reason().c_str(), cfg.param_cache.c_str(),
                 cfg.dev_keys ? "; DEVELOPMENT KEYS for missing files: tests only" : "");
    const int sig = wait_for_signal();
    std::fprintf(stderr, "cuzk serve: %s: refusing new jobs; %zu job(s) in progress get %u s to finish\n",
                 sig == SIGTERM ? "SIGTERM" : "SIGINT", jobs.active(), cfg.shutdown_grace_s);
    jobs.drain(std::chrono::seconds(cfg.shutdown_grace_s));
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
    http.reset();
    if (addr.unix_socket) std::filesystem::remove(addr.path);
    std::fprintf(stderr, "cuzk serve: stopped\n");
    return 0;
}

} // namespace

int serve(std::span<char* const> args)
{
    try {
        for (char* a : args)
            if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
                std::fputs(usage_text, stdout);
                return 0;
            }
        config cfg = load_config(args);
        return run(cfg);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "cuzk serve: %s\n%s", e.what(), usage_text);
        return 2;
    } catch (const error& e) {
        std::fprintf(stderr, "cuzk serve: %s [%s]\n", e.what(), errc_name(e.code()));
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk serve: %s\n", e.what());
        return 1;
    }
}

} // namespace cuzk::daemon
