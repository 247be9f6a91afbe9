// Package cuzk is the Go binding of cuzk's C ABI (cuzk.h and
// cuzk_filecoin.h, libcuzk.so): a Groth16 prover with a proving engine,
// Filecoin PoRep C2, PoSt and SnapDeals.
//
// One Go type per C handle (PCE, Key, Engine, Job, TimelineBuffer), each
// released by Close; a finalizer calls Close as a safety net, but a program
// should Close what it creates (a key or an engine holds much memory). Every
// failed call returns an *Error with the status code and the handle's error
// text. Handles may be used from any goroutine.
//
// The package is built with cgo against the installed library, found by
// pkg-config (cuzk-capi.pc); see the repository's README. The binding is
// written for the C ABI version ABIVersion: it does not compile against a
// cuzk.h of another version, and every constructor fails with an
// ErrABIMismatch *Error when the libcuzk.so loaded at run time has another
// (CheckABI reports it up front).
//
// cgo pointer rules: memory handed to C that holds pointers (the partition
// table, the callback table) is allocated with C.malloc; plain byte buffers
// may be Go memory because C only reads or writes them during the call.
// Buffers the library keeps after the call (borrowed partitions, see
// SubmitBorrowed) are C memory (CBuffer).
package cuzk

/*
#cgo pkg-config: cuzk-capi
#include <stdint.h>
#include <stdlib.h>
#include "cuzk.h"

#if CUZK_ABI_VERSION != 2
#error "this Go binding is written for cuzk C ABI 2 (CUZK_ABI_VERSION in cuzk.h differs): use the binding of your cuzk"
#endif

// trampoline.c
void cuzkgo_on_event(void* user_data, const cuzk_event* ev);
void cuzkgo_set_user_data(cuzk_timeline_callbacks* cb, uintptr_t handle);
*/
import "C"

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// ABIVersion is the C ABI version (CUZK_ABI_VERSION) this binding is
// written for.
const ABIVersion = 2

// ScalarSize is the size of a packed scalar (a little-endian field element).
const ScalarSize = C.CUZK_SCALAR_SIZE

// ProofSize is the size of one BLS12-381 Groth16 proof (a partition's).
const ProofSize = C.CUZK_PROOF_SIZE

// Status is a C ABI status code (cuzk_status): 0 is success, the others are
// the constants below.
type Status int32

// The status codes of cuzk.h, pinned by the C ABI.
const (
	OK                    Status = C.CUZK_OK
	ErrInvalidArgument    Status = C.CUZK_ERR_INVALID_ARGUMENT
	ErrBadLength          Status = C.CUZK_ERR_BAD_LENGTH
	ErrNonCanonical       Status = C.CUZK_ERR_NON_CANONICAL
	ErrBadFlags           Status = C.CUZK_ERR_BAD_FLAGS
	ErrNotOnCurve         Status = C.CUZK_ERR_NOT_ON_CURVE
	ErrNotInSubgroup      Status = C.CUZK_ERR_NOT_IN_SUBGROUP
	ErrUnexpectedIdentity Status = C.CUZK_ERR_UNEXPECTED_IDENTITY
	ErrNoSquareRoot       Status = C.CUZK_ERR_NO_SQUARE_ROOT
	ErrIO                 Status = C.CUZK_ERR_IO
	ErrBadFormat          Status = C.CUZK_ERR_BAD_FORMAT
	ErrUnsatisfied        Status = C.CUZK_ERR_UNSATISFIED
	ErrUnsupported        Status = C.CUZK_ERR_UNSUPPORTED
	ErrCancelled          Status = C.CUZK_ERR_CANCELLED
	ErrOutOfMemory        Status = C.CUZK_ERR_OUT_OF_MEMORY
	ErrDevice             Status = C.CUZK_ERR_DEVICE
	ErrInternal           Status = C.CUZK_ERR_INTERNAL
	ErrNull               Status = C.CUZK_ERR_NULL
	ErrInvalidHandle      Status = C.CUZK_ERR_INVALID_HANDLE
	ErrBufferTooSmall     Status = C.CUZK_ERR_BUFFER_TOO_SMALL
	ErrNotFinished        Status = C.CUZK_ERR_NOT_FINISHED
	ErrTimeout            Status = C.CUZK_ERR_TIMEOUT
	ErrStructSize         Status = C.CUZK_ERR_STRUCT_SIZE
	// ErrABIMismatch is the binding's own code (not the library's): the
	// loaded libcuzk.so has another ABI version than ABIVersion.
	ErrABIMismatch Status = -1000
)

// String is the code's short stable name ("ok", "bad_format", …).
func (s Status) String() string {
	if s == ErrABIMismatch {
		return "abi_mismatch"
	}
	return C.GoString(C.cuzk_status_name(C.cuzk_status(s)))
}

// Error is a failed C ABI call: the function (or job), the status code and
// the library's message (the handle's error text).
type Error struct {
	Op   string // the C function, or "job <id> (partition <p>)" for a failed job
	Code Status
	Msg  string
}

