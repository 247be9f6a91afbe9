package cuzk

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// The tests prove the built-in SHA-256 circuit (one 48-byte block) on the
// CPU backend, with one development key made once. With CUZK_POST_VANILLA=
// PREFIX (the files test_capi_post_fixture writes: two 2 KiB sectors'
// WindowPoSt vanilla proofs) TestPoSt also proves a WindowPoSt partition.

const preimageLen = 48

var sha struct {
	once sync.Once
	pce  *PCE
	key  *Key
	err  error
}

// shaKey is the SHA-256 circuit and its development key, made once.
func shaKey(t *testing.T) (*PCE, *Key) {
	t.Helper()
	sha.once.Do(func() {
		if sha.pce, sha.err = NewSHA256PCE(preimageLen); sha.err == nil {
			sha.key, sha.err = SetupDevKey(sha.pce)
		}
	})
	if sha.err != nil {
		t.Fatal(sha.err)
	}
	return sha.pce, sha.key
}

func message(j, p int) []byte {
	m := []byte(fmt.Sprintf("cuzk go test: job %d, partition %d", j, p))
	for len(m) < preimageLen {
		m = append(m, '.')
	}
	return m[:preimageLen]
}

// expectedPublic is the circuit's public inputs for msg: the digest as two
// 128-bit big-endian halves, each a little-endian scalar.
func expectedPublic(msg []byte) []byte {
	d := sha256.Sum256(msg)
	out := make([]byte, 2*ScalarSize)
	for half := 0; half < 2; half++ {
		for i := 0; i < 16; i++ {
			out[half*ScalarSize+i] = d[half*16+15-i]
		}
	}
	return out
}

func TestABI(t *testing.T) {
	if err := CheckABI(); err != nil {
		t.Fatal(err)
	}
	if got := LibraryABIVersion(); got != ABIVersion {
		t.Fatalf("library ABI %d, binding %d", got, ABIVersion)
	}
	if !strings.Contains(BuildInfo(), "abi") {
		t.Errorf("build info %q names no abi", BuildInfo())
	}
	if ErrBadFormat.String() != "bad_format" || ErrABIMismatch.String() != "abi_mismatch" {
		t.Errorf("status names: %s, %s", ErrBadFormat, ErrABIMismatch)
	}
}

