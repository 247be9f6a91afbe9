// A small Go wrapper over the cuzk C ABI (capi/cuzk.h): one type per
// handle, released by Close (also set as a finalizer, as a safety net), and
// statuses turned into errors carrying the handle's error text.
//
// cgo pointer rules: memory handed to C that holds pointers (the partition
// table, the callback table) is allocated with C.malloc; plain byte buffers
// may be Go memory because C only reads or writes them during the call.
package main

/*
#cgo LDFLAGS: -lcuzk
#include <stdint.h>
#include <stdlib.h>
#include "cuzk.h"

// trampoline.c
void gohost_on_event(void* user_data, const cuzk_event* ev);
void gohost_set_user_data(cuzk_timeline_callbacks* cb, uintptr_t handle);
*/
import "C"

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/cgo"
	"unsafe"
)

// Error is a failed C ABI call: the status code and the library's message.
type Error struct {
	Op   string
	Code int32
	Msg  string
}

func (e *Error) Error() string {
	name := C.GoString(C.cuzk_status_name(C.cuzk_status(e.Code)))
	return fmt.Sprintf("%s: %s (%d): %s", e.Op, name, e.Code, e.Msg)
}

// errText reads a handle's last error through its cuzk_<object>_last_error
// (size query first, then the copy).
func errText(get func(out *C.char, n C.size_t) C.size_t) string {
	n := get(nil, 0)
	buf := make([]byte, int(n)+1)
	get((*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)))
	return string(buf[:n])
}

// errBuf is the caller buffer of the functions that create a handle.
type errBuf [1024]byte

func (b *errBuf) ptr() (*C.char, C.size_t) { return (*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(b)) }
func (b *errBuf) String() string {
	if i := bytes.IndexByte(b[:], 0); i >= 0 {
		return string(b[:i])
	}
	return string(b[:])
}

func check(op string, st C.cuzk_status, msg func() string) error {
	if st == C.CUZK_OK {
		return nil
	}
	return &Error{Op: op, Code: int32(st), Msg: msg()}
}

func bytePtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// ---- PCE ---------------------------------------------------------------------

type PCE struct{ h *C.cuzk_pce }

// NewSHA256PCE records the built-in SHA-256 preimage circuit for messages of n bytes.
func NewSHA256PCE(n int) (*PCE, error) {
	var eb errBuf
	p := &PCE{}
	ep, el := eb.ptr()
	if err := check("cuzk_sha256_pce", C.cuzk_sha256_pce(&p.h, C.size_t(n), ep, el), eb.String); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(p, (*PCE).Close)
	return p, nil
}

func (p *PCE) Close() {
	C.cuzk_pce_destroy(p.h)
	p.h = nil
}

func (p *PCE) lastError() string {
	return errText(func(o *C.char, n C.size_t) C.size_t { return C.cuzk_pce_last_error(o, n, p.h) })
}

// Counts returns the inputs (with ONE), aux variables and constraints.
func (p *PCE) Counts() (inputs, aux uint32, constraints uint64, err error) {
	var info C.cuzk_pce_info
	info.struct_size = C.uint32_t(unsafe.Sizeof(info))
	err = check("cuzk_pce_info_get", C.cuzk_pce_info_get(&info, p.h), p.lastError)
	runtime.KeepAlive(p)
	return uint32(info.num_inputs), uint32(info.num_aux), uint64(info.num_constraints), err
}

// SHA256Witness returns the packed inputs (starting with ONE) and aux
// scalars of the built-in circuit for one message.
func SHA256Witness(msg []byte) (inputs, aux []byte, err error) {
	var eb errBuf
	ep, el := eb.ptr()
	var ni, na C.size_t
	st := C.cuzk_sha256_witness(nil, 0, &ni, nil, 0, &na, bytePtr(msg), C.size_t(len(msg)), ep, el)
	if err = check("cuzk_sha256_witness (size query)", st, eb.String); err != nil {
		return nil, nil, err
	}
	inputs = make([]byte, int(ni)*C.CUZK_SCALAR_SIZE)
	aux = make([]byte, int(na)*C.CUZK_SCALAR_SIZE)
	st = C.cuzk_sha256_witness(bytePtr(inputs), C.size_t(len(inputs)), &ni, bytePtr(aux), C.size_t(len(aux)), &na,
		bytePtr(msg), C.size_t(len(msg)), ep, el)
	if err = check("cuzk_sha256_witness", st, eb.String); err != nil {
		return nil, nil, err
	}
	return inputs, aux, nil
}

// ---- keys --------------------------------------------------------------------

type Key struct{ h *C.cuzk_key }

