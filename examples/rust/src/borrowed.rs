//! Host-synthesized partitions, as a bellperson host holds them: the host
//! records its own circuit (a chain of squarings), writes its R1CS as a PCE
//! file once, gets a key for it that is then reloaded from .params (so the
//! engine knows no PCE: the host gives the query densities it tracked), and
//! submits a, b, c and the assignments in Montgomery form, borrowed: the
//! library releases each partition's buffers through a callback, exactly once.

use std::ffi::CString;
use std::os::raw::c_void;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::cuzk::{ffi, Engine, Key, Result as CResult};
use crate::fr::Fr;
use crate::pce_file::{densities, encode, R1cs};

const SQUARINGS: usize = 512;
const PARTITIONS: usize = 3;

/// x, x², x⁴, … with the public y = x^(2^SQUARINGS), and t = x + 5.
fn circuit() -> R1cs {
    let (ni, aux) = (2u32, |j: usize| 2 + j as u32);
    let (one, five) = (Fr::one(), Fr::from_u64(5));
    let mut r = R1cs { num_inputs: ni as u64, num_aux: SQUARINGS as u64 + 1, a: vec![], b: vec![], c: vec![] };
    for i in 0..SQUARINGS {
        r.a.push(vec![(aux(i), one)]);
        r.b.push(vec![(aux(i), one)]);
        r.c.push(vec![(if i + 1 < SQUARINGS { aux(i + 1) } else { 1 }, one)]);
    }
    r.a.push(vec![(0, five), (aux(0), one)]);
    r.b.push(vec![(0, one)]);
    r.c.push(vec![(aux(SQUARINGS), one)]);
    r
}

/// One partition's assignment the way bellperson's ProvingAssignment keeps
/// it: a, b, c with the input constraints appended (one per input).
struct Assignment {
    inputs: Vec<Fr>,
    aux: Vec<Fr>,
    a: Vec<Fr>,
    b: Vec<Fr>,
    c: Vec<Fr>,
}

fn assignment(x: u64) -> Assignment {
    let mut xs = vec![Fr::from_u64(x)];
    for i in 0..SQUARINGS {
        xs.push(xs[i].mul(&xs[i]));
    }
    let y = xs[SQUARINGS];
    let t = xs[0].add(&Fr::from_u64(5));
    let inputs = vec![Fr::one(), y];
    let mut aux: Vec<Fr> = xs[..SQUARINGS].to_vec();
    aux.push(t);
    let (mut a, mut b, mut c) = (vec![], vec![], vec![]);
    for i in 0..SQUARINGS {
        a.push(xs[i]);
        b.push(xs[i]);
        c.push(xs[i + 1]);
    }
    a.push(t);
    b.push(Fr::one());
    c.push(t);
    for v in &inputs {
        a.push(*v);
        b.push(Fr::ZERO);
        c.push(Fr::ZERO);
    }
    Assignment { inputs, aux, a, b, c }
}

static RELEASED: [AtomicUsize; PARTITIONS] = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];

unsafe extern "C" fn on_release(_user: *mut c_void, partition: ffi::size_t) {
    RELEASED[partition as usize].fetch_add(1, Ordering::SeqCst);
}

fn bytes_of(bits: &[bool]) -> Vec<u8> {
    let mut v = vec![0u8; (bits.len() + 7) / 8];
    for (i, &b) in bits.iter().enumerate() {
        if b {
            v[i / 8] |= 1 << (i % 8);
        }
    }
    v
}

fn st(op: &str, s: ffi::cuzk_status, msg: String) -> Result<(), String> {
    if s == 0 {
        Ok(())
    } else {
        Err(format!("{}: {} ({}): {}", op, crate::cuzk::status_name(s), s, msg))
    }
}

