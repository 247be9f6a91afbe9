// PoRep C2 through the Go binding, the way a Curio task does it: read the C1
// output (SealCommitPhase1Output JSON), make or load the key of its shape,
// submit the C2 job with the prover and sector, wait, read the concatenated
// proof and verify it from the sector's public values.
package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"cuzk.example/cuzk"
)

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
	s := cuzk.Sector{Number: sector, Ticket: pub.Ticket, Seed: pub.Seed, CommD: pub.CommD, CommR: pub.CommR}
	if b, err := hex.DecodeString(proverHex); err != nil || len(b) != 32 {
		return 0, fmt.Errorf("prover id %q: 64 hex digits expected", proverHex)
	} else {
		copy(s.Prover[:], b)
	}
	shape, err := cuzk.PoRepShapeOfC1(c1)
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	key, err := cuzk.PoRepDevKey(shape)
	if err != nil {
		return 0, err
	}
	defer key.Close()
	fmt.Printf("cuzk-go: porep: %d nodes, %d layers, %d partitions: development key in %.1f s\n",
		shape.Nodes(), shape.Layers(), shape.Partitions(), time.Since(t0).Seconds())

	counter := &eventCounter{byName: map[string]int{}}
	engine, err := cuzk.NewEngine(counter.add, nil)
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
	if _, err := engine.SubmitC2(id, c1, s.Prover, sector+1); !errors.Is(err, cuzk.ErrBadFormat) {
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
	parts := shape.Partitions()
	if len(proof) != parts*cuzk.ProofSize {
		return 0, fmt.Errorf("porep: proof of %d bytes, %d partitions need %d", len(proof), parts, parts*cuzk.ProofSize)
	}
	fmt.Printf("cuzk-go: porep: C2 in %.1f s, %d-byte proof\n", time.Since(t0).Seconds(), len(proof))
	if ok, err := key.VerifyPoRep(shape, &s, proof); err != nil || !ok {
		return 0, fmt.Errorf("porep: the proof does not verify (%v)", err)
	}
	other := s
	other.Number++
	if ok, err := key.VerifyPoRep(shape, &other, proof); err != nil || ok {
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