func TestErrors(t *testing.T) {
	_, err := PoRepShapeOfC1([]byte(`{"not": "a C1 output"}`))
	var e *Error
	if !errors.As(err, &e) || e.Code != ErrBadFormat || e.Msg == "" || !errors.Is(err, ErrBadFormat) {
		t.Fatalf("a bad C1 gave %v, expected bad_format with a message", err)
	}
	if _, err := RegisteredPoSt(99); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("RegisteredPoSt(99) gave %v, expected invalid_argument", err)
	}
	pce, key := shaKey(t)
	engine, err := NewEngine(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	id, err := engine.AddKey(key, pce, "sha256")
	if err != nil {
		t.Fatal(err)
	}
	in, aux, err := SHA256Witness(message(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	// An unknown key and a short aux are refused at submit, with the engine's text.
	if _, err := engine.Submit(id+7, "bad-key", []Witness{{in, aux}}); !errors.As(err, &e) || e.Msg == "" {
		t.Fatalf("submit under an unknown key gave %v", err)
	}
	if _, err := engine.Submit(id, "short", []Witness{{in, aux[:len(aux)-ScalarSize]}}); !errors.As(err, &e) || e.Msg == "" {
		t.Fatalf("submit of a short witness gave %v", err)
	}
	// A witness that does not satisfy the circuit fails the job, naming the partition.
	bad := append([]byte(nil), aux...)
	bad[0] ^= 1
	job, err := engine.Submit(id, "unsatisfied", []Witness{{in, aux}, {in, bad}})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	if err := job.Wait(); !errors.As(err, &e) || e.Code == OK || !strings.Contains(e.Op, "partition 1") {
		t.Fatalf("an unsatisfied witness gave %v, expected a failed job naming partition 1", err)
	}
	// A removed key: its host bytes named (given back now or when the failed job's
	// other partition stops), its id refused from then on.
	r, err := engine.RemoveKey(id)
	if err != nil || r.HostBytes == 0 {
		t.Fatalf("RemoveKey gave %+v, %v: expected the key's host bytes", r, err)
	}
	if _, err := engine.RemoveKey(id); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("a second RemoveKey gave %v, expected invalid_argument", err)
	}
	if _, err := engine.Submit(id, "removed", []Witness{{in, aux}}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("submit under a removed key gave %v, expected invalid_argument", err)
	}
}

func TestEngineTimeline(t *testing.T) {
	const jobs, parts = 2, 2
	pce, key := shaKey(t)
	buf, err := NewTimelineBuffer(1 << 14)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	var mu sync.Mutex
	byName := map[string]int{}
	total := 0
	engine, err := NewEngine(func(ev Event) {
		mu.Lock()
		total++
		byName[ev.Name]++
		mu.Unlock()
	}, buf)
	if err != nil {
		t.Fatal(err)
	}
	id, err := engine.AddKey(key, pce, "sha256")
	if err != nil {
		t.Fatal(err)
	}
	if where, _, err := engine.KeyPlacement(id); err != nil || where != "host" {
		t.Fatalf("key placement %q, %v: a cpu engine keeps it on the host", where, err)
	}
	var js []*Job
	for j := 0; j < jobs; j++ {
		var ws []Witness
		for p := 0; p < parts; p++ {
			in, aux, err := SHA256Witness(message(j, p))
			if err != nil {
				t.Fatal(err)
			}
			ws = append(ws, Witness{in, aux})
		}
		job, err := engine.Submit(id, fmt.Sprintf("go-test-%d", j), ws)
		if err != nil {
			t.Fatal(err)
		}
		defer job.Close()
		js = append(js, job)
	}
	for j, job := range js {
		if err := job.Wait(); err != nil {
			t.Fatal(err)
		}
		if job.ID() != fmt.Sprintf("go-test-%d", j) {
			t.Errorf("job id %q", job.ID())
		}
		all, err := job.Proofs()
		if err != nil || len(all) != parts*ProofSize {
			t.Fatalf("assembled proof of %d bytes, %v", len(all), err)
		}
		for p := 0; p < parts; p++ {
			proof, err := job.Proof(p)
			if err != nil || !bytes.Equal(proof, all[p*ProofSize:(p+1)*ProofSize]) {
				t.Fatalf("job %d partition %d: proof %v differs from the assembled proof's", j, p, err)
			}
			public, err := job.PublicInputs(p)
			if err != nil || !bytes.Equal(public, expectedPublic(message(j, p))) {
				t.Fatalf("job %d partition %d: public inputs %x (%v), expected the SHA-256 halves", j, p, public, err)
			}
			if ok, err := key.Verify(proof, public); err != nil || !ok {
				t.Fatalf("job %d partition %d does not verify (%v)", j, p, err)
			}
			if ok, err := key.Verify(proof, expectedPublic(message(j+1, p))); err != nil || ok {
				t.Fatalf("job %d partition %d verified against other inputs (%v)", j, p, err)
			}
		}
	}
	engine.Close() // no callback after this
	drained, err := buf.Drain()
	if err != nil {
		t.Fatal(err)
	}
	dropped, err := buf.Dropped()
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if uint64(len(drained))+dropped != uint64(total) {
		t.Fatalf("%d events through the callback, %d drained + %d dropped", total, len(drained), dropped)
	}
	for name, want := range map[string]int{"JOB_SUBMIT": jobs, "JOB_DONE": jobs, "SYNTH_START": jobs * parts,
		"GPU_END": jobs * parts} {
		if byName[name] != want {
			t.Errorf("%d %s events, expected %d", byName[name], name, want)
		}
	}
}

func TestBorrowed(t *testing.T) {
	const parts = 2
	pce, key := shaKey(t)
	engine, err := NewEngine(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	id, err := engine.AddKey(key, pce, "sha256")
	if err != nil {
		t.Fatal(err)
	}
	var bps []BorrowedPartition
	var bufs []*CBuffer
	for p := 0; p < parts; p++ {
		in, aux, err := SHA256Witness(message(5, p))
		if err != nil {
			t.Fatal(err)
		}
		bp := BorrowedPartition{Form: FormCanonical, Inputs: CBufferOf(in), Aux: CBufferOf(aux)}
		bps = append(bps, bp)
		bufs = append(bufs, bp.Inputs, bp.Aux)
	}
	var mu sync.Mutex
	released := make([]int, parts)
	job, err := engine.SubmitBorrowed(id, "borrowed", bps, func(p int) {
		mu.Lock()
		released[p]++
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	if err := job.Wait(); err != nil {
		t.Fatal(err)
	}
	job.WaitReleased()
	mu.Lock()
	for p, n := range released {
		if n != 1 {
			t.Errorf("partition %d released %d times", p, n)
		}
	}
	mu.Unlock()
	for p := 0; p < parts; p++ {
		proof, err := job.Proof(p)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := key.Verify(proof, expectedPublic(message(5, p))); err != nil || !ok {
			t.Fatalf("borrowed partition %d does not verify (%v)", p, err)
		}
	}
	for _, b := range bufs {
		if err := b.Free(); err != nil {
			t.Fatal(err)
		}
	}
	// A refused submit borrows nothing: its buffers can be freed at once.
	b := CBufferOf(make([]byte, ScalarSize))
	if _, err := engine.SubmitBorrowed(id+7, "bad", []BorrowedPartition{{Inputs: b}}, nil); err == nil {
		t.Fatal("a borrowed submit under an unknown key was accepted")
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
}

// TestPoSt proves two 2 KiB sectors' WindowPoSt vanilla proofs as one
// partition (CUZK_POST_VANILLA=PREFIX: PREFIX-window-{0,1}.vanilla, as
// test_capi_post_fixture writes them for randomness 0x05 × 31 ‖ 0x00).
func TestPoSt(t *testing.T) {
	prefix := os.Getenv("CUZK_POST_VANILLA")
	if prefix == "" {
		t.Skip("CUZK_POST_VANILLA not set (test_capi_post_fixture PREFIX writes the files)")
	}
	var vanilla [][]byte
	var ids []uint64
	var commRs [][32]byte
	for i := 0; i < 2; i++ {
		v, err := os.ReadFile(fmt.Sprintf("%s-window-%d.vanilla", prefix, i))
		if err != nil {
			t.Fatal(err)
		}
		var c [32]byte
		copy(c[:], v[8:40]) // the sector number, then comm_r
		vanilla, ids, commRs = append(vanilla, v), append(ids, binary.LittleEndian.Uint64(v[:8])), append(commRs, c)
	}
	var r [32]byte
	for i := 0; i < 31; i++ {
		r[i] = 5
	}
	shape, err := RegisteredPoSt(10) // StackedDrgWindow2KiBV1_2
	if err != nil {
		t.Fatal(err)
	}
	if ch, err := PoStSectorChallenges(shape, r, ids); err != nil || len(ch) != 2 || len(ch[1]) != shape.ChallengeCount() {
		t.Fatalf("challenges %v, %v", ch, err)
	}
	if faulty, _, err := PoStCheckVanilla(shape, r, vanilla, 0); err != nil || len(faulty) != 0 {
		t.Fatalf("good vanilla proofs: faulty %v, %v", faulty, err)
	}
	key, err := PoStKeySetupDev(shape)
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()
	engine, err := NewEngine(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	id, err := engine.AddPoStKey(key, "post")
	if err != nil {
		t.Fatal(err)
	}
	job, err := engine.PoStSubmit(id, r, vanilla, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	if err := job.Wait(); err != nil {
		t.Fatal(err)
	}
	proof, err := job.Proofs()
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := PoStVerify(key, shape, r, ids, commRs, 0, proof); err != nil || !ok {
		t.Fatalf("the PoSt proof does not verify (%v)", err)
	}
	r[0] ^= 1
	if ok, err := PoStVerify(key, shape, r, ids, commRs, 0, proof); err != nil || ok {
		t.Fatalf("the PoSt proof verified for another randomness (%v)", err)
	}
}
