//! Filecoin PoSt, the way a Curio WindowPoSt task does it: the vanilla
//! proofs of a partition's sectors (the bytes filecoin-proofs-api's
//! generate_single_vanilla_proof returns, one per sector) are proved under a
//! key of the proof type with the randomness, and the 192-byte proof is
//! verified from the sectors' public values (sector numbers and comm_r).
//! Here: the 2 KiB WindowPoSt V1_2 proofs `<prefix>-window-0.vanilla` and
//! `-1.vanilla` that test_capi_post_fixture writes (randomness 0x05 × 31 ‖
//! 0x00), one partition, under a development key on a cpu engine.

use std::convert::TryInto;
use std::time::Instant;

use cuzk::{ffi, Engine, Key, PostShape, PROOF_SIZE};

const REGISTERED: i32 = 10; // StackedDrgWindow2KiBV1_2

/// 31 bytes `b`, then 0x00 (a field element's bytes).
fn randomness(b: u8) -> [u8; 32] {
    let mut r = [b; 32];
    r[31] = 0;
    r
}

/// The public values at the start of a vanilla proof (bincode of
/// FallbackPoStSectorProof): the sector number (u64 LE) and comm_r.
fn vanilla_sector(v: &[u8]) -> Option<(u64, [u8; 32])> {
    if v.len() < 40 {
        return None;
    }
    Some((u64::from_le_bytes(v[..8].try_into().ok()?), v[8..40].try_into().ok()?))
}

/// Proves and verifies the fixture's window proofs; returns the number of sectors.
pub fn run(prefix: &str) -> Result<usize, Box<dyn std::error::Error>> {
    let mut vanilla = Vec::new();
    let (mut ids, mut comm_rs) = (Vec::new(), Vec::new());
    for i in 0..2 {
        let path = format!("{}-window-{}.vanilla", prefix, i);
        let v = std::fs::read(&path).map_err(|e| format!("{}: {}", path, e))?;
        let (id, comm_r) =
            vanilla_sector(&v).ok_or_else(|| format!("{}: a vanilla proof of {} bytes (at least 40 expected)", path, v.len()))?;
        vanilla.push(v);
        ids.push(id);
        comm_rs.push(comm_r);
    }
    let shape = PostShape::registered(REGISTERED)?;
    let r = randomness(5);
    let challenges = shape.sector_challenges(&r, &ids)?;
    if challenges.len() != ids.len() || challenges.iter().any(|c| c.len() != shape.challenge_count()) {
        return Err(format!("post: challenge lists {:?}, expected {} of {}", challenges, ids.len(), shape.challenge_count()).into());
    }
    let t0 = Instant::now();
    let key = Key::post_setup_dev(&shape)?;
    println!(
        "cuzk-rust: post: WindowPoSt (registered {}): {} nodes, {} sectors x {} challenges a partition: development key in {:.1} s",
        shape.registered_proof(),
        shape.nodes(),
        shape.sector_count(),
        shape.challenge_count(),
        t0.elapsed().as_secs_f64()
    );

    // Faulty sectors are found by number before anything is proved.
    let (faulty, _) = shape.check_vanilla(&r, &vanilla, 0)?;
    if !faulty.is_empty() {
        return Err(format!("post: good vanilla proofs reported faulty: {:?}", faulty).into());
    }
    let mut damaged = vanilla.clone();
    damaged[1][8] ^= 1; // comm_r
    let (faulty, why) = shape.check_vanilla(&r, &damaged, 0)?;
    if faulty != vec![ids[1]] {
        return Err(format!("post: sector {} damaged, faulty {:?} ({})", ids[1], faulty, why).into());
    }

    let engine = Engine::new(None, None)?; // default options: the cpu backend
    let id = engine.add_post_key(&key, "post")?;
    // Vanilla proofs of another randomness are refused before anything is queued.
    match engine.post_submit(id, &randomness(7), &vanilla, 0) {
        Err(e) if e.code == ffi::CUZK_ERR_BAD_FORMAT as i32 => {}
        Err(e) => return Err(format!("post: submit for another randomness gave {}, expected bad_format", e).into()),
        Ok(_) => return Err("post: submit for another randomness was accepted, expected bad_format".into()),
    }
    let t0 = Instant::now();
    let job = engine.post_submit(id, &r, &vanilla, 0)?;
    job.wait()?;
    let proof = job.proofs()?;
    if proof.len() != PROOF_SIZE {
        return Err(format!("post: proof of {} bytes, one partition needs {}", proof.len(), PROOF_SIZE).into());
    }
    let elapsed = t0.elapsed();
    if !key.post_verify(&shape, &r, &ids, &comm_rs, 0, &proof)? {
        return Err("post: the proof does not verify".into());
    }
    if key.post_verify(&shape, &randomness(6), &ids, &comm_rs, 0, &proof)? {
        return Err("post: the proof verified for another randomness".into());
    }
    println!(
        "cuzk-rust: post: sectors {:?} (challenges {:?}, {:?}): {}-byte proof in {:.1} s, verified; rejected for another randomness",
        ids,
        challenges[0],
        challenges[1],
        proof.len(),
        elapsed.as_secs_f64()
    );
    Ok(ids.len())
}
