// cuzk Go host: proves the built-in SHA-256 preimage circuit through the C
// ABI (libcuzk.so) with the proving engine, and checks everything it gets
// back. 2 jobs × 3 partitions, each partition a different message; every
// per-partition proof and every assembled (multi-partition) proof is
// verified through the C ABI, the public inputs are compared with Go's own
// SHA-256 of the message, and a proof is checked to fail against another
// partition's inputs. Timeline events arrive through a Go callback (on the
// engine's threads) and through a buffered sink drained at the end; the two
// counts must agree. Exits non-zero on any failure.
//
// With -c1 FILE -prover-id HEX -sector-id N it then proves that C1 output
// (PoRep C2) and verifies the proof (porep.go).
//
// With -post-vanilla PREFIX it proves the vanilla proofs PREFIX-window-0 and
// -1.vanilla of two 2 KiB sectors (StackedDrgWindow2KiBV1_2, randomness
// 0x05 × 31 ‖ 0x00; test_capi_post_fixture writes them) as one WindowPoSt
// partition and verifies the proof (post.go); without it that part is
// skipped.
//
// With -update-vanilla PREFIX it proves the vanilla partition proof
// PREFIX-update-0.vanilla of a 2 KiB SnapDeals update (StackedDrg2KiBV1,
// h = 1) with the commitments PREFIX-update.public (comm_r_old ‖ comm_d_new
// ‖ comm_r_new; test_capi_update_fixture writes both) and verifies the
// proof (update.go); without it that part is skipped.
//
// A module of its own that imports the Go binding (cuzk.example/cuzk,
// bindings/go in this repository, through the replace directive in go.mod).
// Build: see README.md (pkg-config cuzk-capi).
package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"cuzk.example/cuzk"
)

const (
	numJobs       = 2
	numPartitions = 3
	preimageLen   = 48 // one SHA-256 block
	proofSize     = cuzk.ProofSize
	scalarSize    = cuzk.ScalarSize
)

// message is partition p of job j's secret preimage (preimageLen bytes).
func message(j, p int) []byte {
	m := []byte(fmt.Sprintf("cuzk go host: job %d, partition %d", j, p))
	for len(m) < preimageLen {
		m = append(m, '.')
	}
	return m[:preimageLen]
}

// expectedPublic is the circuit's public inputs for msg: the digest as two
// 128-bit big-endian halves, each a little-endian 32-byte scalar.
func expectedPublic(msg []byte) []byte {
	d := sha256.Sum256(msg)
	out := make([]byte, 2*scalarSize)
	for half := 0; half < 2; half++ {
		for i := 0; i < 16; i++ {
			out[half*scalarSize+i] = d[half*16+15-i]
		}
	}
	return out
}

// eventCounter counts timeline events per name; called on engine threads.
type eventCounter struct {
	mu     sync.Mutex
	total  int
	byName map[string]int
}

func (c *eventCounter) add(ev cuzk.Event) {
	c.mu.Lock()
	c.total++
	c.byName[ev.Name]++
	c.mu.Unlock()
}