// SetupDevKey makes a development key (NOT a ceremony) in the bellperson convention.
func SetupDevKey(p *PCE) (*Key, error) {
	var eb errBuf
	ep, el := eb.ptr()
	k := &Key{}
	st := C.cuzk_key_setup_dev(&k.h, p.h, C.CUZK_CONVENTION_BELLPERSON, 0, ep, el)
	runtime.KeepAlive(p)
	if err := check("cuzk_key_setup_dev", st, eb.String); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(k, (*Key).Close)
	return k, nil
}

func (k *Key) Close() {
	C.cuzk_key_destroy(k.h)
	k.h = nil
}

func (k *Key) lastError() string {
	return errText(func(o *C.char, n C.size_t) C.size_t { return C.cuzk_key_last_error(o, n, k.h) })
}

// Verify checks one proof (192 bytes for a BLS12-381 key, 256 for a BN254 key)
// against packed public inputs (without ONE).
func (k *Key) Verify(proof, public []byte) (bool, error) {
	var ok C.int32_t
	st := C.cuzk_key_verify(&ok, k.h, bytePtr(proof), C.size_t(len(proof)), bytePtr(public),
		C.size_t(len(public)/C.CUZK_SCALAR_SIZE))
	runtime.KeepAlive(k)
	if err := check("cuzk_key_verify", st, k.lastError); err != nil {
		return false, err
	}
	return ok == 1, nil
}

// ---- timeline ----------------------------------------------------------------

// Event is a timeline event copied out of the C struct.
type Event struct {
	Name, Job                 string
	Phase                     int32
	TNs                       uint64
	Partition, Worker, Device int32
}

func eventFromC(ev *C.cuzk_event) Event {
	return Event{
		Name: C.GoString(ev.name), Job: C.GoString(ev.job), Phase: int32(ev.phase), TNs: uint64(ev.t_ns),
		Partition: int32(ev.partition), Worker: int32(ev.worker), Device: int32(ev.device),
	}
}

// goTimelineEvent runs on the engine's threads (and inside submit/destroy on
// ours): it must return quickly and must not call engine or job functions.
//
//export goTimelineEvent
func goTimelineEvent(h C.uintptr_t, ev *C.cuzk_event) {
	fn := cgo.Handle(h).Value().(func(Event))
	fn(eventFromC(ev))
}

type TimelineBuffer struct{ h *C.cuzk_timeline_buffer }

func NewTimelineBuffer(capacity int) (*TimelineBuffer, error) {
	var eb errBuf
	ep, el := eb.ptr()
	b := &TimelineBuffer{}
	if err := check("cuzk_timeline_buffer_create", C.cuzk_timeline_buffer_create(&b.h, C.size_t(capacity), ep, el),
		eb.String); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(b, (*TimelineBuffer).Close)
	return b, nil
}

func (b *TimelineBuffer) Close() {
	C.cuzk_timeline_buffer_destroy(b.h)
	b.h = nil
}

func (b *TimelineBuffer) lastError() string {
	return errText(func(o *C.char, n C.size_t) C.size_t { return C.cuzk_timeline_buffer_last_error(o, n, b.h) })
}

// Drain moves every waiting event out of the buffer, oldest first.
func (b *TimelineBuffer) Drain() ([]Event, error) {
	const chunk = 256
	evs := (*[chunk]C.cuzk_event)(C.calloc(chunk, C.sizeof_cuzk_event))
	defer C.free(unsafe.Pointer(evs))
	var out []Event
	for {
		var n C.size_t
		st := C.cuzk_timeline_buffer_drain(&n, &evs[0], chunk, C.sizeof_cuzk_event, b.h)
		if err := check("cuzk_timeline_buffer_drain", st, b.lastError); err != nil {
			return out, err
		}
		for i := 0; i < int(n); i++ { // strings valid until the next drain: copy now
			out = append(out, eventFromC(&evs[i]))
		}
		if n < chunk {
			runtime.KeepAlive(b)
			return out, nil
		}
	}
}

func (b *TimelineBuffer) Dropped() (uint64, error) {
	var n C.uint64_t
	err := check("cuzk_timeline_buffer_dropped", C.cuzk_timeline_buffer_dropped(&n, b.h), b.lastError)
	runtime.KeepAlive(b)
	return uint64(n), err
}

// ---- engine ------------------------------------------------------------------

type Engine struct {
	h      *C.cuzk_engine
	cb     *C.cuzk_timeline_callbacks // C memory: the library copies it, we free it on Close
	handle cgo.Handle                 // the Go callback; deleted after the engine's threads are gone
}

