//! Just enough of the BLS12-381 scalar field for the host's own circuit:
//! values in Montgomery form (4 little-endian u64 limbs of x·2^256 mod r), the
//! layout of blstrs' Scalar, which cuzk reads as is (CUZK_FORM_MONTGOMERY).

/// r, the field's modulus.
const P: [u64; 4] = [0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48];
/// −r⁻¹ mod 2^64.
const INV: u64 = 0xfffffffeffffffff;
/// 2^512 mod r (turns an integer into Montgomery form).
const R2: [u64; 4] = [0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f, 0x0748d9d99f59ff11];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(transparent)]
pub struct Fr(pub [u64; 4]);

fn geq(a: &[u64; 4], b: &[u64; 4]) -> bool {
    for i in (0..4).rev() {
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

fn sub_raw(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let mut r = [0u64; 4];
    let mut borrow = 0u64;
    for i in 0..4 {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow);
        r[i] = d2;
        borrow = (b1 | b2) as u64;
    }
    r
}

impl Fr {
    pub const ZERO: Fr = Fr([0; 4]);

    /// Montgomery multiplication (CIOS): a·b·2^-256 mod r.
    fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        let mut t = [0u64; 6];
        for i in 0..4 {
            let mut c: u128 = 0;
            for j in 0..4 {
                let s = t[j] as u128 + (a[j] as u128) * (b[i] as u128) + c;
                t[j] = s as u64;
                c = s >> 64;
            }
            let s = t[4] as u128 + c;
            t[4] = s as u64;
            t[5] = (s >> 64) as u64;
            let m = t[0].wrapping_mul(INV);
            let mut c = (t[0] as u128 + (m as u128) * (P[0] as u128)) >> 64;
            for j in 1..4 {
                let s = t[j] as u128 + (m as u128) * (P[j] as u128) + c;
                t[j - 1] = s as u64;
                c = s >> 64;
            }
            let s = t[4] as u128 + c;
            t[3] = s as u64;
            t[4] = t[5] + (s >> 64) as u64;
        }
        let r = [t[0], t[1], t[2], t[3]];
        if t[4] != 0 || geq(&r, &P) {
            sub_raw(&r, &P)
        } else {
            r
        }
    }

    pub fn from_u64(v: u64) -> Fr {
        Fr(Self::mont_mul(&[v, 0, 0, 0], &R2))
    }
    pub fn one() -> Fr {
        Fr::from_u64(1)
    }
    pub fn mul(&self, o: &Fr) -> Fr {
        Fr(Self::mont_mul(&self.0, &o.0))
    }
    pub fn add(&self, o: &Fr) -> Fr {
        let mut r = [0u64; 4];
        let mut carry = 0u64;
        for i in 0..4 {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry);
            r[i] = s2;
            carry = (c1 | c2) as u64;
        }
        if geq(&r, &P) {
            r = sub_raw(&r, &P);
        }
        Fr(r)
    }
    /// The canonical little-endian bytes (what cuzk's scalar outputs hold).
    pub fn to_canonical_bytes(&self) -> [u8; 32] {
        let v = Self::mont_mul(&self.0, &[1, 0, 0, 0]);
        let mut out = [0u8; 32];
        for i in 0..4 {
            out[8 * i..8 * i + 8].copy_from_slice(&v[i].to_le_bytes());
        }
        out
    }
}
