#!/usr/bin/python3
"""cuzk serve through its gRPC protocol, as Curio uses it: a Python grpcio
client with stubs generated from daemon/proto at test time.

    daemon_test.py --cuzk BIN --proto DIR --work DIR MODE

MODE:
  inputs      seal 2 KiB test sectors and make what the other modes send: a
              C1 output, SnapDeals and PoSt vanilla proofs, and a WindowPoSt
              key file with a parameters.json of its digest
  porep       PoRep C2 from a key file, verified again by `cuzk porep verify`;
              another miner's request fails; the same through `cuzk client`
              (slow: the key takes minutes)
  snap        SnapDeals with a development key, verified again by `cuzk
              update verify`; a tampered request fails (slow)
  post        WindowPoSt from a key file, verified again by `cuzk post
              verify`; WinningPoSt; a tampered request fails; TIMELINE lines
  api         Submit/Await (timeout), Cancel, a repeated id, GetStatus,
              `cuzk client` status and preload,
              GetMetrics, PreloadSRS/EvictSRS, HTTP /status and /metrics, a
              digest mismatch, a missing key file
  bad         malformed requests (over TCP): INVALID_ARGUMENT naming the
              field, and the daemon still proves afterwards
  concurrent  200 Prove calls at once on the WindowPoSt 2 KiB key, over 20
              request ids: every call answered with its job's proof
  concurrent200  the same with 200 distinct jobs (slow: minutes on two cores)
  sigterm     SIGTERM while jobs run: they finish, new ones are refused,
              exit 0; with no grace left the rest are cancelled
"""
import argparse
import base64
import concurrent.futures
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

MINER = 1000            # actor id f01000
PROVER_HEX = "e807" + "00" * 30   # its LEB128 bytes, zero-padded to 32
TICKET = "02" * 32
SEED = "03" * 32
RANDOMNESS = "09" * 31 + "00"
SECTOR = 7
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what, flush=True)


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"command failed ({r.returncode}): {' '.join(args)}\n{r.stderr}")
    return r


# ---- inputs ---------------------------------------------------------------------------

def make_inputs(cuzk, w):
    if os.path.exists(f"{w}/inputs.done"):
        return
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(f"{w}/params")
    for sid in (SECTOR, 8, 9):
        run([cuzk, "porep", "seal", "--sector-size", "2KiB", "--porep-id", "5", "--prover-id", PROVER_HEX,
             "--sector-id", str(sid), "--ticket", TICKET, "--out", f"{w}/s{sid}"])
    run([cuzk, "porep", "c1", f"{w}/s{SECTOR}", "--seed", SEED, "--out", f"{w}/c1.json"])
    with open(f"{w}/new.bin", "wb") as f:
        f.write(bytes((i * 37 + 11) % 256 for i in range(2000)))
    run([cuzk, "update", "vanilla", "--proof", "StackedDrg2KiBV1", "--sector", f"{w}/s8", "--data", f"{w}/new.bin",
         "--out-dir", f"{w}/snap"])
    run([cuzk, "post", "vanilla", "--proof", "StackedDrgWindow2KiBV1_2", "--randomness", RANDOMNESS,
         "--out-dir", f"{w}/wpost", f"{w}/s{SECTOR}", f"{w}/s9"])
    run([cuzk, "post", "vanilla", "--proof", "StackedDrgWinning2KiBV1", "--randomness", RANDOMNESS,
         "--out-dir", f"{w}/winning", f"{w}/s9"])
    # Key files under the names the daemon looks for, and their digests.
    run([cuzk, "post", "setup", "--proof", "StackedDrgWindow2KiBV1_2", "--out", f"{w}/params/cuzk-wpost-2k.params",
         "--vk", f"{w}/wpost.vk"])
    write_manifest(w)
    open(f"{w}/inputs.done", "w").close()


def write_manifest(w):
    """parameters.json with the digests of the key files in the cache."""
    manifest = {}
    for name in sorted(os.listdir(f"{w}/params")):
        if name.endswith(".params"):
            with open(f"{w}/params/{name}", "rb") as f:
                digest = hashlib.blake2b(f.read(), digest_size=64).hexdigest()[:32]
            manifest[name] = {"cid": "", "digest": digest, "sector_size": 2048}
    with open(f"{w}/params/parameters.json", "w") as f:
        json.dump(manifest, f, indent=2)