/// Proves PARTITIONS partitions from borrowed Montgomery buffers; returns
/// how many verified.
pub fn run(dir: &std::path::Path) -> Result<usize, Box<dyn std::error::Error>> {
    let r1cs = circuit();
    let pce_path = dir.join("squarings.pce");
    std::fs::write(&pce_path, encode(&r1cs))?;
    let pce = crate::cuzk::Pce::load(&pce_path)?;
    let dev = Key::setup_dev(&pce)?;
    let params = dir.join("squarings.params");
    dev.save_params(&params)?;
    let key = Key::load_params(&params)?; // knows no densities and no PCE
    let engine = Engine::new(None, None)?;

    let (a_aux, b_in, b_aux) = densities(&r1cs);
    let (a_aux, b_in, b_aux) = (bytes_of(&a_aux), bytes_of(&b_in), bytes_of(&b_aux));
    let mut d: ffi::cuzk_query_density = unsafe { std::mem::zeroed() };
    unsafe { ffi::cuzk_query_density_init(&mut d) };
    d.a_aux = a_aux.as_ptr();
    d.a_aux_bits = r1cs.num_aux as _;
    d.b_input = b_in.as_ptr();
    d.b_input_bits = r1cs.num_inputs as _;
    d.b_aux = b_aux.as_ptr();
    d.b_aux_bits = r1cs.num_aux as _;
    let name = CString::new("squarings").unwrap();
    let mut id = 0u32;
    let s = unsafe { ffi::cuzk_engine_add_key_density(&mut id, engine.raw(), key.raw(), &d, name.as_ptr(), 0) };
    st("cuzk_engine_add_key_density", s, engine.last_error())?;

    let assigns: Vec<Assignment> = (0..PARTITIONS).map(|p| assignment(3 + p as u64)).collect();
    let m = r1cs.a.len();
    let parts: Vec<ffi::cuzk_borrowed_partition> = assigns
        .iter()
        .map(|w| {
            let mut p: ffi::cuzk_borrowed_partition = unsafe { std::mem::zeroed() };
            unsafe { ffi::cuzk_borrowed_partition_init(&mut p) };
            p.kind = ffi::CUZK_PARTITION_ABC;
            p.form = ffi::CUZK_FORM_MONTGOMERY;
            p.inputs = w.inputs.as_ptr() as *const c_void;
            p.num_inputs = w.inputs.len() as _;
            p.aux = w.aux.as_ptr() as *const c_void;
            p.num_aux = w.aux.len() as _;
            p.a = w.a.as_ptr() as *const c_void;
            p.b = w.b.as_ptr() as *const c_void;
            p.c = w.c.as_ptr() as *const c_void;
            p.num_constraints = m as _; // the circuit's own rows; the appended input rows are not read
            p.release = Some(on_release);
            p.user_data = ptr::null_mut();
            p
        })
        .collect();
    let mut job: *mut ffi::cuzk_job = ptr::null_mut();
    let s = unsafe {
        ffi::cuzk_engine_submit_borrowed(&mut job, engine.raw(), id, parts.as_ptr(), parts.len() as _, ptr::null())
    };
    st("cuzk_engine_submit_borrowed", s, engine.last_error())?;
    let job = crate::cuzk::Job::from_raw(job);
    job.wait()?;
    let mut verified = 0;
    for (p, w) in assigns.iter().enumerate() {
        let proof = job.proof(p)?;
        let public = job.public_inputs(p)?;
        if public != w.inputs[1].to_canonical_bytes() {
            return Err(format!("partition {}: public input differs from the host's y", p).into());
        }
        if !key.verify(&proof, &public)? {
            return Err(format!("partition {}: the proof does not verify", p).into());
        }
        verified += 1;
    }
    drop(job);
    drop(engine); // every release has happened by now
    for (p, n) in RELEASED.iter().enumerate() {
        let n = n.load(Ordering::SeqCst);
        if n != 1 {
            return Err(format!("partition {}: released {} times, expected exactly once", p, n).into());
        }
    }
    let _: CResult<()> = Ok(());
    Ok(verified)
}
