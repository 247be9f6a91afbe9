//! Host-synthesized partitions, as a bellperson host holds them: the host
//! records its own circuit (a chain of squarings), writes its R1CS as a PCE
//! file once, gets a key for it that is then reloaded from .params (so the
//! engine knows no PCE: the host gives the query densities it tracked), and
//! submits a, b, c and the assignments in Montgomery form, borrowed
//! (`Engine::prove_borrowed`): the library reads the host's vectors in place
//! and releases each partition's exactly once before the call returns.

use cuzk::{BorrowedPartition, Engine, Key, Montgomery, QueryDensity};

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

/// The Montgomery limbs of field elements, in place (`Fr` is a transparent
/// wrapper of `[u64; 4]`): what a bellperson host lends of its `Vec<Fr>`.
fn limbs(v: &[Fr]) -> &[Montgomery] {
    // SAFETY: Fr is #[repr(transparent)] over [u64; 4].
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const Montgomery, v.len()) }
}

/// Proves PARTITIONS partitions from borrowed Montgomery buffers; returns
/// how many verified.
pub fn run(dir: &std::path::Path) -> Result<usize, Box<dyn std::error::Error>> {
    let r1cs = circuit();
    let pce_path = dir.join("squarings.pce");
    std::fs::write(&pce_path, encode(&r1cs))?;
    let pce = cuzk::Pce::load(&pce_path)?;
    let dev = Key::setup_dev(&pce)?;
    let params = dir.join("squarings.params");
    dev.save_params(&params)?;
    let key = Key::load_params(&params)?; // knows no densities and no PCE
    let engine = Engine::new(None, None)?;

    let (a_aux, b_input, b_aux) = densities(&r1cs);
    let id = engine.add_key_density(&key, &QueryDensity { a_aux, b_input, b_aux }, "squarings")?;

    let assigns: Vec<Assignment> = (0..PARTITIONS).map(|p| assignment(3 + p as u64)).collect();
    let m = r1cs.a.len(); // the circuit's own rows; the appended input rows are not read
    let parts: Vec<BorrowedPartition> = assigns
        .iter()
        .map(|w| {
            BorrowedPartition::abc_montgomery(limbs(&w.inputs), limbs(&w.aux), limbs(&w.a), limbs(&w.b), limbs(&w.c), m)
        })
        .collect();
    // Returns when the job has ended and the library has released every
    // partition exactly once (it checks): the borrows end here.
    let job = engine.prove_borrowed(id, "squarings", &parts)?;
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
    Ok(verified)
}