# ---- the daemon -----------------------------------------------------------------------

class Daemon:
    def __init__(self, cuzk, w, name, extra=(), params=None, dev_keys=True, tcp=False):
        self.sock = f"{w}/{name}/run/cuzk.sock"
        os.makedirs(os.path.dirname(self.sock), exist_ok=True)
        # Curio dials a unix: address as it is and host:port as dns:///host:port.
        listen = f"127.0.0.1:{free_port()}" if tcp else "unix://" + self.sock
        target = "dns:///" + listen if tcp else listen
        self.status_port = free_port()
        self.log_path = f"{w}/{name}.log"
        self.log = open(self.log_path, "w")
        args = [cuzk, "serve", "--listen", listen, "--backend", "cpu",
                "--param-cache", params or f"{w}/params", "--status-listen", f"127.0.0.1:{self.status_port}",
                "--timeline", *(["--dev-keys"] if dev_keys else []), *extra]
        env = dict(os.environ, FIL_PROOFS_PARAMETER_CACHE="/nonexistent")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.channel = grpc.insecure_channel(target, options=[
            ("grpc.max_send_message_length", 256 << 20), ("grpc.max_receive_message_length", 256 << 20)])
        grpc.channel_ready_future(self.channel).result(timeout=30)
        self.stub = rpc.ProvingEngineStub(self.channel)

    def stop(self, sig=signal.SIGTERM, timeout=60):
        self.proc.send_signal(sig)
        rc = self.proc.wait(timeout=timeout)
        self.channel.close()
        self.log.close()
        return rc

    def text(self):
        with open(self.log_path) as f:
            return f.read()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# ---- requests as Curio builds them ----------------------------------------------------

def porep_request(w, rid=None, **over):
    with open(f"{w}/c1.json", "rb") as f:
        c1 = f.read()
    wrapper = {"SectorNum": SECTOR, "Phase1Out": base64.b64encode(c1).decode(), "SectorSize": 2048}
    r = pb.SubmitProofRequest(request_id=rid if rid is not None else f"porep-{MINER}-{SECTOR}",
                              proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048, registered_proof=5,
                              priority=pb.NORMAL, vanilla_proof=json.dumps(wrapper).encode(),
                              sector_number=SECTOR, miner_id=MINER)
    for k, v in over.items():
        setattr(r, k, v)
    return r


def snap_request(w, rid="snap-1000-8"):
    with open(f"{w}/snap/public.json") as f:
        pub = json.load(f)
    with open(f"{w}/snap/partition-0.vanilla", "rb") as f:
        part = f.read()
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.SNAP_DEALS_UPDATE, sector_size=2048,
                                 registered_proof=0, priority=pb.NORMAL, vanilla_proofs=[part], sector_number=8,
                                 miner_id=MINER, comm_r_old=bytes.fromhex(pub["comm_r_old"]),
                                 comm_r_new=bytes.fromhex(pub["comm_r_new"]),
                                 comm_d_new=bytes.fromhex(pub["comm_d_new"]))


def wpost_request(w, rid="wdpost-1000-0"):
    proofs = []
    for sid in (SECTOR, 9):
        with open(f"{w}/wpost/{sid}.vanilla", "rb") as f:
            proofs.append(f.read())
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINDOW_POST_PARTITION, sector_size=2048,
                                 registered_proof=10, priority=pb.HIGH, vanilla_proofs=proofs, miner_id=MINER,
                                 randomness=bytes.fromhex(RANDOMNESS), partition_index=0)


def winning_request(w, rid="winpost-1000"):
    with open(f"{w}/winning/9.vanilla", "rb") as f:
        proof = f.read()
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINNING_POST, sector_size=2048, registered_proof=0,
                                 priority=pb.CRITICAL, vanilla_proofs=[proof], miner_id=MINER,
                                 randomness=bytes.fromhex(RANDOMNESS))


def prove(d, req, timeout=300):
    return d.stub.Prove(pb.ProveRequest(submit=req), timeout=timeout).result


def comm_r(w, sid):
    with open(f"{w}/s{sid}/sector.json") as f:
        return json.load(f)["comm_r"]


# ---- modes ----------------------------------------------------------------------------

