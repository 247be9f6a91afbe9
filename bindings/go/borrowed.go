// Host-synthesized partitions, borrowed: the library reads the host's
// arrays in place (no packed copy) until it releases each partition through
// a callback. The arrays must outlive the call, which Go memory may not do
// under cgo's pointer rules, so they live in C memory (CBuffer).

package cuzk

/*
#include <stdint.h>
#include <stdlib.h>
#include "cuzk.h"

// trampoline.c
void cuzkgo_set_release(cuzk_borrowed_partition* p, uintptr_t handle);
*/
import "C"

import (
	"fmt"
	"runtime"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// Form is the scalar form of a borrowed partition's arrays.
type Form uint32

const (
	// FormCanonical: 32 bytes a scalar, little-endian, below r (as the
	// packed witnesses of Submit).
	FormCanonical Form = C.CUZK_FORM_CANONICAL
	// FormMontgomery: 4 little-endian uint64 limbs of x·2^256 mod r, the
	// in-memory layout of blstrs' Scalar (a bellperson Vec<Fr> as is);
	// read without conversion.
	FormMontgomery Form = C.CUZK_FORM_MONTGOMERY
)

// CBuffer is a byte buffer in C memory, the kind SubmitBorrowed lends to the
// library. Bytes gives the Go view to fill; a job that borrows the buffer
// keeps it alive until the library releases it. Free returns it early (a
// finalizer frees it otherwise).
type CBuffer struct {
	mu       sync.Mutex
	p        unsafe.Pointer
	n        int
	borrowed int // jobs that have not released it yet
}

// NewCBuffer allocates n zeroed bytes of C memory.
func NewCBuffer(n int) *CBuffer {
	b := &CBuffer{p: C.calloc(C.size_t(n+1), 1), n: n}
	if b.p == nil {
		panic(fmt.Sprintf("cuzk: out of C memory for %d bytes", n))
	}
	runtime.SetFinalizer(b, func(b *CBuffer) { C.free(b.p) })
	return b
}

// CBufferOf copies data into a new CBuffer.
func CBufferOf(data []byte) *CBuffer {
	b := NewCBuffer(len(data))
	copy(b.Bytes(), data)
	return b
}

// Bytes is the buffer's memory as a Go slice (nil after Free). Do not
// change it while a job borrows the buffer.
func (b *CBuffer) Bytes() []byte {
	if b.p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(b.p), b.n)
}

// Len is the buffer's size in bytes.
func (b *CBuffer) Len() int { return b.n }

// Free releases the C memory now; it fails while a job still borrows the
// buffer (see Job.WaitReleased).
func (b *CBuffer) Free() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.borrowed > 0 {
		return fmt.Errorf("cuzk: CBuffer of %d bytes is still borrowed by %d job(s)", b.n, b.borrowed)
	}
	if b.p != nil {
		runtime.SetFinalizer(b, nil)
		C.free(b.p)
		b.p = nil
	}
	return nil
}

func (b *CBuffer) lend(delta int) {
	b.mu.Lock()
	b.borrowed += delta
	b.mu.Unlock()
}

func (b *CBuffer) ptr() unsafe.Pointer {
	if b == nil {
		return nil
	}
	return b.p
}

// BorrowedPartition is one partition of SubmitBorrowed: a witness partition
// (Inputs and Aux, for a key registered with its PCE) or, with A, B and C
// set, an ABC partition (for a key registered with AddKeyDensity). Every
// array has the partition's Form: ScalarSize bytes a scalar.
type BorrowedPartition struct {
	Form           Form
	Inputs, Aux    *CBuffer // Inputs start with ONE; Aux may be nil when empty
	A, B, C        *CBuffer // ABC partitions only; nil for a witness partition
	NumConstraints int      // ABC partitions: the rows of A, B, C to read
}

// borrowState is what the release callback's user_data names: the buffers a
// job borrows, kept reachable until each partition is released.
type borrowState struct {
	mu        sync.Mutex
	parts     [][]*CBuffer // per partition, nil once released
	remaining int
	onRelease func(partition int)
	handle    cgo.Handle
	done      chan struct{}
}

// cuzkgoRelease runs on an engine thread, possibly under the engine's lock:
// quick, and no engine or job calls.
//
//export cuzkgoRelease
func cuzkgoRelease(h C.uintptr_t, partition C.size_t) {
	s := cgo.Handle(h).Value().(*borrowState)
	p := int(partition)
	s.mu.Lock()
	bufs := s.parts[p]
	s.parts[p] = nil
	s.remaining--
	last := s.remaining == 0
	s.mu.Unlock()
	for _, b := range bufs {
		b.lend(-1)
	}
	if s.onRelease != nil {
		s.onRelease(p)
	}
	if last { // exactly once per partition: no callback follows
		s.handle.Delete()
		close(s.done)
	}
}