// NewEngine starts an engine with default sizes. onEvent (may be nil) is
// called for every timeline event, on the engine's threads; buf (may be nil)
// receives the same events.
func NewEngine(onEvent func(Event), buf *TimelineBuffer) (*Engine, error) {
	var opt C.cuzk_engine_options
	C.cuzk_engine_options_init(&opt)
	e := &Engine{}
	if onEvent != nil {
		e.handle = cgo.NewHandle(onEvent)
		e.cb = (*C.cuzk_timeline_callbacks)(C.calloc(1, C.sizeof_cuzk_timeline_callbacks))
		C.cuzk_timeline_callbacks_init(e.cb)
		C.gohost_set_user_data(e.cb, C.uintptr_t(e.handle))
		e.cb.on_event = (*[0]byte)(C.gohost_on_event)
		opt.timeline_callbacks = e.cb
	}
	if buf != nil {
		opt.timeline_buffer = buf.h
	}
	var eb errBuf
	ep, el := eb.ptr()
	st := C.cuzk_engine_create(&e.h, &opt, ep, el)
	runtime.KeepAlive(buf)
	if err := check("cuzk_engine_create", st, eb.String); err != nil {
		e.free()
		return nil, err
	}
	runtime.SetFinalizer(e, (*Engine).Close)
	return e, nil
}

func (e *Engine) free() {
	if e.cb != nil {
		C.free(unsafe.Pointer(e.cb))
		e.cb = nil
	}
	if e.handle != 0 {
		e.handle.Delete()
		e.handle = 0
	}
}

// Close cancels unfinished jobs and joins the engine's threads; no callback
// comes after it returns.
func (e *Engine) Close() {
	C.cuzk_engine_destroy(e.h)
	e.h = nil
	e.free()
}

func (e *Engine) lastError() string {
	return errText(func(o *C.char, n C.size_t) C.size_t { return C.cuzk_engine_last_error(o, n, e.h) })
}

func (e *Engine) AddKey(k *Key, p *PCE, name string) (uint32, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var id C.uint32_t
	st := C.cuzk_engine_add_key(&id, e.h, k.h, p.h, cname, 0)
	runtime.KeepAlive(k)
	runtime.KeepAlive(p)
	runtime.KeepAlive(e)
	return uint32(id), check("cuzk_engine_add_key", st, e.lastError)
}

// KeyPlacement says where a registered key's points are while it proves:
// on the host (a cpu engine), resident on the devices, or streamed (copied
// from host memory at every prove, slower, because a device cannot hold
// them), and the device bytes the engine counts as the key's on each device.
func (e *Engine) KeyPlacement(key uint32) (string, uint64, error) {
	var where C.uint32_t
	var bytes C.uint64_t
	st := C.cuzk_engine_key_placement(&where, &bytes, e.h, C.uint32_t(key))
	runtime.KeepAlive(e)
	if err := check("cuzk_engine_key_placement", st, e.lastError); err != nil {
		return "", 0, err
	}
	names := map[C.uint32_t]string{C.CUZK_KEY_ON_HOST: "host", C.CUZK_KEY_RESIDENT: "resident", C.CUZK_KEY_STREAMED: "streamed"}
	return names[where], uint64(bytes), nil
}

// KeyRegistration says where registering a key on a cuda engine's devices
// spent its time, in seconds (each part the slowest device's): the sizes,
// checks and gather index lists; the PCE prepared and uploaded; the points
// uploaded (a mapped .params file's decoded on the way). Zeros on a cpu
// engine.
func (e *Engine) KeyRegistration(key uint32) (layout, pce, points float64, err error) {
	var l, c, p C.double
	st := C.cuzk_engine_key_registration(&l, &c, &p, e.h, C.uint32_t(key))
	runtime.KeepAlive(e)
	if err := check("cuzk_engine_key_registration", st, e.lastError); err != nil {
		return 0, 0, 0, err
	}
	return float64(l), float64(c), float64(p), nil
}

// Witness is one partition's packed inputs (starting with ONE) and aux scalars.
type Witness struct{ Inputs, Aux []byte }