def mode_porep(cuzk, w):
    """PoRep C2 from a key file (made here: minutes on two cores), verified again by cuzk porep verify."""
    if not os.path.exists(f"{w}/porep.vk"):
        run([cuzk, "porep", "setup", "--sector-size", "2KiB", "--out", f"{w}/params/cuzk-porep-2k.params",
             "--vk", f"{w}/porep.vk.tmp"])
        os.rename(f"{w}/porep.vk.tmp", f"{w}/porep.vk")
        write_manifest(w)
    d = Daemon(cuzk, w, "porep", params=f"{w}/params")
    try:
        r = prove(d, porep_request(w))
        check(r.status == pb.AwaitProofResponse.COMPLETED, f"porep: {r.status} {r.error_message}")
        check(len(r.proof) == 192, f"porep: {len(r.proof)} bytes")
        with open(f"{w}/porep.proof", "wb") as f:
            f.write(r.proof)
        v = subprocess.run([cuzk, "porep", "verify", "--vk", f"{w}/porep.vk", "--proof", f"{w}/porep.proof",
                            "--c1", f"{w}/c1.json"], capture_output=True, text=True)
        check(v.returncode == 0 and "OK" in v.stdout, f"porep verify: {v.stdout} {v.stderr}")
        # The same C1 output under another miner: its replica id is not theirs.
        r = prove(d, porep_request(w, rid="porep-1001-7", miner_id=1001))
        check(r.status == pb.AwaitProofResponse.FAILED and "replica_id" in r.error_message,
              f"wrong miner: {r.status} {r.error_message}")
        # cuzk client: two proofs from two threads, the last verified again;
        # another miner's request fails with the reason.
        c = subprocess.run([cuzk, "client", "unix://" + d.sock, "porep-c2", f"{w}/c1.json", "--miner-id", str(MINER),
                            "--sector-number", str(SECTOR), "--clients", "2", "--proofs", "2", "--out",
                            f"{w}/porep-client.proof"], capture_output=True, text=True)
        check(c.returncode == 0 and "2 proofs from 2 clients" in c.stdout and "0 failed" in c.stdout,
              f"client porep-c2: {c.returncode} {c.stdout} {c.stderr}")
        v = subprocess.run([cuzk, "porep", "verify", "--vk", f"{w}/porep.vk", "--proof", f"{w}/porep-client.proof",
                            "--c1", f"{w}/c1.json"], capture_output=True, text=True)
        check(v.returncode == 0 and "OK" in v.stdout, f"client proof verify: {v.stdout} {v.stderr}")
        c = subprocess.run([cuzk, "client", "unix://" + d.sock, "porep-c2", f"{w}/c1.json", "--miner-id", "1001",
                            "--sector-number", str(SECTOR)], capture_output=True, text=True)
        check(c.returncode == 1 and "FAILED" in c.stdout and "replica_id" in c.stdout,
              f"client wrong miner: {c.returncode} {c.stdout}")
    finally:
        check(d.stop() == 0, "daemon exit status")


def mode_snap(cuzk, w):
    """SnapDeals with a development key (minutes on two cores), verified again with its verifying key."""
    os.makedirs(f"{w}/snap-params", exist_ok=True)
    d = Daemon(cuzk, w, "snap", params=f"{w}/snap-params")
    try:
        r = prove(d, snap_request(w))
        check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192, f"snap: {r.status} {r.error_message}")
        with open(f"{w}/snap.proof", "wb") as f:
            f.write(r.proof)
        with open(f"{w}/snap/public.json") as f:
            pub = json.load(f)
        verify = [cuzk, "update", "verify", "--proof", "StackedDrg2KiBV1", "--vk", f"{w}/snap-params/cuzk-snap-2k.dev.vk",
                  "--comm-r-old", pub["comm_r_old"], "--comm-r-new", pub["comm_r_new"]]
        v = subprocess.run(verify + ["--comm-d-new", pub["comm_d_new"], f"{w}/snap.proof"], capture_output=True, text=True)
        check(v.returncode == 0, f"update verify: {v.stdout} {v.stderr}")
        v = subprocess.run(verify + ["--comm-d-new", pub["comm_r_old"], f"{w}/snap.proof"], capture_output=True, text=True)
        check(v.returncode != 0, "the snap proof verified against another comm_d_new")
        bad = snap_request(w, rid="snap-tampered")
        bad.comm_d_new = bytes(bad.comm_r_old)
        r = prove(d, bad)
        check(r.status == pb.AwaitProofResponse.FAILED and r.error_message, f"tampered snap: {r.status}")
    finally:
        check(d.stop() == 0, "daemon exit status")