// SubmitBorrowed queues a job of borrowed partitions under keyID: the
// library reads the buffers in place (Montgomery form without any
// conversion) and calls onRelease (may be nil; on an engine thread, quick,
// no engine or job calls) once for each partition when it no longer reads
// that partition's buffers. The buffers must not change until then; the job
// keeps them alive, and Job.WaitReleased waits for every release. When the
// call fails nothing is borrowed.
func (e *Engine) SubmitBorrowed(keyID uint32, id string, parts []BorrowedPartition, onRelease func(partition int)) (*Job, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("SubmitBorrowed: a job needs at least one partition")
	}
	s := &borrowState{parts: make([][]*CBuffer, len(parts)), remaining: len(parts), onRelease: onRelease,
		done: make(chan struct{})}
	s.handle = cgo.NewHandle(s)
	table := unsafe.Slice((*C.cuzk_borrowed_partition)(C.calloc(C.size_t(len(parts)), C.sizeof_cuzk_borrowed_partition)),
		len(parts))
	defer C.free(unsafe.Pointer(&table[0]))
	scalars := func(b *CBuffer) C.size_t {
		if b == nil {
			return 0
		}
		return C.size_t(b.n / ScalarSize)
	}
	for i, p := range parts {
		t := &table[i]
		C.cuzk_borrowed_partition_init(t)
		t.form = C.uint32_t(p.Form)
		t.inputs, t.num_inputs = p.Inputs.ptr(), scalars(p.Inputs)
		t.aux, t.num_aux = p.Aux.ptr(), scalars(p.Aux)
		bufs := []*CBuffer{p.Inputs, p.Aux}
		if p.A != nil || p.B != nil || p.C != nil {
			t.kind = C.CUZK_PARTITION_ABC
			t.a, t.b, t.c = p.A.ptr(), p.B.ptr(), p.C.ptr()
			t.num_constraints = C.size_t(p.NumConstraints)
			bufs = append(bufs, p.A, p.B, p.C)
		} else {
			t.kind = C.CUZK_PARTITION_WITNESS
		}
		for _, b := range bufs {
			if b != nil {
				s.parts[i] = append(s.parts[i], b)
				b.lend(1)
			}
		}
		C.cuzkgo_set_release(t, C.uintptr_t(s.handle))
	}
	var opt C.cuzk_job_options
	C.cuzk_job_options_init(&opt)
	cid := C.CString(id)
	defer C.free(unsafe.Pointer(cid))
	opt.id = cid
	j := &Job{borrowed: s}
	st := C.cuzk_engine_submit_borrowed(&j.h, e.h, C.uint32_t(keyID), &table[0], C.size_t(len(parts)), &opt)
	runtime.KeepAlive(e)
	if err := check("cuzk_engine_submit_borrowed", st, e.lastError); err != nil {
		for _, bufs := range s.parts { // no release comes: nothing is borrowed
			for _, b := range bufs {
				b.lend(-1)
			}
		}
		s.handle.Delete()
		return nil, err
	}
	runtime.SetFinalizer(j, (*Job).Close)
	return j, nil
}

// WaitReleased blocks until the library has released every partition of a
// job made by SubmitBorrowed (at the latest when the job has ended and a
// read in progress has returned; Engine.Close returns after every release):
// the buffers may be changed or freed after it. For other jobs it returns at
// once.
func (j *Job) WaitReleased() {
	if j.borrowed != nil {
		<-j.borrowed.done
	}
}

// QueryDensity is the query densities of a bellperson key's circuit, as
// bellperson's DensityTracker keeps them: AAux[j] when aux j occurs in A,
// BInput[i] when input i (0 = ONE) occurs in B, BAux[j] when aux j occurs
// in B. They must describe the key's circuit exactly.
type QueryDensity struct {
	AAux, BInput, BAux []bool
}

func bitmap(bits []bool) []byte {
	out := make([]byte, (len(bits)+8)/8)
	for i, b := range bits {
		if b {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

// AddKeyDensity registers a bellperson key without its PCE (e.g. from
// LoadParamsKey) with its circuit's query densities; its jobs take ABC
// partitions only (SubmitBorrowed with A, B and C).
func (e *Engine) AddKeyDensity(k *Key, d QueryDensity, name string) (uint32, error) {
	// The struct holds pointers, so the bitmaps are C memory (cgo's rules).
	aAux, bIn, bAux := C.CBytes(bitmap(d.AAux)), C.CBytes(bitmap(d.BInput)), C.CBytes(bitmap(d.BAux))
	defer C.free(aAux)
	defer C.free(bIn)
	defer C.free(bAux)
	var cd C.cuzk_query_density
	C.cuzk_query_density_init(&cd)
	cd.a_aux, cd.a_aux_bits = (*C.uint8_t)(aAux), C.size_t(len(d.AAux))
	cd.b_input, cd.b_input_bits = (*C.uint8_t)(bIn), C.size_t(len(d.BInput))
	cd.b_aux, cd.b_aux_bits = (*C.uint8_t)(bAux), C.size_t(len(d.BAux))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var id C.uint32_t
	st := C.cuzk_engine_add_key_density(&id, e.h, k.h, &cd, cname, 0)
	runtime.KeepAlive(k)
	runtime.KeepAlive(e)
	return uint32(id), check("cuzk_engine_add_key_density", st, e.lastError)
}
