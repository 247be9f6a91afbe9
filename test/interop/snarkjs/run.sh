#!/usr/bin/env bash
# Groth16 interop with snarkjs and circom2, both directions, on both curves
# (bls12381 and bn128, i.e. BN254):
#   - circom2 compiles the circuits with --prime bls12381 (and bn128 for mul20 and
#     sha256_1), its wasm makes the witnesses;
#   - mul20, mul50: snarkjs makes the ptau (power 6) and the zkey; mul50's domain
#     power equals the ptau power;
#   - sha256_1 (circomlib, ~30 k constraints): the zkey comes from `cuzk setup`
#     (snarkjs's own preparation of a power-15 ptau takes ~30 min here);
#   - cuzk's proofs must pass `snarkjs groth16 verify`, snarkjs's proofs must pass
#     `cuzk verify`, and a tampered public input or proof must fail both;
#   - bn128: a bls12381 proof, and a bls12381 witness for a bn128 key, are refused;
#   - `cuzk prove` refuses a witness that does not satisfy the circuit and names
#     a key point off the curve (mul20, both curves).
# usage: run.sh <work-dir> <cuzk binary> [circuit ...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$1
cuzk=$2
shift 2
circuits=("$@")
((${#circuits[@]})) || circuits=(mul20 mul50 sha256_1)

command -v node >/dev/null && command -v npm >/dev/null ||
  { echo "interop: node and npm are required (scripts/interop-setup.sh installs them)"; exit 1; }

mkdir -p "$work"
cp "$here/package.json" "$here/package-lock.json" "$work/"
if ! cmp -s "$here/package-lock.json" "$work/node_modules/.cuzk-lock" 2>/dev/null; then
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$here/package-lock.json" "$work/node_modules/.cuzk-lock"
fi
cd "$work"
rm -rf circuits && cp -r "$here/circuits" circuits   # circom2 (WASI) reads paths relative to the working directory
snarkjs() { node node_modules/snarkjs/build/cli.cjs "$@"; }
circom() { node node_modules/circom2/cli.js "$@"; }

fail=0
expect_ok() { if "$@" >"$work/last.log" 2>&1; then echo "  ok      $*"; else echo "  FAILED  $*"; cat "$work/last.log"; fail=1; fi; }
expect_bad() { if "$@" >"$work/last.log" 2>&1; then echo "  FAILED (accepted) $*"; cat "$work/last.log"; fail=1; else echo "  ok (rejected) $*"; fi; }

tamper_public() {  # change the first public signal
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));p[0]=(BigInt(p[0])+1n).toString();fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}
tamper_proof() {   # swap A for C: both are valid G1 points, the proof is not
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));const t=p.pi_a;p.pi_a=p.pi_c;p.pi_c=t;fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}

tamper_witness() {  # the last value set to 12345 (54321 if it was 12345)
  node -e 'const fs=require("fs");const b=fs.readFileSync(process.argv[1]);const o=b.length-32;const v=b.readUInt32LE(o)===12345&&b.subarray(o+4,o+32).every(x=>x===0)?54321:12345;b.fill(0,o,o+32);b.writeUInt32LE(v,o);fs.writeFileSync(process.argv[2],b);' "$1" "$2"
}
tamper_zkey_h() {   # tamper_zkey_h <in> <out> <G1 point bytes>: one bit of the first non-zero H point's y flipped
  node -e 'const fs=require("fs");const b=fs.readFileSync(process.argv[1]);const w=Number(process.argv[3]);
let o=12;for(let s=0;s<b.readUInt32LE(8);s++){const id=b.readUInt32LE(o),sz=Number(b.readBigUInt64LE(o+4));o+=12;
 if(id===9)for(let p=o;p<o+sz;p+=w)if(b.subarray(p,p+w).some(x=>x)){b[p+w/2]^=1;fs.writeFileSync(process.argv[2],b);process.exit(0);}
 o+=sz;}
process.exit(1);' "$1" "$2" "$3"
}

make_ptau() {   # make_ptau <curve> <file>: snarkjs's own small ceremony (power 6)
  [[ -f $2 ]] && return
  snarkjs powersoftau new "$1" 6 "$2.0" >/dev/null
  snarkjs powersoftau contribute "$2.0" "$2.1" --name=cuzk-test -e="cuzk interop $1" >/dev/null
  snarkjs powersoftau prepare phase2 "$2.1" "$2" >/dev/null
}