def mode_post(cuzk, w):
    """WindowPoSt from a key file (verified again by cuzk post verify) and WinningPoSt with a development key."""
    d = Daemon(cuzk, w, "post")
    try:
        r = prove(d, wpost_request(w))
        check(r.status == pb.AwaitProofResponse.COMPLETED, f"wpost: {r.status} {r.error_message}")
        with open(f"{w}/wpost.proof", "wb") as f:
            f.write(r.proof)
        sectors = f"{SECTOR}:{comm_r(w, SECTOR)},9:{comm_r(w, 9)}"
        verify = [cuzk, "post", "verify", "--proof", "StackedDrgWindow2KiBV1_2", "--vk", f"{w}/wpost.vk",
                  "--sectors", sectors, f"{w}/wpost.proof", "--randomness"]
        v = subprocess.run(verify + [RANDOMNESS], capture_output=True, text=True)
        check(v.returncode == 0, f"post verify: {v.stdout} {v.stderr}")
        v = subprocess.run(verify + ["0a" + RANDOMNESS[2:]], capture_output=True, text=True)
        check(v.returncode != 0, "the WindowPoSt proof verified against another randomness")
        r = prove(d, winning_request(w))
        check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192,
              f"winning: {r.status} {r.error_message}")
        check(os.path.exists(f"{w}/params/cuzk-winning-2k.dev.vk"), "no .dev.vk beside the development key")
        bad = wpost_request(w, rid="wpost-tampered")
        bad.randomness = bytes.fromhex("0a" + RANDOMNESS[2:])
        r = prove(d, bad)
        check(r.status == pb.AwaitProofResponse.FAILED and "sector" in r.error_message, f"tampered wpost: {r.status}")
        check("TIMELINE," in d.text(), "no TIMELINE lines on stderr")
        wf = subprocess.run([cuzk, "waterfall", d.log_path], capture_output=True, text=True)
        check(wf.returncode == 0, f"cuzk waterfall of the daemon's log: {wf.stderr}")
    finally:
        check(d.stop() == 0, "daemon exit status")