// Submit queues a job of witness partitions under key id.
func (e *Engine) Submit(key uint32, id string, parts []Witness) (*Job, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("Submit: a job needs at least one partition")
	}
	// The partition table holds pointers, so it and what it points to live
	// in C memory; everything is copied by cuzk_engine_submit.
	table := (*[1 << 20]C.cuzk_partition)(C.calloc(C.size_t(len(parts)), C.sizeof_cuzk_partition))[:len(parts):len(parts)]
	var blocks []unsafe.Pointer
	defer func() {
		for _, b := range blocks {
			C.free(b)
		}
		C.free(unsafe.Pointer(&table[0]))
	}()
	for i, w := range parts {
		C.cuzk_partition_init(&table[i])
		in, aux := C.CBytes(w.Inputs), C.CBytes(w.Aux)
		blocks = append(blocks, in, aux)
		table[i].kind = C.CUZK_PARTITION_WITNESS
		table[i].inputs = (*C.uint8_t)(in)
		table[i].num_inputs = C.size_t(len(w.Inputs) / C.CUZK_SCALAR_SIZE)
		table[i].aux = (*C.uint8_t)(aux)
		table[i].num_aux = C.size_t(len(w.Aux) / C.CUZK_SCALAR_SIZE)
	}
	var opt C.cuzk_job_options
	C.cuzk_job_options_init(&opt)
	cid := C.CString(id)
	defer C.free(unsafe.Pointer(cid))
	opt.id = cid
	j := &Job{}
	st := C.cuzk_engine_submit(&j.h, e.h, C.uint32_t(key), &table[0], C.size_t(len(parts)), &opt)
	runtime.KeepAlive(e)
	if err := check("cuzk_engine_submit", st, e.lastError); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(j, (*Job).Close)
	return j, nil
}

// ---- jobs --------------------------------------------------------------------

type Job struct{ h *C.cuzk_job }

func (j *Job) Close() {
	C.cuzk_job_destroy(j.h)
	j.h = nil
}

func (j *Job) lastError() string {
	return errText(func(o *C.char, n C.size_t) C.size_t { return C.cuzk_job_last_error(o, n, j.h) })
}

func (j *Job) ID() string {
	s := C.GoString(C.cuzk_job_id(j.h))
	runtime.KeepAlive(j)
	return s
}

// Wait blocks until the job has ended, then returns its outcome: nil when it
// completed, otherwise an error with the job's code, partition and message.
func (j *Job) Wait() error {
	if err := check("cuzk_job_wait", C.cuzk_job_wait(j.h, -1), j.lastError); err != nil {
		return err
	}
	var code C.cuzk_status
	var part C.int32_t
	if err := check("cuzk_job_status", C.cuzk_job_status(&code, &part, j.h), j.lastError); err != nil {
		return err
	}
	if code != C.CUZK_OK {
		return &Error{Op: fmt.Sprintf("job %s (partition %d)", j.ID(), int(part)), Code: int32(code),
			Msg: C.GoString(C.cuzk_job_message(j.h))}
	}
	runtime.KeepAlive(j)
	return nil
}

// read runs a size query, then reads into a buffer of that size.
func (j *Job) read(op string, f func(out *C.uint8_t, n C.size_t, size *C.size_t) C.cuzk_status) ([]byte, error) {
	var size C.size_t
	if err := check(op+" (size query)", f(nil, 0, &size), j.lastError); err != nil {
		return nil, err
	}
	buf := make([]byte, int(size))
	if err := check(op, f(bytePtr(buf), size, &size), j.lastError); err != nil {
		return nil, err
	}
	runtime.KeepAlive(j)
	return buf[:size], nil
}

// Proof is partition p's proof (its length from the size query: 192 bytes
// for a BLS12-381 key, 256 for a BN254 key).
func (j *Job) Proof(p int) ([]byte, error) {
	return j.read("cuzk_job_proof", func(o *C.uint8_t, n C.size_t, s *C.size_t) C.cuzk_status {
		return C.cuzk_job_proof(o, n, s, j.h, C.size_t(p))
	})
}

// Proofs is the assembled proof: every partition's proof in order.
func (j *Job) Proofs() ([]byte, error) {
	return j.read("cuzk_job_proofs", func(o *C.uint8_t, n C.size_t, s *C.size_t) C.cuzk_status {
		return C.cuzk_job_proofs(o, n, s, j.h)
	})
}

// PublicInputs is partition p's packed public inputs (without ONE).
func (j *Job) PublicInputs(p int) ([]byte, error) {
	return j.read("cuzk_job_public_inputs", func(o *C.uint8_t, n C.size_t, s *C.size_t) C.cuzk_status {
		return C.cuzk_job_public_inputs(o, n, s, j.h, C.size_t(p))
	})
}

// ---- library -----------------------------------------------------------------

// CheckABI fails when the loaded library's ABI differs from the header's.
func CheckABI() error {
	if got := uint32(C.cuzk_abi_version()); got != C.CUZK_ABI_VERSION {
		return fmt.Errorf("libcuzk ABI %d, but this program was compiled against cuzk.h ABI %d", got,
			C.CUZK_ABI_VERSION)
	}
	return nil
}

func BuildInfo() string { return C.GoString(C.cuzk_build_info()) }
