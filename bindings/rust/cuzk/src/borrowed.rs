//! Host-synthesized partitions, borrowed: the library reads the host's
//! slices in place (Montgomery form without any conversion) until it
//! releases each partition through a callback.

use std::ffi::CString;
use std::marker::PhantomData;
use std::os::raw::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::{Arc, Condvar, Mutex};

use crate::{check, ffi, Engine, Error, Job, Key, Result};

/// A scalar in Montgomery form: 4 little-endian `u64` limbs of x·2^256 mod
/// r, the in-memory layout of blstrs' `Scalar` (a bellperson `Vec<Fr>`'s
/// buffer as is).
pub type Montgomery = [u64; 4];

/// One partition lent to [`Engine::prove_borrowed`]: slices the library
/// reads in place, borrowed for `'a`.
pub struct BorrowedPartition<'a> {
    form: u32,
    abc: bool,
    inputs: (*const c_void, usize),
    aux: (*const c_void, usize),
    a: (*const c_void, usize),
    b: (*const c_void, usize),
    c: (*const c_void, usize),
    num_constraints: usize,
    _borrow: PhantomData<&'a [u8]>,
}

fn raw<T>(s: &[T]) -> (*const c_void, usize) {
    (if s.is_empty() { ptr::null() } else { s.as_ptr() as *const c_void }, s.len())
}

const NONE: (*const c_void, usize) = (ptr::null(), 0);

impl<'a> BorrowedPartition<'a> {
    /// A witness partition (for a key registered with its PCE) in
    /// Montgomery form: `inputs` start with ONE.
    pub fn witness_montgomery(inputs: &'a [Montgomery], aux: &'a [Montgomery]) -> Self {
        BorrowedPartition {
            form: ffi::CUZK_FORM_MONTGOMERY,
            abc: false,
            inputs: raw(inputs),
            aux: raw(aux),
            a: NONE,
            b: NONE,
            c: NONE,
            num_constraints: 0,
            _borrow: PhantomData,
        }
    }

    /// A witness partition of packed canonical scalars (32 little-endian
    /// bytes each, as [`crate::Witness`] holds them).
    pub fn witness_canonical(inputs: &'a [u8], aux: &'a [u8]) -> Self {
        let mut p = Self::witness_montgomery(&[], &[]);
        p.form = ffi::CUZK_FORM_CANONICAL;
        p.inputs = (inputs.as_ptr() as *const c_void, inputs.len() / crate::SCALAR_SIZE);
        p.aux = (if aux.is_empty() { ptr::null() } else { aux.as_ptr() as *const c_void }, aux.len() / crate::SCALAR_SIZE);
        p
    }

    /// An ABC partition (for a key registered with
    /// [`Engine::add_key_density`]) in Montgomery form, as bellperson's
    /// `ProvingAssignment` holds it: the first `num_constraints` values of
    /// `a`, `b`, `c` are read (vectors that carry the appended input
    /// constraints may be passed as they are).
    pub fn abc_montgomery(
        inputs: &'a [Montgomery],
        aux: &'a [Montgomery],
        a: &'a [Montgomery],
        b: &'a [Montgomery],
        c: &'a [Montgomery],
        num_constraints: usize,
    ) -> Self {
        BorrowedPartition {
            form: ffi::CUZK_FORM_MONTGOMERY,
            abc: true,
            inputs: raw(inputs),
            aux: raw(aux),
            a: raw(a),
            b: raw(b),
            c: raw(c),
            num_constraints,
            _borrow: PhantomData,
        }
    }
}

/// What each partition's `user_data` holds (one strong count of it).
struct Released {
    counts: Mutex<Vec<u32>>,
    all: Condvar,
}

unsafe extern "C" fn on_release(user_data: *mut c_void, partition: ffi::size_t) {
    // Runs on an engine thread, possibly under the engine's lock: quick, no
    // engine or job calls, and no unwinding into C.
    let state = Arc::from_raw(user_data as *const Released);
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut c = state.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = c.get_mut(partition as usize) {
            *n += 1;
        }
        state.all.notify_all();
    }));
    if r.is_err() {
        std::process::abort();
    }
}

/// The query densities of a bellperson key's circuit, as bellperson's
/// `DensityTracker` keeps them. They must describe the key's circuit
/// exactly (wrong ones give proofs that do not verify).
#[derive(Clone, Debug, Default)]
pub struct QueryDensity {
    /// Aux j occurs (with a non-zero coefficient) in A.
    pub a_aux: Vec<bool>,
    /// Input i (0 = ONE) occurs in B.
    pub b_input: Vec<bool>,
    /// Aux j occurs in B.
    pub b_aux: Vec<bool>,
}