def mode_api(cuzk, w):
    d = Daemon(cuzk, w, "api", extra=["--keep-results", "600"])
    try:
        s = d.stub
        # Preload: not loaded, then loaded; an unknown id is refused.
        p = s.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"))
        check(not p.already_loaded, "preload: already loaded at first")
        p = s.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"))
        check(p.already_loaded, "preload: not loaded the second time")
        # cuzk client: status, preload, a wrong command line.
        c = subprocess.run([cuzk, "client", "unix://" + d.sock, "status"], capture_output=True, text=True)
        check(c.returncode == 0 and "key wpost-2k: HOT" in c.stdout and "proofs: " in c.stdout,
              f"client status: {c.returncode} {c.stdout} {c.stderr}")
        c = subprocess.run([cuzk, "client", "unix://" + d.sock, "preload", "wpost-2k"], capture_output=True, text=True)
        check(c.returncode == 0 and "already loaded" in c.stdout, f"client preload: {c.stdout} {c.stderr}")
        c = subprocess.run([cuzk, "client", "unix://" + d.sock, "porep-c2", f"{w}/c1.json"], capture_output=True,
                           text=True)
        check(c.returncode == 2 and "--miner-id" in c.stderr, f"client usage: {c.returncode} {c.stderr}")
        expect_code(lambda: s.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-3g")), grpc.StatusCode.INVALID_ARGUMENT,
                    "circuit_id")

        # Submit, then Await with a timeout too short for the proof, then to the end.
        sub = s.SubmitProof(wpost_request(w, rid="job a"))
        check(sub.job_id == "job a", f"submit: job id {sub.job_id}")
        a = s.AwaitProof(pb.AwaitProofRequest(job_id="job a", timeout_ms=1))
        check(a.status == pb.AwaitProofResponse.TIMEOUT, f"await 1 ms: {a.status}")
        a = s.AwaitProof(pb.AwaitProofRequest(job_id="job a", timeout_ms=120000))
        check(a.status == pb.AwaitProofResponse.COMPLETED, f"await: {a.status} {a.error_message}")
        expect_code(lambda: s.AwaitProof(pb.AwaitProofRequest(job_id="nope")), grpc.StatusCode.NOT_FOUND, "nope")

        # A repeated id attaches: the same proof bytes (a new proof would differ: Groth16 is randomised).
        again = prove(d, wpost_request(w, rid="job a"))
        check(again.proof == a.proof, "repeated id proved again instead of attaching")
        other = wpost_request(w, rid="job a")
        other.partition_index = 1
        expect_code(lambda: s.SubmitProof(other), grpc.StatusCode.INVALID_ARGUMENT, "request_id")
        # An empty id gets a generated one.
        sub = s.SubmitProof(wpost_request(w, rid=""))
        check(sub.job_id != "", "no generated job id")

        # A Prove client that gives up (its deadline) leaves the job running.
        expect_code(lambda: s.Prove(pb.ProveRequest(submit=wpost_request(w, rid="impatient")), timeout=0.05),
                    grpc.StatusCode.DEADLINE_EXCEEDED, "")
        a = s.AwaitProof(pb.AwaitProofRequest(job_id="impatient", timeout_ms=120000))
        check(a.status == pb.AwaitProofResponse.COMPLETED, f"job of a gone client: {a.status} {a.error_message}")

        # Cancel: a queue of jobs, the last ones cancelled while queued.
        ids = [f"c{i}" for i in range(6)]
        for i in ids:
            s.SubmitProof(wpost_request(w, rid=i))
        st = s.GetStatus(pb.GetStatusRequest())
        q = {x.proof_kind: x for x in st.queues}
        check("window-post" in q and q["window-post"].pending + q["window-post"].in_progress >= 1,
              f"status queues: {st.queues}")
        c = s.CancelProof(pb.CancelProofRequest(job_id="c5"))
        check(c.was_running, "cancel c5: was_running false")
        a = s.AwaitProof(pb.AwaitProofRequest(job_id="c5", timeout_ms=60000))
        check(a.status == pb.AwaitProofResponse.CANCELLED, f"cancelled job: {a.status}")
        c = s.CancelProof(pb.CancelProofRequest(job_id="c5"))
        check(not c.was_running, "cancel twice: was_running true")
        a = s.AwaitProof(pb.AwaitProofRequest(job_id="c0", timeout_ms=120000))
        check(a.status == pb.AwaitProofResponse.COMPLETED, f"c0 after a cancel: {a.status}")
        # A cancelled id runs again when submitted again (Curio's retry).
        r = prove(d, wpost_request(w, rid="c5"))
        check(r.status == pb.AwaitProofResponse.COMPLETED, f"c5 retried: {r.status} {r.error_message}")
        for i in ids[1:5]:
            s.AwaitProof(pb.AwaitProofRequest(job_id=i, timeout_ms=120000))

        st = s.GetStatus(pb.GetStatusRequest())
        check(st.total_proofs_completed >= 7, f"status completed {st.total_proofs_completed}")
        keys = {k.circuit_id: k for k in st.loaded_srs}
        check("wpost-2k" in keys and keys["wpost-2k"].size_bytes > 0, f"status keys: {st.loaded_srs}")
        m = s.GetMetrics(pb.GetMetricsRequest()).prometheus_text
        for name in ("cuzk_proofs_completed_total", "cuzk_proofs_failed_total", "cuzk_uptime_seconds",
                     "cuzk_queue_depth", 'cuzk_proofs_completed{proof_kind="window_post"}',
                     'cuzk_proof_duration_seconds_count{proof_kind="window_post"}',
                     'cuzk_proof_duration_seconds_sum{proof_kind="window_post"}', "cuzk_running_jobs",
                     "cuzk_gpu_workers", 'cuzk_device_utilisation{device="0"}', "cuzk_timeline_window_seconds",
                     'cuzk_timeline_utilisation{device="0"}',
                     'cuzk_device_idle_seconds{device="0",cause="no_partition_ready"}'):
            check(name in m, f"metrics: no {name}")
        http = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{d.status_port}/status", timeout=10).read())
        check(int(http["totalProofsCompleted"]) >= st.total_proofs_completed and http["loadedSrs"], f"HTTP /status: {http}")
        text = urllib.request.urlopen(f"http://127.0.0.1:{d.status_port}/metrics", timeout=10).read().decode()
        check("cuzk_proofs_completed_total" in text, "HTTP /metrics")

        # Evict: the bytes freed; a second evict finds nothing; the next proof loads it again.
        e = s.EvictSRS(pb.EvictSrsRequest(circuit_id="wpost-2k"))
        check(e.was_loaded and e.freed_bytes == keys["wpost-2k"].size_bytes, f"evict: {e}")
        e = s.EvictSRS(pb.EvictSrsRequest(circuit_id="wpost-2k"))
        check(not e.was_loaded and e.freed_bytes == 0, f"evict twice: {e}")
        r = prove(d, wpost_request(w, rid="after evict"))
        check(r.status == pb.AwaitProofResponse.COMPLETED and r.srs_load_ms > 0,
              f"after evict: {r.status} {r.error_message} (srs_load_ms {r.srs_load_ms})")
    finally:
        check(d.stop() == 0, "daemon exit status")

    # A config file: curio's keys, an unknown key named in a warning, and
    # cancel_on_disconnect: a Prove client that gives up cancels its job.
    with open(f"{w}/cuzk.toml", "w") as f:
        f.write('[daemon]\nlisten = "unix:///nowhere.sock"\n[jobs]\ncancel_on_disconnect = true\n'
                '[gpus]\ngpu_workers_per_device = 1\n[mystery]\nknob = 3\n')
    d = Daemon(cuzk, w, "api-config", extra=["--config", f"{w}/cuzk.toml"])
    try:
        expect_code(lambda: d.stub.Prove(pb.ProveRequest(submit=wpost_request(w, rid="impatient")), timeout=0.05),
                    grpc.StatusCode.DEADLINE_EXCEEDED, "")
        a = d.stub.AwaitProof(pb.AwaitProofRequest(job_id="impatient", timeout_ms=120000))
        check(a.status == pb.AwaitProofResponse.CANCELLED, f"cancel_on_disconnect: {a.status} {a.error_message}")
        m = d.stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text
        check("cuzk_gpu_workers 1" in m, "gpus.gpu_workers_per_device = 1 not applied")
    finally:
        check(d.stop() == 0, "daemon exit status")
    check("mystery.knob: unknown key" in d.text(), "no warning for an unknown config key")

    # Key files: a digest that does not match parameters.json, and no file at all without --dev-keys.
    params = f"{w}/params-bad"
    shutil.rmtree(params, ignore_errors=True)
    os.makedirs(params)
    shutil.copy(f"{w}/params/cuzk-wpost-2k.params", params)
    with open(f"{params}/parameters.json", "w") as f:
        json.dump({"cuzk-wpost-2k.params": {"cid": "", "digest": "0" * 32, "sector_size": 2048}}, f)
    d = Daemon(cuzk, w, "api-keys", params=params)
    try:
        r = prove(d, wpost_request(w))
        check(r.status == pb.AwaitProofResponse.FAILED and "digest" in r.error_message,
              f"digest mismatch: {r.status} {r.error_message}")
    finally:
        check(d.stop() == 0, "daemon exit status")
    os.remove(f"{params}/cuzk-wpost-2k.params")
    d = Daemon(cuzk, w, "api-nokeys", params=params, dev_keys=False)
    try:
        r = prove(d, wpost_request(w))
        check(r.status == pb.AwaitProofResponse.FAILED and "cuzk-wpost-2k.params" in r.error_message,
              f"missing key file: {r.status} {r.error_message}")
        expect_code(lambda: d.stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="snap-2k")), grpc.StatusCode.NOT_FOUND,
                    "cuzk-snap-2k.params")
    finally:
        check(d.stop() == 0, "daemon exit status")


