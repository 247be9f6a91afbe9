//! Proves on the CPU backend through the safe API: the built-in SHA-256
//! circuit (one 48-byte block) with a timeline callback and buffer, a
//! borrowed canonical witness, error paths; with CUZK_POST_VANILLA=PREFIX
//! (the files test_capi_post_fixture writes) also a 2 KiB WindowPoSt.

use std::convert::TryInto;
use std::sync::{Arc, Mutex};

use cuzk::{ffi, BorrowedPartition, Engine, Event, Key, Pce, PostShape, TimelineBuffer, Witness, PROOF_SIZE};

const PREIMAGE_LEN: usize = 48;

/// The SHA-256 circuit and its development key, made once for all tests.
fn sha_key() -> Arc<(Pce, Key)> {
    static KEY: Mutex<Option<Arc<(Pce, Key)>>> = Mutex::new(None);
    let mut k = KEY.lock().unwrap_or_else(|e| e.into_inner());
    if k.is_none() {
        let pce = Pce::sha256(PREIMAGE_LEN).expect("SHA-256 circuit");
        let key = Key::setup_dev(&pce).expect("development key");
        *k = Some(Arc::new((pce, key)));
    }
    Arc::clone(k.as_ref().unwrap())
}

fn message(j: usize, p: usize) -> Vec<u8> {
    let mut m = format!("cuzk rust test: job {}, partition {}", j, p).into_bytes();
    m.resize(PREIMAGE_LEN, b'.');
    m
}

#[test]
fn abi() {
    cuzk::check_abi().expect("the loaded libcuzk's ABI");
    assert_eq!(cuzk::library_abi_version(), cuzk::ABI_VERSION);
    assert!(cuzk::build_info().contains("abi"));
    assert_eq!(cuzk::status_name(ffi::CUZK_ERR_BAD_FORMAT), "bad_format");
    assert_eq!(cuzk::status_name(cuzk::ERR_ABI_MISMATCH), "abi_mismatch");
}

#[test]
fn errors() {
    let e = cuzk::PorepShape::of_c1(br#"{"not": "a C1 output"}"#).unwrap_err();
    assert_eq!(e.code, ffi::CUZK_ERR_BAD_FORMAT, "{}", e);
    assert!(!e.msg.is_empty() && e.to_string().contains("bad_format"), "{}", e);
    assert_eq!(PostShape::registered(99).unwrap_err().code, ffi::CUZK_ERR_INVALID_ARGUMENT);

    let k = sha_key();
    let engine = Engine::new(None, None).unwrap();
    let id = engine.add_key(&k.1, &k.0, "sha256").unwrap();
    let w = cuzk::sha256_witness(&message(0, 0)).unwrap();
    let e = engine.submit(id + 7, "bad-key", std::slice::from_ref(&w)).err().expect("an unknown key is refused");
    assert!(!e.msg.is_empty(), "{}", e);
    let mut bad = Witness { inputs: w.inputs.clone(), aux: w.aux.clone() };
    bad.aux[0] ^= 1;
    let job = engine.submit(id, "unsatisfied", &[w, bad]).unwrap();
    let e = job.wait().unwrap_err();
    assert!(e.op.contains("partition 1"), "an unsatisfied witness: {}", e);
    // A removed key: its host bytes named, its id refused from then on.
    let r = engine.remove_key(id).unwrap();
    assert!(r.host_bytes > 0, "{:?}", r);
    assert_eq!(engine.remove_key(id).unwrap_err().code, ffi::CUZK_ERR_INVALID_ARGUMENT);
    let w = cuzk::sha256_witness(&message(0, 0)).unwrap();
    assert_eq!(engine.submit(id, "removed", std::slice::from_ref(&w)).err().expect("refused").code,
               ffi::CUZK_ERR_INVALID_ARGUMENT);
}

#[test]
fn engine_and_timeline() {
    const JOBS: usize = 2;
    const PARTS: usize = 2;
    let k = sha_key();
    let (pce, key) = (&k.0, &k.1);
    let mut buffer = TimelineBuffer::new(1 << 14).unwrap();
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&seen);
    let engine = Engine::new(
        Some(Box::new(move |ev: Event| sink.lock().unwrap_or_else(|e| e.into_inner()).push(ev.name))),
        Some(&buffer),
    )
    .unwrap();
    let id = engine.add_key(key, pce, "sha256").unwrap();
    assert_eq!(engine.key_placement(id).unwrap().0, "host");
    let jobs: Vec<_> = (0..JOBS)
        .map(|j| {
            let parts: Vec<Witness> = (0..PARTS).map(|p| cuzk::sha256_witness(&message(j, p)).unwrap()).collect();
            engine.submit(id, &format!("rust-test-{}", j), &parts).unwrap()
        })
        .collect();
    for job in &jobs {
        job.wait().unwrap();
    }
    for (j, job) in jobs.iter().enumerate() {
        assert_eq!(job.id(), format!("rust-test-{}", j));
        let all = job.proofs().unwrap();
        assert_eq!(all.len(), PARTS * PROOF_SIZE);
        for p in 0..PARTS {
            let proof = job.proof(p).unwrap();
            assert_eq!(&all[p * PROOF_SIZE..(p + 1) * PROOF_SIZE], &proof[..]);
            let public = job.public_inputs(p).unwrap();
            assert!(key.verify(&proof, &public).unwrap(), "job {} partition {}", j, p);
            let other = jobs[(j + 1) % JOBS].public_inputs(p).unwrap();
            assert!(!key.verify(&proof, &other).unwrap(), "verified against other inputs");
        }
    }
    drop(jobs);
    drop(engine); // no callback after this
    let drained = buffer.drain().unwrap();
    let dropped = buffer.dropped().unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(drained.len() as u64 + dropped, seen.len() as u64);
    for (name, want) in [("JOB_SUBMIT", JOBS), ("JOB_DONE", JOBS), ("SYNTH_START", JOBS * PARTS), ("GPU_END", JOBS * PARTS)] {
        assert_eq!(seen.iter().filter(|n| *n == name).count(), want, "{} events", name);
    }
}

