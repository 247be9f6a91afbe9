// PoRep C2 through the C ABI, the way a Curio task does it: read the C1
// output (SealCommitPhase1Output JSON), make or load the key of its shape,
// submit the C2 job with the prover and sector, wait, read the concatenated
// proof and verify it from the sector's public values.
package main

/*
#include <stdint.h>
#include <stdlib.h>
#include "cuzk.h"
*/
import "C"

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"time"
	"unsafe"
)

// ---- wrappers ------------------------------------------------------------------

// PoRepShapeOfC1 reads the shape (registered proof or custom) of a C1 JSON.
func PoRepShapeOfC1(c1 []byte) (C.cuzk_porep_shape, error) {
	var s C.cuzk_porep_shape
	var eb errBuf
	ep, el := eb.ptr()
	st := C.cuzk_porep_shape_of_c1(&s, bytePtr(c1), C.size_t(len(c1)), ep, el)
	return s, check("cuzk_porep_shape_of_c1", st, eb.String)
}

// PoRepDevKey makes a development PoRep key (NOT a ceremony) for a shape.
// (cuzk_porep_key_load takes a .params path instead.)
func PoRepDevKey(shape *C.cuzk_porep_shape) (*Key, error) {
	var eb errBuf
	ep, el := eb.ptr()
	k := &Key{}
	st := C.cuzk_porep_key_setup_dev(&k.h, shape, 0, ep, el)
	if err := check("cuzk_porep_key_setup_dev", st, eb.String); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(k, (*Key).Close)
	return k, nil
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

// SubmitC2 queues C2 of a C1 JSON for (prover, sector).
func (e *Engine) SubmitC2(key uint32, c1 []byte, prover [32]byte, sector uint64) (*Job, error) {
	j := &Job{}
	st := C.cuzk_porep_c2_submit(&j.h, e.h, C.uint32_t(key), bytePtr(c1), C.size_t(len(c1)),
		(*C.uint8_t)(unsafe.Pointer(&prover[0])), C.uint64_t(sector), nil)
	runtime.KeepAlive(e)
	if err := check("cuzk_porep_c2_submit", st, e.lastError); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(j, (*Job).Close)
	return j, nil
}

// Sector is what a verifier knows about a sealed sector.
type Sector struct {
	Prover                     [32]byte
	Number                     uint64
	Ticket, Seed, CommD, CommR [32]byte
}

// VerifyPoRep checks a concatenated PoRep proof.
func (k *Key) VerifyPoRep(shape *C.cuzk_porep_shape, s *Sector, proof []byte) (bool, error) {
	var ok C.int32_t
	p := func(b *[32]byte) *C.uint8_t { return (*C.uint8_t)(unsafe.Pointer(&b[0])) }
	st := C.cuzk_porep_verify(&ok, k.h, shape, p(&s.Prover), C.uint64_t(s.Number), p(&s.Ticket), p(&s.Seed),
		p(&s.CommD), p(&s.CommR), bytePtr(proof), C.size_t(len(proof)))
	runtime.KeepAlive(k)
	if err := check("cuzk_porep_verify", st, k.lastError); err != nil {
		return false, err
	}
	return ok == 1, nil
}

// ---- the task ----------------------------------------------------------------

// c1Public is the part of the C1 JSON a verifier uses (32-number arrays).
type c1Public struct {
	CommR  [32]byte `json:"comm_r"`
	CommD  [32]byte `json:"comm_d"`
	Seed   [32]byte `json:"seed"`
	Ticket [32]byte `json:"ticket"`
}

// runPoRep proves and verifies the C1 file; returns the number of partitions.
func runPoRep(c1Path, proverHex string, sector uint64) (int, error) {
	c1, err := os.ReadFile(c1Path)
	if err != nil {
		return 0, err
	}
	var pub c1Public
	if err := json.Unmarshal(c1, &pub); err != nil {
		return 0, fmt.Errorf("%s: %v", c1Path, err)
	}
	s := Sector{Number: sector, Ticket: pub.Ticket, Seed: pub.Seed, CommD: pub.CommD, CommR: pub.CommR}
	if b, err := hex.DecodeString(proverHex); err != nil || len(b) != 32 {
		return 0, fmt.Errorf("prover id %q: 64 hex digits expected", proverHex)
	} else {
		copy(s.Prover[:], b)
	}
	shape, err := PoRepShapeOfC1(c1)
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	key, err := PoRepDevKey(&shape)
	if err != nil {
		return 0, err
	}
	defer key.Close()
	fmt.Printf("cuzk-go: porep: %d nodes, %d layers, %d partitions: development key in %.1f s\n",
		uint64(shape.nodes), int(shape.layers), int(shape.partitions), time.Since(t0).Seconds())

	counter := &eventCounter{byName: map[string]int{}}
	engine, err := NewEngine(counter.add, nil)
	if err != nil {
		return 0, err
	}
	defer engine.Close()
	id, err := engine.AddPoRepKey(key, "porep")
	if err != nil {
		return 0, err
	}
	where, devBytes, err := engine.KeyPlacement(id)
	if err != nil {
		return 0, err
	}
	fmt.Printf("cuzk-go: porep: key %s (%d device bytes)\n", where, devBytes)
	layout, pce, points, err := engine.KeyRegistration(id)
	if err != nil {
		return 0, err
	}
	if where != "host" {
		fmt.Printf("cuzk-go: porep: key registered on the devices: index lists %.2f s, circuit %.2f s, points %.2f s\n",
			layout, pce, points)
	}
	// A wrong sector number is refused before anything is queued.
	if _, err := engine.SubmitC2(id, c1, s.Prover, sector+1); err == nil || err.(*Error).Code != C.CUZK_ERR_BAD_FORMAT {
		return 0, fmt.Errorf("C2 for sector %d (not the C1's) gave %v, expected bad_format", sector+1, err)
	}
	t0 = time.Now()
	job, err := engine.SubmitC2(id, c1, s.Prover, sector)
	if err != nil {
		return 0, err
	}
	defer job.Close()
	if err := job.Wait(); err != nil {
		return 0, err
	}
	proof, err := job.Proofs()
	if err != nil {
		return 0, err
	}
	parts := int(shape.partitions)
	if len(proof) != parts*proofSize {
		return 0, fmt.Errorf("porep: proof of %d bytes, %d partitions need %d", len(proof), parts, parts*proofSize)
	}
	fmt.Printf("cuzk-go: porep: C2 in %.1f s, %d-byte proof\n", time.Since(t0).Seconds(), len(proof))
	if ok, err := key.VerifyPoRep(&shape, &s, proof); err != nil || !ok {
		return 0, fmt.Errorf("porep: the proof does not verify (%v)", err)
	}
	other := s
	other.Number++
	if ok, err := key.VerifyPoRep(&shape, &other, proof); err != nil || ok {
		return 0, fmt.Errorf("porep: the proof verified for another sector number (err %v)", err)
	}
	engine.Close() // no event comes after this
	counter.mu.Lock()
	defer counter.mu.Unlock()
	for _, name := range []string{"SYNTH_START", "SYNTH_END", "GPU_END"} {
		if got := counter.byName[name]; got != parts {
			return 0, fmt.Errorf("porep: timeline: %d %s events, expected %d", got, name, parts)
		}
	}
	return parts, nil
}