# run_circuit <circuit> <prime: bls12381 | bn128> <out dir>: compile, witness,
# key (snarkjs's ceremony for mul*, `cuzk setup` otherwise), then both ways.
run_circuit() {
  local c=$1 prime=$2 d=$3
  echo "circuit $c ($prime)"
  mkdir -p "$d"
  circom "circuits/$c.circom" --r1cs --wasm --prime "$prime" -l node_modules -l circuits -o "$d" >/dev/null
  local input="$here/circuits/input_${c%%[0-9]*}.json"
  [[ $c == sha256_* ]] && input="$here/circuits/input_$c.json"
  node "$d/${c}_js/generate_witness.js" "$d/${c}_js/$c.wasm" "$input" "$d/witness.wtns"
  if [[ $c == sha256_* ]]; then
    expect_ok "$cuzk" setup "$d/$c.r1cs" "$d/$c.zkey"
  else
    make_ptau "$prime" "pot6_$prime.ptau"
    snarkjs groth16 setup "$d/$c.r1cs" "pot6_$prime.ptau" "$d/$c.zkey" >/dev/null
  fi
  snarkjs zkey export verificationkey "$d/$c.zkey" "$d/vk.json" >/dev/null
  # cuzk proves, both verify
  expect_ok "$cuzk" prove "$d/$c.zkey" "$d/witness.wtns" "$d/cuzk_proof.json" "$d/cuzk_public.json"
  expect_ok snarkjs groth16 verify "$d/vk.json" "$d/cuzk_public.json" "$d/cuzk_proof.json"
  expect_ok "$cuzk" verify "$d/vk.json" "$d/cuzk_public.json" "$d/cuzk_proof.json"
  # snarkjs proves, both verify
  expect_ok snarkjs groth16 prove "$d/$c.zkey" "$d/witness.wtns" "$d/sj_proof.json" "$d/sj_public.json"
  expect_ok "$cuzk" verify "$d/vk.json" "$d/sj_public.json" "$d/sj_proof.json"
  cmp -s "$d/cuzk_public.json" "$d/sj_public.json" || node -e 'const fs=require("fs");const a=JSON.parse(fs.readFileSync(process.argv[1])),b=JSON.parse(fs.readFileSync(process.argv[2]));if(JSON.stringify(a)!==JSON.stringify(b)){console.log("  FAILED public signals differ");process.exit(1)}' "$d/cuzk_public.json" "$d/sj_public.json" || fail=1
  # tampered public input or proof fails both
  if [[ $(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).length)' "$d/cuzk_public.json") -gt 0 ]]; then
    tamper_public "$d/cuzk_public.json" "$d/bad_public.json"
    expect_bad snarkjs groth16 verify "$d/vk.json" "$d/bad_public.json" "$d/cuzk_proof.json"
    expect_bad "$cuzk" verify "$d/vk.json" "$d/bad_public.json" "$d/cuzk_proof.json"
  fi
  tamper_proof "$d/sj_proof.json" "$d/bad_proof.json"
  expect_bad snarkjs groth16 verify "$d/vk.json" "$d/sj_public.json" "$d/bad_proof.json"
  expect_bad "$cuzk" verify "$d/vk.json" "$d/sj_public.json" "$d/bad_proof.json"
  tamper_proof "$d/cuzk_proof.json" "$d/bad_cuzk_proof.json"
  expect_bad snarkjs groth16 verify "$d/vk.json" "$d/cuzk_public.json" "$d/bad_cuzk_proof.json"
}

for c in "${circuits[@]}"; do run_circuit "$c" bls12381 "$c"; done
# BN254 (circom's default prime, snarkjs's bn128): the same both ways, with
# snarkjs's ceremony (mul20) and `cuzk setup` (sha256_1); a proof of the other
# curve is refused, and so is a witness of the other curve.
if [[ -z ${CUZK_INTEROP_CURVES:-} || ${CUZK_INTEROP_CURVES} == *bn128* ]]; then
  for c in mul20 sha256_1; do run_circuit "$c" bn128 "bn128_$c"; done
  expect_bad "$cuzk" verify bn128_mul20/vk.json mul20/sj_public.json mul20/sj_proof.json   # a bls12381 proof
  expect_bad "$cuzk" prove bn128_mul20/mul20.zkey mul20/witness.wtns bn128_mul20/x.json bn128_mul20/y.json
fi
# `cuzk prove` checks its proof against the key before writing it: a witness
# that does not satisfy the circuit is refused (and no proof written), and a
# key point off the curve is named, with or without that check.
expect_refusal() {  # expect_refusal <text> <command...>
  local want=$1; shift
  if "$@" >"$work/last.log" 2>&1; then echo "  FAILED (accepted) $*"; cat "$work/last.log"; fail=1
  elif ! grep -q -- "$want" "$work/last.log"; then echo "  FAILED (no '$want') $*"; cat "$work/last.log"; fail=1
  else echo "  ok (refused: $want) $*"; fi
}
refusals() {  # refusals <dir> <circuit> <G1 point bytes>
  local d=$1 c=$2
  echo "refusals $d"
  tamper_witness "$d/witness.wtns" "$d/bad.wtns"
  rm -f "$d/x.json"
  expect_refusal "does not verify" "$cuzk" prove "$d/$c.zkey" "$d/bad.wtns" "$d/x.json" "$d/y.json"
  [[ ! -e $d/x.json ]] || { echo "  FAILED a proof was written for a bad witness"; fail=1; }
  tamper_zkey_h "$d/$c.zkey" "$d/bad.zkey" "$3"
  expect_refusal "section 9 (PointsH) point" "$cuzk" prove "$d/bad.zkey" "$d/witness.wtns" "$d/x.json" "$d/y.json"
  expect_refusal "not on the curve" "$cuzk" prove "$d/bad.zkey" "$d/witness.wtns" "$d/x.json" "$d/y.json" --no-verify
}
[[ " ${circuits[*]} " == *" mul20 "* ]] && refusals mul20 mul20 96
[[ -d bn128_mul20 ]] && refusals bn128_mul20 mul20 64
if ((fail)); then echo "interop snarkjs: FAILED"; exit 1; fi
echo "interop snarkjs: all checks passed"