#[test]
fn borrowed_witness() {
    let k = sha_key();
    let engine = Engine::new(None, None).unwrap();
    let id = engine.add_key(&k.1, &k.0, "sha256").unwrap();
    let ws: Vec<Witness> = (0..2).map(|p| cuzk::sha256_witness(&message(5, p)).unwrap()).collect();
    let parts: Vec<BorrowedPartition> = ws.iter().map(|w| BorrowedPartition::witness_canonical(&w.inputs, &w.aux)).collect();
    let job = engine.prove_borrowed(id, "borrowed", &parts).unwrap(); // every partition released by now
    job.wait().unwrap();
    for p in 0..2 {
        assert!(k.1.verify(&job.proof(p).unwrap(), &job.public_inputs(p).unwrap()).unwrap(), "partition {}", p);
    }
    // A refused submit borrows nothing and reports the engine's text.
    let e = engine.prove_borrowed(id + 7, "bad", &parts).err().expect("an unknown key is refused");
    assert!(!e.msg.is_empty(), "{}", e);
}

#[test]
fn post_window_2kib() {
    let prefix = match std::env::var("CUZK_POST_VANILLA") {
        Ok(p) if !p.is_empty() => p,
        _ => {
            eprintln!("skipped: CUZK_POST_VANILLA not set (test_capi_post_fixture PREFIX writes the files)");
            return;
        }
    };
    let vanilla: Vec<Vec<u8>> =
        (0..2).map(|i| std::fs::read(format!("{}-window-{}.vanilla", prefix, i)).expect("vanilla proof")).collect();
    let ids: Vec<u64> = vanilla.iter().map(|v| u64::from_le_bytes(v[..8].try_into().unwrap())).collect();
    let comm_rs: Vec<[u8; 32]> = vanilla.iter().map(|v| v[8..40].try_into().unwrap()).collect();
    let mut r = [5u8; 32];
    r[31] = 0;
    let shape = PostShape::registered(10).unwrap(); // StackedDrgWindow2KiBV1_2
    let (faulty, _) = shape.check_vanilla(&r, &vanilla, 0).unwrap();
    assert!(faulty.is_empty(), "faulty {:?}", faulty);
    let key = Key::post_setup_dev(&shape).unwrap();
    let engine = Engine::new(None, None).unwrap();
    let id = engine.add_post_key(&key, "post").unwrap();
    let job = engine.post_submit(id, &r, &vanilla, 0).unwrap();
    job.wait().unwrap();
    let proof = job.proofs().unwrap();
    assert!(key.post_verify(&shape, &r, &ids, &comm_rs, 0, &proof).unwrap());
    r[0] ^= 1;
    assert!(!key.post_verify(&shape, &r, &ids, &comm_rs, 0, &proof).unwrap());
}
