//! Filecoin PoRep C2 from a C1 output, the way a Curio task does it.

use std::ptr;

use crate::{abi, c_path, check, ffi, Engine, ErrBuf, Job, Key, Result};

/// A PoRep proof type (`cuzk_porep_shape`): a Filecoin RegisteredSealProof
/// or a custom shape, e.g. the one of a C1 output.
#[derive(Clone, Copy, Debug)]
pub struct PorepShape(ffi::cuzk_porep_shape);

impl PorepShape {
    /// The shape (registered proof or custom) of a C1 output
    /// (SealCommitPhase1Output JSON).
    pub fn of_c1(c1: &[u8]) -> Result<PorepShape> {
        abi()?;
        let mut s: ffi::cuzk_porep_shape = unsafe { std::mem::zeroed() };
        let mut eb = ErrBuf::new();
        let st = unsafe { ffi::cuzk_porep_shape_of_c1(&mut s, c1.as_ptr(), c1.len() as _, eb.ptr(), eb.len() as _) };
        check("cuzk_porep_shape_of_c1", st, || eb.text())?;
        Ok(PorepShape(s))
    }
    /// The shape of Filecoin's RegisteredSealProof `id` (0 … 19).
    pub fn registered(id: i32) -> Result<PorepShape> {
        abi()?;
        let mut s: ffi::cuzk_porep_shape = unsafe { std::mem::zeroed() };
        let st = unsafe { ffi::cuzk_porep_shape_registered(&mut s, id) };
        check("cuzk_porep_shape_registered", st, || format!("no registered seal proof {}", id))?;
        Ok(PorepShape(s))
    }
    /// The 32-byte nodes of the sector.
    pub fn nodes(&self) -> u64 {
        self.0.nodes
    }
    /// The SDR layers.
    pub fn layers(&self) -> u32 {
        self.0.layers
    }
    /// The partitions of a proof (each [`crate::PROOF_SIZE`] bytes).
    pub fn partitions(&self) -> usize {
        self.0.partitions as usize
    }
}

/// What a verifier knows about a sealed sector (commitments as
/// little-endian field elements).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sector {
    /// The prover id.
    pub prover: [u8; 32],
    /// The sector number.
    pub number: u64,
    /// The ticket.
    pub ticket: [u8; 32],
    /// The seed.
    pub seed: [u8; 32],
    /// comm_d.
    pub comm_d: [u8; 32],
    /// comm_r.
    pub comm_r: [u8; 32],
}

impl Key {
    /// A development PoRep key (NOT a ceremony) for `shape`, its circuit
    /// recorded with it.
    pub fn porep_setup_dev(shape: &PorepShape) -> Result<Key> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let st = unsafe { ffi::cuzk_porep_key_setup_dev(&mut h, &shape.0, 0, eb.ptr(), eb.len() as _) };
        check("cuzk_porep_key_setup_dev", st, || eb.text())?;
        Ok(Key(h))
    }

    /// A PoRep proving key for `shape` mapped from a bellperson `.params`
    /// file (Filecoin's v28-stacked-proof-of-replication-…params), its
    /// circuit recorded with it.
    pub fn porep_load(shape: &PorepShape, params: &std::path::Path) -> Result<Key> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let p = c_path(params);
        let st = unsafe { ffi::cuzk_porep_key_load(&mut h, &shape.0, p.as_ptr(), 0, eb.ptr(), eb.len() as _) };
        check("cuzk_porep_key_load", st, || eb.text())?;
        Ok(Key(h))
    }

    /// Verifies a concatenated PoRep proof ([`crate::PROOF_SIZE`] bytes a
    /// partition) of `sector`; `Ok(false)` when it does not verify.
    pub fn porep_verify(&self, shape: &PorepShape, sector: &Sector, proof: &[u8]) -> Result<bool> {
        let mut ok = 0i32;
        let st = unsafe {
            ffi::cuzk_porep_verify(
                &mut ok,
                self.0,
                &shape.0,
                sector.prover.as_ptr(),
                sector.number,
                sector.ticket.as_ptr(),
                sector.seed.as_ptr(),
                sector.comm_d.as_ptr(),
                sector.comm_r.as_ptr(),
                proof.as_ptr(),
                proof.len() as _,
            )
        };
        check("cuzk_porep_verify", st, || self.last_error())?;
        Ok(ok == 1)
    }
}

impl Engine {
    /// Registers a PoRep key (its circuit travels with it).
    pub fn add_porep_key(&self, key: &Key, name: &str) -> Result<u32> {
        self.add_post_key(key, name)
    }

    /// Queues C2 of a C1 output for (`prover`, `sector`) under `key`, a
    /// PoRep key of the C1's shape. The C1 is parsed and checked against
    /// the sector before anything is queued (bad_format).
    pub fn porep_c2_submit(&self, key: u32, c1: &[u8], prover: &[u8; 32], sector: u64) -> Result<Job> {
        let mut h = ptr::null_mut();
        let st = unsafe {
            ffi::cuzk_porep_c2_submit(&mut h, self.h, key, c1.as_ptr(), c1.len() as _, prover.as_ptr(), sector, ptr::null())
        };
        check("cuzk_porep_c2_submit", st, || self.last_error())?;
        Ok(Job(h))
    }
}
