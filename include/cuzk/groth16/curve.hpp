// cuzk — the curves the Groth16 layer is written over: their traits
// (bls12_381_curve, bn254_curve, curve_id, per_curve, with_curve; in
// ec/curve.hpp) and their pairings (pairing/pairing.hpp: pairing<C>, …).
#pragma once

#include "cuzk/ec/curve.hpp"
#include "cuzk/pairing/pairing.hpp"