fn bitmap(bits: &[bool]) -> Vec<u8> {
    let mut v = vec![0u8; bits.len() / 8 + 1];
    for (i, &b) in bits.iter().enumerate() {
        if b {
            v[i / 8] |= 1 << (i % 8);
        }
    }
    v
}

impl Engine {
    /// Registers a bellperson key without its PCE (e.g. from
    /// [`Key::load_params`]) with its circuit's query densities; its jobs
    /// take ABC partitions only ([`BorrowedPartition::abc_montgomery`]).
    pub fn add_key_density(&self, key: &Key, d: &QueryDensity, name: &str) -> Result<u32> {
        let (a_aux, b_in, b_aux) = (bitmap(&d.a_aux), bitmap(&d.b_input), bitmap(&d.b_aux));
        let mut cd: ffi::cuzk_query_density = unsafe { std::mem::zeroed() };
        unsafe { ffi::cuzk_query_density_init(&mut cd) };
        cd.a_aux = a_aux.as_ptr();
        cd.a_aux_bits = d.a_aux.len() as _;
        cd.b_input = b_in.as_ptr();
        cd.b_input_bits = d.b_input.len() as _;
        cd.b_aux = b_aux.as_ptr();
        cd.b_aux_bits = d.b_aux.len() as _;
        let name = CString::new(name).expect("key name without NUL");
        let mut id = 0u32;
        let st = unsafe { ffi::cuzk_engine_add_key_density(&mut id, self.h, key.0, &cd, name.as_ptr(), 0) };
        check("cuzk_engine_add_key_density", st, || self.last_error())?;
        Ok(id)
    }

    /// Proves a job of borrowed partitions under `key`: the library reads
    /// the slices in place, and this call returns only after the job has
    /// ended and the library has released every partition, so the borrows
    /// end with it. The returned job has ended: [`Job::wait`] gives its
    /// outcome at once, then its proofs. (Several such jobs run at once from
    /// several threads, e.g. with `std::thread::scope`.)
    pub fn prove_borrowed(&self, key: u32, id: &str, parts: &[BorrowedPartition<'_>]) -> Result<Job> {
        let invalid = |msg: String| Error { op: "prove_borrowed".to_string(), code: ffi::CUZK_ERR_INVALID_ARGUMENT, msg };
        for (i, p) in parts.iter().enumerate() {
            if p.abc && [p.a.1, p.b.1, p.c.1].iter().any(|&n| n < p.num_constraints) {
                return Err(invalid(format!("partition {}: a, b or c is shorter than num_constraints {}", i, p.num_constraints)));
            }
        }
        let state = Arc::new(Released { counts: Mutex::new(vec![0; parts.len()]), all: Condvar::new() });
        let table: Vec<ffi::cuzk_borrowed_partition> = parts
            .iter()
            .map(|p| {
                let mut t: ffi::cuzk_borrowed_partition = unsafe { std::mem::zeroed() };
                unsafe { ffi::cuzk_borrowed_partition_init(&mut t) };
                t.kind = if p.abc { ffi::CUZK_PARTITION_ABC } else { ffi::CUZK_PARTITION_WITNESS } as _;
                t.form = p.form;
                t.inputs = p.inputs.0;
                t.num_inputs = p.inputs.1 as _;
                t.aux = p.aux.0;
                t.num_aux = p.aux.1 as _;
                t.a = p.a.0;
                t.b = p.b.0;
                t.c = p.c.0;
                t.num_constraints = p.num_constraints as _;
                t.release = Some(on_release);
                t.user_data = Arc::into_raw(Arc::clone(&state)) as *mut c_void;
                t
            })
            .collect();
        let cid = CString::new(id).expect("job id without NUL");
        let opt = crate::job_options(&cid);
        let mut h = ptr::null_mut();
        let st = unsafe {
            ffi::cuzk_engine_submit_borrowed(&mut h, self.h, key, table.as_ptr(), table.len() as _, &opt)
        };
        if let Err(e) = check("cuzk_engine_submit_borrowed", st, || self.last_error()) {
            for t in &table {
                // no release comes: take back each partition's count
                drop(unsafe { Arc::from_raw(t.user_data as *const Released) });
            }
            return Err(e);
        }
        let job = Job(h);
        // The job ends (cuzk_job_wait returns) and every release comes at the
        // latest then, or when a read in progress returns.
        let waited = job.wait_end();
        let mut c = state.counts.lock().unwrap_or_else(|e| e.into_inner());
        while c.iter().any(|&n| n == 0) {
            c = state.all.wait(c).unwrap_or_else(|e| e.into_inner());
        }
        if let Some(p) = c.iter().position(|&n| n != 1) {
            return Err(Error {
                op: "prove_borrowed".to_string(),
                code: ffi::CUZK_ERR_INTERNAL,
                msg: format!("partition {} released {} times", p, c[p]),
            });
        }
        waited?;
        Ok(job)
    }
}
