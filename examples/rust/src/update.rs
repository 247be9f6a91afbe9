//! Filecoin SnapDeals (EmptySectorUpdate), the way a Curio update-prove task
//! does it: the vanilla partition proofs of a sector's update (the bytes
//! filecoin-proofs-api's generate_partition_proofs returns, one per
//! partition) are proved under an update key of the proof type with the
//! update's commitments (comm_r_old, comm_d_new, comm_r_new), and the proof
//! (192 bytes a partition) is verified from the same commitments.
//! Here: the 2 KiB update (StackedDrg2KiBV1, h = 1) that
//! test_capi_update_fixture writes, `<prefix>-update-0.vanilla` (its one
//! partition) and `<prefix>-update.public` (comm_r_old ‖ comm_d_new ‖
//! comm_r_new), under a development key on a cpu engine.

use std::convert::TryInto;
use std::time::Instant;

use cuzk::{ffi, registered_update, Engine, Key, PROOF_SIZE};

const REGISTERED: i32 = registered_update::STACKED_DRG_2KIB_V1;
const H: u32 = 1; // the fixture's; 0 would mean the same for 2 KiB

/// Proves and verifies the fixture's update; returns the number of partitions.
pub fn run(prefix: &str) -> Result<usize, Box<dyn std::error::Error>> {
    let path = format!("{}-update-0.vanilla", prefix);
    let v = std::fs::read(&path).map_err(|e| format!("{}: {}", path, e))?;
    let vanilla = vec![v];
    let pub_path = format!("{}-update.public", prefix);
    let public = std::fs::read(&pub_path).map_err(|e| format!("{}: {}", pub_path, e))?;
    if public.len() != 96 {
        return Err(format!("{}: {} bytes, expected 96 (comm_r_old, comm_d_new, comm_r_new)", pub_path, public.len()).into());
    }
    let comm = |i: usize| -> [u8; 32] { public[32 * i..32 * (i + 1)].try_into().expect("32 bytes") };
    let (comm_r_old, comm_d_new, comm_r_new) = (comm(0), comm(1), comm(2));

    let t0 = Instant::now();
    let key = Key::update_setup_dev(REGISTERED)?;
    println!(
        "cuzk-rust: update: SnapDeals (registered update proof {}), {} partition(s) of {} bytes: development key in {:.1} s",
        REGISTERED,
        vanilla.len(),
        vanilla[0].len(),
        t0.elapsed().as_secs_f64()
    );

    let engine = Engine::new(None, None)?; // default options: the cpu backend
    let id = engine.add_update_key(&key, "update")?;
    // A truncated vanilla proof is refused before anything is queued, naming it.
    let truncated = [&vanilla[0][..vanilla[0].len() - 1]];
    match engine.update_submit(id, &comm_r_old, &comm_d_new, &comm_r_new, H, &truncated) {
        Err(e) if e.code == ffi::CUZK_ERR_BAD_LENGTH as i32 && e.msg.contains("vanilla[0]") => {}
        Err(e) => {
            return Err(format!("update: submit of a truncated vanilla proof gave {}, expected bad_length naming vanilla[0]", e).into())
        }
        Ok(_) => return Err("update: submit of a truncated vanilla proof was accepted, expected bad_length".into()),
    }
    let t0 = Instant::now();
    let job = engine.update_submit(id, &comm_r_old, &comm_d_new, &comm_r_new, H, &vanilla)?;
    job.wait()?;
    let proof = job.proofs()?;
    if proof.len() != vanilla.len() * PROOF_SIZE {
        return Err(format!(
            "update: proof of {} bytes, {} partition(s) need {}",
            proof.len(),
            vanilla.len(),
            vanilla.len() * PROOF_SIZE
        )
        .into());
    }
    let elapsed = t0.elapsed();
    if !key.update_verify(REGISTERED, &comm_r_old, &comm_d_new, &comm_r_new, H, &proof)? {
        return Err("update: the proof does not verify".into());
    }
    if !key.update_verify(REGISTERED, &comm_r_old, &comm_d_new, &comm_r_new, 0, &proof)? {
        return Err("update: the proof does not verify with h = 0, the production value".into());
    }
    let mut other = comm_d_new;
    other[1] ^= 1;
    if key.update_verify(REGISTERED, &comm_r_old, &other, &comm_r_new, H, &proof)? {
        return Err("update: the proof verified for another comm_d_new".into());
    }
    println!(
        "cuzk-rust: update: {}-byte proof in {:.1} s, verified; rejected for another comm_d_new; a truncated vanilla proof refused",
        proof.len(),
        elapsed.as_secs_f64()
    );
    Ok(vanilla.len())
}
