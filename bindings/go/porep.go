// Filecoin PoRep C2 through the C ABI, the way a Curio task does it: read the
// shape of a C1 output (SealCommitPhase1Output JSON), make or load the key of
// that shape, submit the C2 job with the prover and sector, wait, read the
// concatenated proof and verify it from the sector's public values.

package cuzk

/*
#include <stdint.h>
#include <stdlib.h>
#include "cuzk.h"
#include "cuzk_filecoin.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// PoRepShape is a PoRep proof type (cuzk_porep_shape): a Filecoin
// RegisteredSealProof or a custom shape, e.g. the one of a C1 output.
type PoRepShape C.cuzk_porep_shape

func (s *PoRepShape) c() *C.cuzk_porep_shape { return (*C.cuzk_porep_shape)(s) }

// Nodes is the number of 32-byte nodes of the sector.
func (s *PoRepShape) Nodes() uint64 { return uint64(s.nodes) }

// Layers is the number of SDR layers.
func (s *PoRepShape) Layers() int { return int(s.layers) }

// Partitions is the number of partitions of a proof (each ProofSize bytes).
func (s *PoRepShape) Partitions() int { return int(s.partitions) }

// RegisteredProof is the Filecoin RegisteredSealProof id, or -1 for a custom shape.
func (s *PoRepShape) RegisteredProof() int { return int(s.registered_proof) }

// PoRepShapeOfC1 reads the shape (registered proof or custom) of a C1 JSON.
func PoRepShapeOfC1(c1 []byte) (*PoRepShape, error) {
	if err := abiErr(); err != nil {
		return nil, err
	}
	s := &PoRepShape{}
	var eb errBuf
	ep, el := eb.ptr()
	st := C.cuzk_porep_shape_of_c1(s.c(), bytePtr(c1), C.size_t(len(c1)), ep, el)
	if err := check("cuzk_porep_shape_of_c1", st, eb.String); err != nil {
		return nil, err
	}
	return s, nil
}

// PoRepDevKey makes a development PoRep key (NOT a ceremony) for a shape;
// PoRepKeyLoad maps a .params file instead.
func PoRepDevKey(shape *PoRepShape) (*Key, error) {
	return newKey("cuzk_porep_key_setup_dev", func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status {
		return C.cuzk_porep_key_setup_dev(out, shape.c(), 0, ep, el)
	})
}

// PoRepKeyLoad maps a PoRep proving key for a shape from a bellperson
// .params file (Filecoin's v28-stacked-proof-of-replication-…params) and
// records the shape's circuit with it.
func PoRepKeyLoad(shape *PoRepShape, paramsPath string) (*Key, error) {
	cpath := C.CString(paramsPath)
	defer C.free(unsafe.Pointer(cpath))
	return newKey("cuzk_porep_key_load", func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status {
		return C.cuzk_porep_key_load(out, shape.c(), cpath, 0, ep, el)
	})
}

// AddPoRepKey registers a PoRep key: its circuit travels with it (pce NULL).
func (e *Engine) AddPoRepKey(k *Key, name string) (uint32, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var id C.uint32_t
	st := C.cuzk_engine_add_key(&id, e.h, k.h, nil, cname, 0)
	runtime.KeepAlive(k)
	runtime.KeepAlive(e)
	return uint32(id), check("cuzk_engine_add_key", st, e.lastError)
}

// SubmitC2 queues C2 of a C1 JSON for (prover, sector) under keyID, a
// PoRep key of the C1's shape. The C1 is parsed and checked against the
// sector before anything is queued (ErrBadFormat).
func (e *Engine) SubmitC2(keyID uint32, c1 []byte, prover [32]byte, sector uint64) (*Job, error) {
	j := &Job{}
	st := C.cuzk_porep_c2_submit(&j.h, e.h, C.uint32_t(keyID), bytePtr(c1), C.size_t(len(c1)),
		(*C.uint8_t)(unsafe.Pointer(&prover[0])), C.uint64_t(sector), nil)
	runtime.KeepAlive(e)
	if err := check("cuzk_porep_c2_submit", st, e.lastError); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(j, (*Job).Close)
	return j, nil
}

// Sector is what a verifier knows about a sealed sector: the prover id, the
// sector number, the ticket and seed, comm_d and comm_r (the commitments
// as little-endian field elements).
type Sector struct {
	Prover                     [32]byte
	Number                     uint64
	Ticket, Seed, CommD, CommR [32]byte
}

// VerifyPoRep checks a concatenated PoRep proof (ProofSize bytes a
// partition) of a sector; false (and no error) when it does not verify.
func (k *Key) VerifyPoRep(shape *PoRepShape, s *Sector, proof []byte) (bool, error) {
	var ok C.int32_t
	p := func(b *[32]byte) *C.uint8_t { return (*C.uint8_t)(unsafe.Pointer(&b[0])) }
	st := C.cuzk_porep_verify(&ok, k.h, shape.c(), p(&s.Prover), C.uint64_t(s.Number), p(&s.Ticket), p(&s.Seed),
		p(&s.CommD), p(&s.CommR), bytePtr(proof), C.size_t(len(proof)))
	runtime.KeepAlive(k)
	if err := check("cuzk_porep_verify", st, k.lastError); err != nil {
		return false, err
	}
	return ok == 1, nil
}