// Error formats the error as "op: name (code): message".
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (%d): %s", e.Op, e.Code, int32(e.Code), e.Msg)
}

// Is makes errors.Is(err, cuzk.ErrBadFormat) true for an *Error of that code.
func (e *Error) Is(target error) bool {
	if s, ok := target.(Status); ok {
		return e.Code == s
	}
	return false
}

// Error makes a Status usable as an errors.Is target.
func (s Status) Error() string { return s.String() }

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
	return &Error{Op: op, Code: Status(st), Msg: msg()}
}

func bytePtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// ---- PCE ---------------------------------------------------------------------

// PCE is a recorded circuit (cuzk_pce): its R1CS in the pre-compiled form
// the engine evaluates.
type PCE struct{ h *C.cuzk_pce }

// NewSHA256PCE records the built-in SHA-256 preimage circuit for messages of n bytes.
func NewSHA256PCE(n int) (*PCE, error) {
	if err := abiErr(); err != nil {
		return nil, err
	}
	var eb errBuf
	p := &PCE{}
	ep, el := eb.ptr()
	if err := check("cuzk_sha256_pce", C.cuzk_sha256_pce(&p.h, C.size_t(n), ep, el), eb.String); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(p, (*PCE).Close)
	return p, nil
}

// LoadPCE maps and validates a PCE file (docs/PCE-FORMAT.md).
func LoadPCE(path string) (*PCE, error) {
	if err := abiErr(); err != nil {
		return nil, err
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var eb errBuf
	ep, el := eb.ptr()
	p := &PCE{}
	if err := check("cuzk_pce_load", C.cuzk_pce_load(&p.h, cpath, 0, ep, el), eb.String); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(p, (*PCE).Close)
	return p, nil
}

// Close releases the PCE (an engine that registered a key with it keeps its
// own reference). Calling it again does nothing.
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
	if err := abiErr(); err != nil {
		return nil, nil, err
	}
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

// Key is a proving key (cuzk_key): a development key, a bellperson .params
// key, or a Filecoin PoRep, PoSt or update key that carries its circuit.
type Key struct{ h *C.cuzk_key }

// newKey runs one of the C ABI's key constructors (fn names it) into a new
// Key: the ABI check first, the constructor's error text on failure, and a
// finalizer on success.
func newKey(fn string, make func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status) (*Key, error) {
	if err := abiErr(); err != nil {
		return nil, err
	}
	var eb errBuf
	ep, el := eb.ptr()
	k := &Key{}
	if err := check(fn, make(&k.h, ep, el), eb.String); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(k, (*Key).Close)
	return k, nil
}

// SetupDevKey makes a development key (NOT a ceremony) in the bellperson convention.
func SetupDevKey(p *PCE) (*Key, error) {
	defer runtime.KeepAlive(p)
	return newKey("cuzk_key_setup_dev", func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status {
		return C.cuzk_key_setup_dev(out, p.h, C.CUZK_CONVENTION_BELLPERSON, 0, ep, el)
	})
}

// LoadParamsKey maps a bellperson .params key (no PCE, no query
// densities: register it with AddKeyDensity).
func LoadParamsKey(path string) (*Key, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return newKey("cuzk_key_load_params", func(out **C.cuzk_key, ep *C.char, el C.size_t) C.cuzk_status {
		return C.cuzk_key_load_params(out, cpath, 0, 0, ep, el)
	})
}

// SaveParams writes the key as a bellperson .params file.
func (k *Key) SaveParams(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	err := check("cuzk_key_save_params", C.cuzk_key_save_params(k.h, cpath), k.lastError)
	runtime.KeepAlive(k)
	return err
}

// Close releases the key (an engine that registered it keeps its own
// reference). Calling it again does nothing.
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

// cuzkgoTimelineEvent runs on the engine's threads (and inside submit/destroy on
// ours): it must return quickly and must not call engine or job functions.
//
//export cuzkgoTimelineEvent
func cuzkgoTimelineEvent(h C.uintptr_t, ev *C.cuzk_event) {
	fn := cgo.Handle(h).Value().(func(Event))
	fn(eventFromC(ev))
}

// TimelineBuffer is a buffered timeline sink (cuzk_timeline_buffer): an
// engine given it copies every event into it, up to its capacity (later
// events are dropped and counted), until the host drains them.
type TimelineBuffer struct {
	mu sync.Mutex // one Drain at a time (the C strings live until the next drain)
	h  *C.cuzk_timeline_buffer
}

// NewTimelineBuffer makes a buffer of capacity events.
func NewTimelineBuffer(capacity int) (*TimelineBuffer, error) {
	if err := abiErr(); err != nil {
		return nil, err
	}
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

// Close releases the buffer (an engine given it keeps its own reference).
func (b *TimelineBuffer) Close() {
	C.cuzk_timeline_buffer_destroy(b.h)
	b.h = nil
}

func (b *TimelineBuffer) lastError() string {
	return errText(func(o *C.char, n C.size_t) C.size_t { return C.cuzk_timeline_buffer_last_error(o, n, b.h) })
}

// Drain moves every waiting event out of the buffer, oldest first.
func (b *TimelineBuffer) Drain() ([]Event, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
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

// Dropped is the number of events dropped because the buffer was full.
func (b *TimelineBuffer) Dropped() (uint64, error) {
	var n C.uint64_t
	err := check("cuzk_timeline_buffer_dropped", C.cuzk_timeline_buffer_dropped(&n, b.h), b.lastError)
	runtime.KeepAlive(b)
	return uint64(n), err
}

// ---- engine ------------------------------------------------------------------

// Engine is the proving engine (cuzk_engine) with its threads: keys are
// registered with it, jobs of partitions are submitted to it.
type Engine struct {
	h      *C.cuzk_engine
	cb     *C.cuzk_timeline_callbacks // C memory: the library copies it, we free it on Close
	handle cgo.Handle                 // the Go callback; deleted after the engine's threads are gone
}

// NewEngine starts an engine with default sizes. onEvent (may be nil) is
// called for every timeline event, on the engine's threads; buf (may be nil)
// receives the same events.
func NewEngine(onEvent func(Event), buf *TimelineBuffer) (*Engine, error) {
	if err := abiErr(); err != nil {
		return nil, err
	}
	var opt C.cuzk_engine_options
	C.cuzk_engine_options_init(&opt)
	e := &Engine{}
	if onEvent != nil {
		e.handle = cgo.NewHandle(onEvent)
		e.cb = (*C.cuzk_timeline_callbacks)(C.calloc(1, C.sizeof_cuzk_timeline_callbacks))
		C.cuzk_timeline_callbacks_init(e.cb)
		C.cuzkgo_set_user_data(e.cb, C.uintptr_t(e.handle))
		e.cb.on_event = (*[0]byte)(C.cuzkgo_on_event)
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

// AddKey registers key k with its circuit p under name; the returned id
// names the key in Submit.
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

// KeyRemoval is what RemoveKey gives back: the bytes returned to the host
// memory budget and to each device's budget, and whether they were returned
// before RemoveKey returned (false: jobs of the key still held it).
type KeyRemoval struct {
	HostBytes, DeviceBytes uint64
	Freed                  bool
}

// RemoveKey unregisters a key: it takes no more jobs (Submit refuses its
// id), its jobs already submitted run to their end, and the engine gives
// its memory back when the last of them has let go of it. Ids are never
// reused; an unknown or removed id is an invalid_argument error.
func (e *Engine) RemoveKey(key uint32) (KeyRemoval, error) {
	var host, dev C.uint64_t
	var freed C.uint32_t
	st := C.cuzk_engine_remove_key(&host, &dev, &freed, e.h, C.uint32_t(key))
	runtime.KeepAlive(e)
	if err := check("cuzk_engine_remove_key", st, e.lastError); err != nil {
		return KeyRemoval{}, err
	}
	return KeyRemoval{HostBytes: uint64(host), DeviceBytes: uint64(dev), Freed: freed != 0}, nil
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

// Job is a submitted job of partitions (cuzk_job).
type Job struct {
	h        *C.cuzk_job
	borrowed *borrowState // SubmitBorrowed's partitions, until released
}

// Close releases the job handle (an unfinished job keeps running; the
// engine's Close cancels it).
func (j *Job) Close() {
	C.cuzk_job_destroy(j.h)
	j.h = nil
}

// Cancel asks the engine to stop the job; Wait then returns ErrCancelled
// unless it had already ended.
func (j *Job) Cancel() error {
	err := check("cuzk_job_cancel", C.cuzk_job_cancel(nil, j.h), j.lastError)
	runtime.KeepAlive(j)
	return err
}

func (j *Job) lastError() string {
	return errText(func(o *C.char, n C.size_t) C.size_t { return C.cuzk_job_last_error(o, n, j.h) })
}

// ID is the job's id (the one given to Submit, or one the engine made).
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
		return &Error{Op: fmt.Sprintf("job %s (partition %d)", j.ID(), int(part)), Code: Status(code),
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

// LibraryABIVersion is the ABI version of the libcuzk.so loaded at run time.
func LibraryABIVersion() int { return int(C.cuzk_abi_version()) }

// CheckABI returns an *Error with code ErrABIMismatch when the loaded
// libcuzk.so's ABI version is not ABIVersion, the one this binding is
// written for (and compiled against). Every constructor of the package makes
// the same check, once per process.
func CheckABI() error { return abiErr() }

var abiOnce struct {
	sync.Once
	err error
}

func abiErr() error {
	abiOnce.Do(func() {
		if got := LibraryABIVersion(); got != ABIVersion {
			abiOnce.err = &Error{Op: "cuzk_abi_version", Code: ErrABIMismatch, Msg: fmt.Sprintf(
				"the loaded libcuzk has C ABI %d, but this Go binding is written for ABI %d "+
					"(install the libcuzk.so.%d that matches it, or the binding of your cuzk)",
				got, ABIVersion, ABIVersion)}
		}
	})
	return abiOnce.err
}

// BuildInfo is the library's build description (version, ABI, backends).
func BuildInfo() string { return C.GoString(C.cuzk_build_info()) }
