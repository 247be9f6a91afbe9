//! Writes a circuit's R1CS as a cuzk PCE file (docs/PCE-FORMAT.md), the way
//! a bellperson host would hand over the constraints it recorded once,
//! without one FFI call per constraint.

use crate::fr::Fr;

/// One constraint row: (unified column, coefficient) pairs, columns ascending.
pub type Row = Vec<(u32, Fr)>;

pub struct R1cs {
    pub num_inputs: u64, // including ONE
    pub num_aux: u64,
    pub a: Vec<Row>,
    pub b: Vec<Row>,
    pub c: Vec<Row>,
}

const K1: u64 = 0x9E3779B97F4A7C15;
const K2: u64 = 0xBF58476D1CE4E5B9;
const K3: u64 = 0x94D049BB133111EB;

fn lane(v: u64, w: u64) -> u64 {
    v.wrapping_add(w.wrapping_mul(K2)).rotate_left(31).wrapping_mul(K1)
}

fn word(p: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(p[i..i + 8].try_into().unwrap())
}

/// The file's 64-bit checksum function (see the format document).
pub fn hash64(p: &[u8], seed: u64) -> u64 {
    let n = p.len();
    let mut v = [seed.wrapping_add(K1), seed ^ K2, seed.wrapping_add(K3), seed.wrapping_sub(K1)];
    let mut i = 0;
    while i + 32 <= n {
        for (l, vl) in v.iter_mut().enumerate() {
            *vl = lane(*vl, word(p, i + 8 * l));
        }
        i += 32;
    }
    let mut h = v[0]
        .rotate_left(1)
        .wrapping_add(v[1].rotate_left(7))
        .wrapping_add(v[2].rotate_left(12))
        .wrapping_add(v[3].rotate_left(18));
    h ^= (n as u64).wrapping_mul(K3);
    while i + 8 <= n {
        h = (h ^ lane(0, word(p, i))).rotate_left(27).wrapping_mul(K1).wrapping_add(K3);
        i += 8;
    }
    while i < n {
        h = (h ^ (p[i] as u64).wrapping_mul(K3)).rotate_left(11).wrapping_mul(K1);
        i += 1;
    }
    h ^= h >> 30;
    h = h.wrapping_mul(K2);
    h ^= h >> 27;
    h = h.wrapping_mul(K3);
    h ^ (h >> 31)
}

/// Bitmap words: bit i of word i / 64.
fn bitmap(bits: &[bool]) -> Vec<u8> {
    let mut w = vec![0u64; (bits.len() + 63) / 64];
    for (i, &b) in bits.iter().enumerate() {
        if b {
            w[i / 64] |= 1 << (i % 64);
        }
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The densities of the matrices: (a_aux, b_input, b_aux).
pub fn densities(r: &R1cs) -> (Vec<bool>, Vec<bool>, Vec<bool>) {
    let (ni, na) = (r.num_inputs as usize, r.num_aux as usize);
    let mut a_aux = vec![false; na];
    let mut b_in = vec![false; ni];
    let mut b_aux = vec![false; na];
    for row in &r.a {
        for &(col, _) in row {
            if col as usize >= ni {
                a_aux[col as usize - ni] = true;
            }
        }
    }
    for row in &r.b {
        for &(col, _) in row {
            if (col as usize) < ni {
                b_in[col as usize] = true;
            } else {
                b_aux[col as usize - ni] = true;
            }
        }
    }
    (a_aux, b_in, b_aux)
}

/// The file's bytes.
pub fn encode(r: &R1cs) -> Vec<u8> {
    let one = Fr::one();
    let minus_one = Fr::ZERO.add(&Fr(sub_one(&one)));
    let mut table: Vec<Fr> = Vec::new();
    let mut sections: Vec<Vec<u8>> = Vec::new();
    let mut nnz = [0u64; 3];
    for (mi, m) in [&r.a, &r.b, &r.c].iter().enumerate() {
        let (mut ptr, mut cols, mut codes) = (vec![0u64], Vec::new(), Vec::new());
        for row in m.iter() {
            for &(col, coeff) in row {
                let code = if coeff == one {
                    0u32
                } else if coeff == minus_one {
                    1
                } else {
                    let k = table.iter().position(|t| *t == coeff).unwrap_or_else(|| {
                        table.push(coeff);
                        table.len() - 1
                    });
                    2 + k as u32
                };
                cols.push(col);
                codes.push(code);
            }
            ptr.push(cols.len() as u64);
        }
        nnz[mi] = cols.len() as u64;
        sections.push(ptr.iter().flat_map(|x| x.to_le_bytes()).collect());
        sections.push(cols.iter().flat_map(|x| x.to_le_bytes()).collect());
        sections.push(codes.iter().flat_map(|x| x.to_le_bytes()).collect());
    }
    sections.push(table.iter().flat_map(|f| f.0.iter().flat_map(|l| l.to_le_bytes())).collect());
    let (a_aux, b_in, b_aux) = densities(r);
    sections.push(bitmap(&a_aux));
    sections.push(bitmap(&b_in));
    sections.push(bitmap(&b_aux));

    let mut payload: Vec<u8> = Vec::new();
    for s in &sections {
        payload.resize((payload.len() + 63) / 64 * 64, 0);
        payload.extend_from_slice(s);
    }
    const CHUNK: usize = 1 << 20;
    let hashes: Vec<u8> = payload
        .chunks(CHUNK)
        .enumerate()
        .flat_map(|(i, c)| hash64(c, i as u64).to_le_bytes())
        .collect();
    let mut h = vec![0u8; 128];
    h[0..8].copy_from_slice(b"cuzk-pce");
    h[8..12].copy_from_slice(&1u32.to_le_bytes());
    h[12..16].copy_from_slice(&128u32.to_le_bytes());
    let fields = [
        r.num_inputs,
        r.num_aux,
        r.a.len() as u64,
        nnz[0],
        nnz[1],
        nnz[2],
        table.len() as u64,
        payload.len() as u64,
        CHUNK as u64,
        hash64(&hashes, payload.len() as u64),
    ];
    for (i, f) in fields.iter().enumerate() {
        h[16 + 8 * i..24 + 8 * i].copy_from_slice(&f.to_le_bytes());
    }
    let hh = hash64(&h[..96], 0);
    h[96..104].copy_from_slice(&hh.to_le_bytes());
    h.extend_from_slice(&payload);
    h
}

/// r − 1 (= −1) from ONE's Montgomery form: ZERO − ONE, done as P − one.
fn sub_one(one: &Fr) -> [u64; 4] {
    const P: [u64; 4] = [0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48];
    let mut r = [0u64; 4];
    let mut borrow = 0u64;
    for i in 0..4 {
        let (d1, b1) = P[i].overflowing_sub(one.0[i]);
        let (d2, b2) = d1.overflowing_sub(borrow);
        r[i] = d2;
        borrow = (b1 | b2) as u64;
    }
    r
}