func run() error {
	if err := cuzk.CheckABI(); err != nil {
		return err
	}
	fmt.Println("cuzk-go:", cuzk.BuildInfo())

	pce, err := cuzk.NewSHA256PCE(preimageLen)
	if err != nil {
		return err
	}
	defer pce.Close()
	ni, na, nc, err := pce.Counts()
	if err != nil {
		return err
	}
	fmt.Printf("cuzk-go: SHA-256 circuit (%d-byte message): %d constraints, %d inputs, %d aux\n", preimageLen, nc, ni, na)

	t0 := time.Now()
	key, err := cuzk.SetupDevKey(pce)
	if err != nil {
		return err
	}
	defer key.Close()
	fmt.Printf("cuzk-go: development key (NOT a ceremony) in %.1f s\n", time.Since(t0).Seconds())

	buf, err := cuzk.NewTimelineBuffer(1 << 16)
	if err != nil {
		return err
	}
	defer buf.Close()
	counter := &eventCounter{byName: map[string]int{}}
	engine, err := cuzk.NewEngine(counter.add, buf)
	if err != nil {
		return err
	}
	engineOpen := true
	defer func() {
		if engineOpen {
			engine.Close()
		}
	}()
	keyID, err := engine.AddKey(key, pce, "sha256")
	if err != nil {
		return err
	}

	// ---- submit
	t0 = time.Now()
	jobs := make([]*cuzk.Job, numJobs)
	for j := range jobs {
		parts := make([]cuzk.Witness, numPartitions)
		for p := range parts {
			in, aux, err := cuzk.SHA256Witness(message(j, p))
			if err != nil {
				return err
			}
			parts[p] = cuzk.Witness{Inputs: in, Aux: aux}
		}
		if jobs[j], err = engine.Submit(keyID, fmt.Sprintf("go-job-%d", j), parts); err != nil {
			return err
		}
		defer jobs[j].Close()
	}

	// ---- wait, read, verify
	verified, assembled := 0, 0
	var publics [numJobs][numPartitions][]byte
	var proofs [numJobs][numPartitions][]byte
	for j, job := range jobs {
		if err := job.Wait(); err != nil {
			return err
		}
		for p := 0; p < numPartitions; p++ {
			proof, err := job.Proof(p)
			if err != nil {
				return err
			}
			if len(proof) != proofSize {
				return fmt.Errorf("job %s partition %d: proof of %d bytes, expected %d", job.ID(), p, len(proof), proofSize)
			}
			public, err := job.PublicInputs(p)
			if err != nil {
				return err
			}
			if want := expectedPublic(message(j, p)); !bytes.Equal(public, want) {
				return fmt.Errorf("job %s partition %d: public inputs %x, expected SHA-256 halves %x", job.ID(), p, public, want)
			}
			ok, err := key.Verify(proof, public)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("job %s partition %d: proof does not verify", job.ID(), p)
			}
			verified++
			proofs[j][p], publics[j][p] = proof, public
		}
		all, err := job.Proofs()
		if err != nil {
			return err
		}
		if len(all) != numPartitions*proofSize {
			return fmt.Errorf("job %s: assembled proof of %d bytes, expected %d", job.ID(), len(all), numPartitions*proofSize)
		}
		for p := 0; p < numPartitions; p++ {
			part := all[p*proofSize : (p+1)*proofSize]
			if !bytes.Equal(part, proofs[j][p]) {
				return fmt.Errorf("job %s: assembled proof bytes %d.. differ from partition %d's proof", job.ID(), p*proofSize, p)
			}
			if ok, err := key.Verify(part, publics[j][p]); err != nil || !ok {
				return fmt.Errorf("job %s: assembled proof, partition %d does not verify (%v)", job.ID(), p, err)
			}
		}
		assembled++
	}
	elapsed := time.Since(t0)

	// A proof must not verify against another partition's public inputs.
	if ok, err := key.Verify(proofs[0][0], publics[1][2]); err != nil || ok {
		return fmt.Errorf("job 0 partition 0's proof against job 1 partition 2's inputs: verified=%v err=%v (expected a clean rejection)", ok, err)
	}

	// ---- timeline: the engine is closed first, so no callback can follow
	engine.Close()
	engineOpen = false
	drained, err := buf.Drain()
	if err != nil {
		return err
	}
	dropped, err := buf.Dropped()
	if err != nil {
		return err
	}
	counter.mu.Lock()
	defer counter.mu.Unlock()
	if uint64(len(drained))+dropped != uint64(counter.total) {
		return fmt.Errorf("timeline: %d events through the callback but %d drained + %d dropped from the buffer",
			counter.total, len(drained), dropped)
	}
	// Every drained event belongs to one of our jobs (or none) and has sane fields.
	var lastNs uint64
	for _, ev := range drained {
		if !(ev.Job == "" || strings.HasPrefix(ev.Job, "go-job-")) || ev.Partition < -1 || ev.Partition >= numPartitions ||
			ev.Phase < 0 || ev.Phase > 2 || ev.Worker < -1 || ev.Device < -1 {
			return fmt.Errorf("timeline: unexpected event %+v", ev)
		}
		if ev.TNs > lastNs {
			lastNs = ev.TNs
		}
	}
	for name, want := range map[string]int{"JOB_SUBMIT": numJobs, "JOB_DONE": numJobs,
		"SYNTH_START": numJobs * numPartitions, "SYNTH_END": numJobs * numPartitions, "GPU_END": numJobs * numPartitions} {
		if got := counter.byName[name]; got != want {
			return fmt.Errorf("timeline: %d %s events, expected %d", got, name, want)
		}
	}
	names := make([]string, 0, len(counter.byName))
	for n := range counter.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, counter.byName[n])
	}

	fmt.Printf("cuzk-go: %d jobs x %d partitions proved in %.1f s\n", numJobs, numPartitions, elapsed.Seconds())
	fmt.Printf("cuzk-go: timeline: %d events via callback, %d drained from the buffer (%d dropped), last at %.1f ms\n",
		counter.total, len(drained), dropped, float64(lastNs)/1e6)
	fmt.Printf("cuzk-go: events: %s\n", strings.Join(parts, ", "))
	summary = fmt.Sprintf("%d partition proofs and %d assembled proofs verified", verified, assembled)
	return nil
}