def expect_code(call, code, needle):
    try:
        call()
    except grpc.RpcError as e:
        check(e.code() == code, f"expected {code}, got {e.code()}: {e.details()}")
        check(needle in (e.details() or ""), f"the message does not name '{needle}': {e.details()}")
        return e.details()
    check(False, f"expected {code} naming {needle}, the call succeeded")
    return ""


def mode_bad(cuzk, w):
    d = Daemon(cuzk, w, "bad", tcp=True)   # over TCP
    try:
        s = d.stub
        inv = grpc.StatusCode.INVALID_ARGUMENT

        def submit(r):
            return lambda: s.SubmitProof(r)

        expect_code(lambda: s.Prove(pb.ProveRequest()), inv, "submit")
        r = porep_request(w)
        r.proof_kind = pb.PROOF_KIND_UNSPECIFIED
        expect_code(submit(r), inv, "proof_kind")
        expect_code(submit(porep_request(w, registered_proof=42)), inv, "registered_proof")
        expect_code(submit(porep_request(w, registered_proof=8)), inv, "sector_size")
        expect_code(submit(porep_request(w, sector_size=4096)), inv, "sector_size")
        expect_code(submit(porep_request(w, sector_number=99)), inv, "SectorNum")
        expect_code(submit(porep_request(w, vanilla_proof=b"")), inv, "vanilla_proof")
        expect_code(submit(porep_request(w, vanilla_proof=b"{\"SectorNum\": 7, \"Phase1")), inv, "vanilla_proof")
        expect_code(submit(porep_request(w, vanilla_proof=b"\xff\xfe garbage")), inv, "vanilla_proof")
        wrapper = {"SectorNum": SECTOR, "Phase1Out": "not base64!", "SectorSize": 2048}
        expect_code(submit(porep_request(w, vanilla_proof=json.dumps(wrapper).encode())), inv, "Phase1Out")
        with open(f"{w}/c1.json", "rb") as f:
            c1 = f.read()
        wrapper["Phase1Out"] = base64.b64encode(c1[: len(c1) // 2]).decode()
        expect_code(submit(porep_request(w, vanilla_proof=json.dumps(wrapper).encode())), inv, "Phase1Out")
        r = snap_request(w)
        r.comm_r_old = b"\x01" * 31
        expect_code(submit(r), inv, "comm_r_old")
        r = snap_request(w)
        r.vanilla_proofs[0] = r.vanilla_proofs[0][:1000]
        expect_code(submit(r), inv, "vanilla_proofs[0]")
        r = snap_request(w)
        r.vanilla_proofs.append(b"x")
        expect_code(submit(r), inv, "vanilla_proofs")
        r = wpost_request(w)
        r.randomness = b"\x00" * 16
        expect_code(submit(r), inv, "randomness")
        r = wpost_request(w)
        r.vanilla_proofs[1] = os.urandom(len(r.vanilla_proofs[1]))
        expect_code(submit(r), inv, "vanilla_proofs[1]")
        r = wpost_request(w)
        del r.vanilla_proofs[:]
        expect_code(submit(r), inv, "vanilla_proofs")
        r = wpost_request(w)
        r.registered_proof = 3
        expect_code(submit(r), inv, "registered_proof")
        r = winning_request(w)
        r.partition_index = 2
        expect_code(submit(r), inv, "partition_index")
        r = wpost_request(w)
        r.vanilla_proofs[0] = r.vanilla_proofs[0] + b"\x00"
        expect_code(submit(r), inv, "vanilla_proofs[0]")

        # A message near Curio's limit is accepted by the transport (and refused by the decoder).
        big = porep_request(w, vanilla_proof=b"{" + b" " * (200 << 20))
        expect_code(submit(big), inv, "vanilla_proof")

        # The daemon still proves.
        r = prove(d, wpost_request(w))
        check(r.status == pb.AwaitProofResponse.COMPLETED, f"after bad requests: {r.status} {r.error_message}")
    finally:
        check(d.stop() == 0, "daemon exit status")


def mode_concurrent(cuzk, w, calls=200, jobs=20):
    """`calls` Prove calls at once over `jobs` distinct request ids (the others attach to those jobs)."""
    d = Daemon(cuzk, w, f"concurrent-{jobs}")
    try:
        d.stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"))
        t0 = time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=calls) as ex:
            futs = {ex.submit(prove, d, wpost_request(w, rid=f"wdpost-{i % jobs}"), 900): i for i in range(calls)}
            results = {futs[f]: f.result() for f in concurrent.futures.as_completed(futs)}
        done = [i for i, r in results.items() if r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192]
        check(len(done) == calls, f"{calls - len(done)} of {calls} concurrent Prove calls lost or failed")
        by_id = {}
        for i, r in results.items():
            by_id.setdefault(r.job_id, set()).add(r.proof)
        check(len(by_id) == jobs and all(len(p) == 1 for p in by_id.values()),
              f"{len(by_id)} job ids (expected {jobs}), each with one proof")
        print(f"{calls} concurrent Prove calls over {jobs} jobs: {len(done)} completed in {time.time() - t0:.1f} s")
        st = d.stub.GetStatus(pb.GetStatusRequest())
        check(st.total_proofs_completed == jobs, f"status: {st.total_proofs_completed} proofs completed, expected {jobs}")
    finally:
        check(d.stop() == 0, "daemon exit status")


def mode_concurrent200(cuzk, w):
    mode_concurrent(cuzk, w, calls=200, jobs=200)


def mode_sigterm(cuzk, w):
    # With time to finish: the jobs in progress complete, new ones are refused.
    d = Daemon(cuzk, w, "sigterm", extra=["--grace", "120"])
    d.stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"))
    ex = concurrent.futures.ThreadPoolExecutor(max_workers=4)
    futs = [ex.submit(prove, d, wpost_request(w, rid=f"t{i}")) for i in range(4)]
    time.sleep(0.3)
    d.proc.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    if d.proc.poll() is None:
        try:
            d.stub.SubmitProof(wpost_request(w, rid="late"), timeout=10)
            check(False, "a job was accepted after SIGTERM")
        except grpc.RpcError as e:
            check(e.code() in (grpc.StatusCode.UNAVAILABLE,), f"after SIGTERM: {e.code()} {e.details()}")
    for f in futs:
        r = f.result()
        check(r.status == pb.AwaitProofResponse.COMPLETED, f"job during SIGTERM: {r.status} {r.error_message}")
    check(d.proc.wait(timeout=120) == 0, "exit status after SIGTERM")
    check(not os.path.exists(d.sock), "the socket file is left behind")
    d.log.close()

    # No grace: what has not finished is cancelled, and the clients hear so.
    d = Daemon(cuzk, w, "sigterm0", extra=["--grace", "0"])
    d.stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"))
    futs = [ex.submit(prove, d, wpost_request(w, rid=f"u{i}")) for i in range(8)]
    time.sleep(0.5)
    d.proc.send_signal(signal.SIGTERM)
    statuses = []
    for f in futs:
        try:
            statuses.append(f.result().status)
        except grpc.RpcError as e:
            statuses.append(e.code())
    check(pb.AwaitProofResponse.CANCELLED in statuses, f"grace 0: no job cancelled: {statuses}")
    check(d.proc.wait(timeout=120) == 0, "exit status after SIGTERM with grace 0")
    d.log.close()
    # A stale socket (left by a killed daemon) is removed at start.
    d = Daemon(cuzk, w, "stale")
    d.proc.kill()
    d.proc.wait()
    d.log.close()
    check(os.path.exists(d.sock), "no socket file after kill")
    d = Daemon(cuzk, w, "stale")
    check(d.stop() == 0, "restart over a stale socket")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--proto", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("mode")
    a = ap.parse_args()
    if a.mode == "inputs":
        make_inputs(a.cuzk, a.work)
        return 0
    gen = f"{a.work}/gen-{a.mode}"
    os.makedirs(gen, exist_ok=True)
    run(["protoc", "-I", a.proto, f"--python_out={gen}", f"--grpc_python_out={gen}",
         "--plugin=protoc-gen-grpc_python=" + shutil.which("grpc_python_plugin"), f"{a.proto}/cuzk/v1/proving.proto"])
    sys.path.insert(0, gen)
    global grpc, pb, rpc
    import grpc
    from cuzk.v1 import proving_pb2 as pb
    from cuzk.v1 import proving_pb2_grpc as rpc
    if not os.path.exists(f"{a.work}/inputs.done"):
        make_inputs(a.cuzk, a.work)
    {"porep": mode_porep, "snap": mode_snap, "post": mode_post, "api": mode_api, "bad": mode_bad, "concurrent": mode_concurrent, "concurrent200": mode_concurrent200,
     "sigterm": mode_sigterm}[a.mode](a.cuzk, a.work)
    if FAILS:
        print(f"{len(FAILS)} check(s) failed")
        return 1
    print(f"daemon {a.mode}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
