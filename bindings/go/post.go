// Filecoin PoSt through the C ABI, the way a Curio WindowPoSt task does it:
// take the vanilla proofs of a partition's sectors (the bytes
// filecoin-proofs-api's generate_single_vanilla_proof returns, one per
// sector), make or load the key of the proof type, submit them with the
// randomness, wait, read the 192-byte proof and verify it from the sectors'
// public values (sector numbers and comm_r).

package cuzk

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk.h"
#include "cuzk_filecoin.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// PoStShape is a PoSt proof type (cuzk_post_shape): a Filecoin
// RegisteredPoStProof (RegisteredPoSt) or a custom shape.
type PoStShape C.cuzk_post_shape

func (s *PoStShape) c() *C.cuzk_post_shape { return (*C.cuzk_post_shape)(s) }

// Window says whether it is WindowPoSt (otherwise WinningPoSt).
func (s *PoStShape) Window() bool { return s._type == C.CUZK_POST_WINDOW }

// Nodes is the number of 32-byte nodes of a sector.
func (s *PoStShape) Nodes() uint64 { return uint64(s.nodes) }

// SectorCount is the number of sectors a partition proves.
func (s *PoStShape) SectorCount() int { return int(s.sector_count) }

// ChallengeCount is the number of challenges a sector gets.
func (s *PoStShape) ChallengeCount() int { return int(s.challenge_count) }

// RegisteredProof is the Filecoin RegisteredPoStProof id, or -1 for a custom shape.
func (s *PoStShape) RegisteredProof() int { return int(s.registered_proof) }

// RegisteredPoSt is the shape of Filecoin's RegisteredPoStProof id (0 … 4
// WinningPoSt 2KiB … 64GiB, 5 … 9 WindowPoSt V1, 10 … 14 WindowPoSt V1_2).
func RegisteredPoSt(id int32) (*PoStShape, error) {
	if err := abiErr(); err != nil {
		return nil, err
	}
	s := &PoStShape{}
	st := C.cuzk_post_shape_registered(s.c(), C.int32_t(id))
	// No handle, so no error text: the only failure is an unknown id.
	return s, check("cuzk_post_shape_registered", st, func() string {
		return fmt.Sprintf("no registered PoSt proof %d (0 … 14)", id)
	})
}

// PoStSectorChallenges is the challenged leaves of each sector of the list a
// prover proves (in its order) for the randomness: [i][j] is sector i's
// challenge j.
func PoStSectorChallenges(shape *PoStShape, randomness [32]byte, sectorIDs []uint64) ([][]uint64, error) {
	var ids *C.uint64_t
	if len(sectorIDs) > 0 {
		ids = (*C.uint64_t)(unsafe.Pointer(&sectorIDs[0]))
	}
	leaves := make([]uint64, len(sectorIDs)*shape.ChallengeCount())
	call := func() (C.cuzk_status, int) {
		count := C.size_t(len(leaves))
		var out *C.uint64_t
		if len(leaves) > 0 {
			out = (*C.uint64_t)(unsafe.Pointer(&leaves[0]))
		}
		st := C.cuzk_post_sector_challenges(out, &count, shape.c(), (*C.uint8_t)(unsafe.Pointer(&randomness[0])),
			ids, C.size_t(len(sectorIDs)))
		return st, int(count)
	}
	st, count := call()
	if st == C.CUZK_ERR_BUFFER_TOO_SMALL { // a custom shape whose count we misread: take the size needed
		leaves = make([]uint64, count)
		st, count = call()
	}
	kind := "WinningPoSt"
	if shape.Window() {
		kind = "WindowPoSt"
	}
	if err := check("cuzk_post_sector_challenges", st, func() string {
		return fmt.Sprintf("%d sectors of a %s shape", len(sectorIDs), kind)
	}); err != nil {
		return nil, err
	}
	out := make([][]uint64, len(sectorIDs))
	if len(sectorIDs) > 0 {
		per := count / len(sectorIDs)
		for i := range out {
			out[i] = leaves[i*per : (i+1)*per : (i+1)*per]
		}
	}
	return out, nil
}

// PoStKeySetupDev makes a development PoSt key (NOT a ceremony) for a shape.
func PoStKeySetupDev(shape *PoStShape) (*Key, error) {
	return newKey("cuzk_post_key_setup_dev", func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status {
		return C.cuzk_post_key_setup_dev(out, shape.c(), 0, ep, el)
	})
}

// PoStKeyLoad maps a PoSt proving key from a bellperson .params file (e.g.
// Filecoin's v28-proof-of-spacetime-fallback-…params) for a shape.
func PoStKeyLoad(shape *PoStShape, paramsPath string) (*Key, error) {
	cpath := C.CString(paramsPath)
	defer C.free(unsafe.Pointer(cpath))
	return newKey("cuzk_post_key_load", func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status {
		return C.cuzk_post_key_load(out, shape.c(), cpath, 0, ep, el)
	})
}

// AddPoStKey registers a PoSt key: its circuit travels with it (pce NULL),
// as for a PoRep key.
func (e *Engine) AddPoStKey(k *Key, name string) (uint32, error) { return e.AddPoRepKey(k, name) }