var summary string

func main() {
	c1 := flag.String("c1", "", "a C1 output (JSON) to prove with PoRep C2 and verify")
	prover := flag.String("prover-id", "", "the sector's prover id, 64 hex digits (with -c1)")
	sector := flag.Uint64("sector-id", 0, "the sector number (with -c1)")
	postVanilla := flag.String("post-vanilla", "", "prefix of 2 KiB WindowPoSt vanilla proofs (PREFIX-window-0.vanilla, "+
		"-1.vanilla, as test_capi_post_fixture writes them) to prove and verify")
	updateVanilla := flag.String("update-vanilla", "", "prefix of a 2 KiB SnapDeals update (PREFIX-update-0.vanilla, "+
		"-update.public, as test_capi_update_fixture writes them) to prove and verify")
	flag.Parse()
	if err := run(); err != nil {
		fmt.Println("cuzk-go: FAIL:", err)
		os.Exit(1)
	}
	if *c1 != "" {
		parts, err := runPoRep(*c1, *prover, *sector)
		if err != nil {
			fmt.Println("cuzk-go: FAIL: porep:", err)
			os.Exit(1)
		}
		summary += fmt.Sprintf("; PoRep proof of %d partition(s) verified", parts)
	}
	if *postVanilla != "" {
		sectors, err := runPoSt(*postVanilla)
		if err != nil {
			fmt.Println("cuzk-go: FAIL: post:", err)
			os.Exit(1)
		}
		summary += fmt.Sprintf("; PoSt proof of %d sectors verified", sectors)
	} else {
		fmt.Println("cuzk-go: post: skipped (no -post-vanilla PREFIX: it needs vanilla proofs of 2 KiB sectors, " +
			"e.g. from test_capi_post_fixture PREFIX)")
	}
	if *updateVanilla != "" {
		parts, err := runUpdate(*updateVanilla)
		if err != nil {
			fmt.Println("cuzk-go: FAIL: update:", err)
			os.Exit(1)
		}
		summary += fmt.Sprintf("; SnapDeals proof of %d partition(s) verified", parts)
	} else {
		fmt.Println("cuzk-go: update: skipped (no -update-vanilla PREFIX: it needs a vanilla partition proof of a " +
			"2 KiB update, e.g. from test_capi_update_fixture PREFIX)")
	}
	fmt.Printf("cuzk-go: PASS: %s\n", summary)
}
