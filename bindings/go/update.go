// Filecoin SnapDeals (EmptySectorUpdate) through the C ABI, the way a Curio
// update-prove task does it: take the vanilla partition proofs of a sector's
// update (the bytes filecoin-proofs-api's generate_partition_proofs returns,
// one per partition), make or load the update key of the proof type, submit
// them with the update's commitments (comm_r_old, comm_d_new, comm_r_new),
// wait, read the proof (192 bytes a partition) and verify it from the same
// commitments.

package cuzk

/*
#include <stdint.h>
#include <stdlib.h>
#include "cuzk.h"
#include "cuzk_filecoin.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Filecoin's RegisteredUpdateProof ids, the registered proof the update
// functions take (the C ABI takes the number).
const (
	UpdateStackedDrg2KiBV1   int32 = 0
	UpdateStackedDrg8MiBV1   int32 = 1
	UpdateStackedDrg512MiBV1 int32 = 2
	UpdateStackedDrg32GiBV1  int32 = 3
	UpdateStackedDrg64GiBV1  int32 = 4
)

// UpdateKeySetupDev makes a development update key (NOT a ceremony) for a
// RegisteredUpdateProof.
func UpdateKeySetupDev(registered int32) (*Key, error) {
	return newKey("cuzk_update_key_setup_dev", func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status {
		return C.cuzk_update_key_setup_dev(out, C.int32_t(registered), 0, ep, el)
	})
}

// UpdateKeyLoad maps an update proving key from a bellperson .params file
// (Filecoin's v28-empty-sector-update-…params) for a RegisteredUpdateProof.
func UpdateKeyLoad(registered int32, paramsPath string) (*Key, error) {
	cpath := C.CString(paramsPath)
	defer C.free(unsafe.Pointer(cpath))
	return newKey("cuzk_update_key_load", func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status {
		return C.cuzk_update_key_load(out, C.int32_t(registered), cpath, 0, ep, el)
	})
}

// AddUpdateKey registers an update key: its circuit travels with it (pce
// NULL), as for a PoRep or PoSt key.
func (e *Engine) AddUpdateKey(k *Key, name string) (uint32, error) { return e.AddPoRepKey(k, name) }

// UpdateSubmit queues the update proof of a sector from its vanilla
// partition proofs (vanilla[k]: partition k's bytes; as many as the proof
// type has partitions) under keyID, an update key of the proof type. h is
// the encoding's h, 0 for the production value (1 for 2 KiB, otherwise 10).
// The proofs are read and checked against the commitments before anything
// is queued: a bad one fails here (bad_length, bad_format), naming
// vanilla[k].
func (e *Engine) UpdateSubmit(keyID uint32, commROld, commDNew, commRNew [32]byte, h uint32, vanilla [][]byte) (*Job, error) {
	t, err := newVanillaTable(vanilla)
	if err != nil {
		return nil, fmt.Errorf("UpdateSubmit: %v", err)
	}
	defer t.free()
	j := &Job{}
	st := C.cuzk_update_submit(&j.h, e.h, C.uint32_t(keyID), (*C.uint8_t)(unsafe.Pointer(&commROld[0])),
		(*C.uint8_t)(unsafe.Pointer(&commDNew[0])), (*C.uint8_t)(unsafe.Pointer(&commRNew[0])), C.uint32_t(h),
		t.ptrs, t.lens, C.size_t(len(vanilla)), nil)
	runtime.KeepAlive(e)
	if err := check("cuzk_update_submit", st, e.lastError); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(j, (*Job).Close)
	return j, nil
}

// UpdateVerify checks an update proof (192 bytes a partition) of a
// RegisteredUpdateProof for the commitments and h (0: the production value)
// with an update key (or verifying key) of its circuit.
func UpdateVerify(key *Key, registered int32, commROld, commDNew, commRNew [32]byte, h uint32, proof []byte) (bool, error) {
	var ok C.int32_t
	st := C.cuzk_update_verify(&ok, key.h, C.int32_t(registered), (*C.uint8_t)(unsafe.Pointer(&commROld[0])),
		(*C.uint8_t)(unsafe.Pointer(&commDNew[0])), (*C.uint8_t)(unsafe.Pointer(&commRNew[0])), C.uint32_t(h),
		bytePtr(proof), C.size_t(len(proof)))
	runtime.KeepAlive(key)
	if err := check("cuzk_update_verify", st, key.lastError); err != nil {
		return false, err
	}
	return ok == 1, nil
}