// PoStSubmit queues the PoSt of len(vanilla) sectors (vanilla[i]: sector i's
// vanilla proof bytes) as partitions firstPartition, firstPartition + 1, …
// under keyID, a PoSt key of the proof type. The proofs are read and
// checked before anything is queued: a bad one fails here (bad_length,
// bad_format), naming the sector.
func (e *Engine) PoStSubmit(keyID uint32, randomness [32]byte, vanilla [][]byte, firstPartition uint32) (*Job, error) {
	t, err := newVanillaTable(vanilla)
	if err != nil {
		return nil, fmt.Errorf("PoStSubmit: %v", err)
	}
	defer t.free()
	j := &Job{}
	st := C.cuzk_post_submit(&j.h, e.h, C.uint32_t(keyID), (*C.uint8_t)(unsafe.Pointer(&randomness[0])), t.ptrs, t.lens,
		C.size_t(len(vanilla)), C.uint32_t(firstPartition), nil)
	runtime.KeepAlive(e)
	if err := check("cuzk_post_submit", st, e.lastError); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(j, (*Job).Close)
	return j, nil
}

// PoStCheckVanilla checks the vanilla proofs as PoStSubmit would and returns
// the numbers of every faulty sector (none: all check) with the first
// fault's reason, so that a WindowPoSt task can declare them and prove the
// others. Bytes that do not read are an error, not a fault.
func PoStCheckVanilla(shape *PoStShape, randomness [32]byte, vanilla [][]byte, firstPartition uint32) ([]uint64, string, error) {
	t, err := newVanillaTable(vanilla)
	if err != nil {
		return nil, "", fmt.Errorf("PoStCheckVanilla: %v", err)
	}
	defer t.free()
	faulty := make([]uint64, len(vanilla)+1)
	count := C.size_t(len(faulty))
	var eb errBuf
	ep, el := eb.ptr()
	st := C.cuzk_post_check_vanilla((*C.uint64_t)(unsafe.Pointer(&faulty[0])), &count, shape.c(),
		(*C.uint8_t)(unsafe.Pointer(&randomness[0])), t.ptrs, t.lens, C.size_t(len(vanilla)),
		C.uint32_t(firstPartition), ep, el)
	if err := check("cuzk_post_check_vanilla", st, eb.String); err != nil {
		return nil, "", err
	}
	return faulty[:count:count], eb.String(), nil
}

// vanillaTable is vanilla proof bytes as the C ABI takes them: the pointer
// table holds pointers, so it and the bytes it points to are C memory (one
// block: the pointers, the lengths, then every proof); the library reads
// them during the call only.
type vanillaTable struct {
	block unsafe.Pointer
	ptrs  **C.uint8_t
	lens  *C.size_t
}

func newVanillaTable(vanilla [][]byte) (*vanillaTable, error) {
	n := len(vanilla)
	total := 0
	for _, v := range vanilla {
		total += len(v)
	}
	ptrSize := int(unsafe.Sizeof((*C.uint8_t)(nil)))
	head := n * (ptrSize + int(C.sizeof_size_t))
	t := &vanillaTable{block: C.malloc(C.size_t(head + total + 1))}
	if t.block == nil {
		return nil, fmt.Errorf("out of C memory for %d bytes of vanilla proofs", total)
	}
	if n > 0 {
		ptrTable := unsafe.Slice((**C.uint8_t)(t.block), n)
		lenTable := unsafe.Slice((*C.size_t)(unsafe.Add(t.block, n*ptrSize)), n)
		at := head
		for i, v := range vanilla {
			p := unsafe.Add(t.block, at)
			if len(v) > 0 {
				C.memcpy(p, unsafe.Pointer(&v[0]), C.size_t(len(v)))
			}
			ptrTable[i], lenTable[i] = (*C.uint8_t)(p), C.size_t(len(v))
			at += len(v)
		}
		t.ptrs, t.lens = &ptrTable[0], &lenTable[0]
	}
	return t, nil
}

func (t *vanillaTable) free() { C.free(t.block) }

// PoStVerify checks a PoSt proof (192 bytes a partition) of the sectors
// (sectorIDs, commRs: in the prover's order) for the randomness, partitions
// numbered from firstPartition, with a PoSt key (or verifying key) of the
// shape's circuit.
func PoStVerify(key *Key, shape *PoStShape, randomness [32]byte, sectorIDs []uint64, commRs [][32]byte,
	firstPartition uint32, proof []byte) (bool, error) {
	if len(sectorIDs) != len(commRs) {
		return false, fmt.Errorf("PoStVerify: %d sector numbers but %d comm_r", len(sectorIDs), len(commRs))
	}
	var ids *C.uint64_t
	flat := make([]byte, 32*len(commRs))
	for i := range commRs {
		copy(flat[32*i:], commRs[i][:])
	}
	if len(sectorIDs) > 0 {
		ids = (*C.uint64_t)(unsafe.Pointer(&sectorIDs[0]))
	}
	var ok C.int32_t
	st := C.cuzk_post_verify(&ok, key.h, shape.c(), (*C.uint8_t)(unsafe.Pointer(&randomness[0])), ids, bytePtr(flat),
		C.size_t(len(sectorIDs)), C.uint32_t(firstPartition), bytePtr(proof), C.size_t(len(proof)))
	runtime.KeepAlive(key)
	if err := check("cuzk_post_verify", st, key.lastError); err != nil {
		return false, err
	}
	return ok == 1, nil
}
