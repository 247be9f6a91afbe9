#!/usr/bin/env bash
# Groth16 interop with snarkjs and circom2 (curve bls12381), both directions,
# and on bn128 (BN254) snarkjs's proofs checked by `cuzk verify`:
#   - circom2 compiles the circuits with --prime bls12381, its wasm makes the witnesses;
#   - mul20, mul50: snarkjs makes the ptau (power 6) and the zkey; mul50's domain
#     power equals the ptau power;
#   - sha256_1 (circomlib, ~30 k constraints): the zkey comes from `cuzk setup`
#     (snarkjs's own preparation of a power-15 ptau takes ~30 min here);
#   - cuzk's proofs must pass `snarkjs groth16 verify`, snarkjs's proofs must pass
#     `cuzk verify`, and a tampered public input or proof must fail both.
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

ptau=pot6.ptau
if [[ ! -f $ptau ]]; then
  snarkjs powersoftau new bls12381 6 pot6_0.ptau >/dev/null
  snarkjs powersoftau contribute pot6_0.ptau pot6_1.ptau --name=cuzk-test -e="cuzk interop" >/dev/null
  snarkjs powersoftau prepare phase2 pot6_1.ptau "$ptau" >/dev/null
fi

tamper_public() {  # change the first public signal
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));p[0]=(BigInt(p[0])+1n).toString();fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}
tamper_proof() {   # swap A for C: both are valid G1 points, the proof is not
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));const t=p.pi_a;p.pi_a=p.pi_c;p.pi_c=t;fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}

for c in "${circuits[@]}"; do
  echo "circuit $c"
  mkdir -p "$c"
  circom "circuits/$c.circom" --r1cs --wasm --prime bls12381 -l node_modules -l circuits -o "$c" >/dev/null
  input="$here/circuits/input_${c%%[0-9]*}.json"
  [[ $c == sha256_* ]] && input="$here/circuits/input_$c.json"
  node "$c/${c}_js/generate_witness.js" "$c/${c}_js/$c.wasm" "$input" "$c/witness.wtns"
  if [[ $c == sha256_* ]]; then
    expect_ok "$cuzk" setup "$c/$c.r1cs" "$c/$c.zkey"
  else
    snarkjs groth16 setup "$c/$c.r1cs" "$ptau" "$c/$c.zkey" >/dev/null
  fi
  snarkjs zkey export verificationkey "$c/$c.zkey" "$c/vk.json" >/dev/null
  # cuzk proves, both verify
  expect_ok "$cuzk" prove "$c/$c.zkey" "$c/witness.wtns" "$c/cuzk_proof.json" "$c/cuzk_public.json"
  expect_ok snarkjs groth16 verify "$c/vk.json" "$c/cuzk_public.json" "$c/cuzk_proof.json"
  expect_ok "$cuzk" verify "$c/vk.json" "$c/cuzk_public.json" "$c/cuzk_proof.json"
  # snarkjs proves, both verify
  expect_ok snarkjs groth16 prove "$c/$c.zkey" "$c/witness.wtns" "$c/sj_proof.json" "$c/sj_public.json"
  expect_ok "$cuzk" verify "$c/vk.json" "$c/sj_public.json" "$c/sj_proof.json"
  cmp -s "$c/cuzk_public.json" "$c/sj_public.json" || node -e 'const fs=require("fs");const a=JSON.parse(fs.readFileSync(process.argv[1])),b=JSON.parse(fs.readFileSync(process.argv[2]));if(JSON.stringify(a)!==JSON.stringify(b)){console.log("  FAILED public signals differ");process.exit(1)}' "$c/cuzk_public.json" "$c/sj_public.json" || fail=1
  # tampered public input or proof fails both
  if [[ $(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).length)' "$c/cuzk_public.json") -gt 0 ]]; then
    tamper_public "$c/cuzk_public.json" "$c/bad_public.json"
    expect_bad snarkjs groth16 verify "$c/vk.json" "$c/bad_public.json" "$c/cuzk_proof.json"
    expect_bad "$cuzk" verify "$c/vk.json" "$c/bad_public.json" "$c/cuzk_proof.json"
  fi
  tamper_proof "$c/sj_proof.json" "$c/bad_proof.json"
  expect_bad snarkjs groth16 verify "$c/vk.json" "$c/sj_public.json" "$c/bad_proof.json"
  expect_bad "$cuzk" verify "$c/vk.json" "$c/sj_public.json" "$c/bad_proof.json"
done
# BN254 (circom's default prime, snarkjs's bn128): snarkjs proves, cuzk verifies;
# tampered inputs fail both; a proof of the other curve is refused.
if [[ -z ${CUZK_INTEROP_CURVES:-} || ${CUZK_INTEROP_CURVES} == *bn128* ]]; then
  c=mul20 d=bn128_mul20
  echo "circuit $c (bn128)"
  mkdir -p "$d"
  if [[ ! -f pot6_bn128.ptau ]]; then
    snarkjs powersoftau new bn128 6 pot6_bn128_0.ptau >/dev/null
    snarkjs powersoftau contribute pot6_bn128_0.ptau pot6_bn128_1.ptau --name=cuzk-test -e="cuzk interop bn128" >/dev/null
    snarkjs powersoftau prepare phase2 pot6_bn128_1.ptau pot6_bn128.ptau >/dev/null
  fi
  circom "circuits/$c.circom" --r1cs --wasm --prime bn128 -l node_modules -l circuits -o "$d" >/dev/null
  node "$d/${c}_js/generate_witness.js" "$d/${c}_js/$c.wasm" "$here/circuits/input_mul.json" "$d/witness.wtns"
  snarkjs groth16 setup "$d/$c.r1cs" pot6_bn128.ptau "$d/$c.zkey" >/dev/null
  snarkjs zkey export verificationkey "$d/$c.zkey" "$d/vk.json" >/dev/null
  expect_ok snarkjs groth16 prove "$d/$c.zkey" "$d/witness.wtns" "$d/sj_proof.json" "$d/sj_public.json"
  expect_ok "$cuzk" verify "$d/vk.json" "$d/sj_public.json" "$d/sj_proof.json"
  tamper_public "$d/sj_public.json" "$d/bad_public.json"
  expect_bad snarkjs groth16 verify "$d/vk.json" "$d/bad_public.json" "$d/sj_proof.json"
  expect_bad "$cuzk" verify "$d/vk.json" "$d/bad_public.json" "$d/sj_proof.json"
  tamper_proof "$d/sj_proof.json" "$d/bad_proof.json"
  expect_bad snarkjs groth16 verify "$d/vk.json" "$d/sj_public.json" "$d/bad_proof.json"
  expect_bad "$cuzk" verify "$d/vk.json" "$d/sj_public.json" "$d/bad_proof.json"
  expect_bad "$cuzk" verify "$d/vk.json" "mul20/sj_public.json" "mul20/sj_proof.json"   # a bls12381 proof
fi
if ((fail)); then echo "interop snarkjs: FAILED"; exit 1; fi
echo "interop snarkjs: all checks passed"
