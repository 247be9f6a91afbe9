// Filecoin PoSt through the Go binding, the way a Curio WindowPoSt task does
// it: take the vanilla proofs of a partition's sectors (the bytes
// filecoin-proofs-api's generate_single_vanilla_proof returns, one per
// sector), make the key of the proof type, submit them with the randomness,
// wait, read the 192-byte proof and verify it from the sectors' public values
// (sector numbers and comm_r).
package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"time"

	"cuzk.example/cuzk"
)

// vanillaSector reads the public values at the start of a vanilla proof
// (bincode of FallbackPoStSectorProof): the sector number (u64 LE), comm_r.
func vanillaSector(v []byte) (uint64, [32]byte, error) {
	var commR [32]byte
	if len(v) < 40 {
		return 0, commR, fmt.Errorf("a vanilla proof of %d bytes (at least 40 expected)", len(v))
	}
	copy(commR[:], v[8:40])
	return binary.LittleEndian.Uint64(v[:8]), commR, nil
}

// postRandomness is the randomness the fixture's proofs were made for: 0x05 × 31 ‖ 0x00.
func postRandomness(b byte) (r [32]byte) {
	for i := 0; i < 31; i++ {
		r[i] = b
	}
	return r
}

// runPoSt proves the 2 KiB WindowPoSt V1_2 vanilla proofs <prefix>-window-0
// and -1.vanilla (written by test_capi_post_fixture) as one partition and
// verifies the proof; returns the summary line's figures.
func runPoSt(prefix string) (sectors int, err error) {
	const registered = 10 // StackedDrgWindow2KiBV1_2
	var vanilla [][]byte
	var ids []uint64
	var commRs [][32]byte
	for i := 0; i < 2; i++ {
		path := fmt.Sprintf("%s-window-%d.vanilla", prefix, i)
		v, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		id, commR, err := vanillaSector(v)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", path, err)
		}
		vanilla, ids, commRs = append(vanilla, v), append(ids, id), append(commRs, commR)
	}
	shape, err := cuzk.RegisteredPoSt(registered)
	if err != nil {
		return 0, err
	}
	randomness := postRandomness(5)
	challenges, err := cuzk.PoStSectorChallenges(shape, randomness, ids)
	if err != nil {
		return 0, err
	}
	if len(challenges) != len(ids) || len(challenges[0]) != shape.ChallengeCount() {
		return 0, fmt.Errorf("post: %d challenge lists of %d, expected %d of %d", len(challenges), len(challenges[0]),
			len(ids), shape.ChallengeCount())
	}
	t0 := time.Now()
	key, err := cuzk.PoStKeySetupDev(shape)
	if err != nil {
		return 0, err
	}
	defer key.Close()
	fmt.Printf("cuzk-go: post: WindowPoSt (registered %d): %d nodes, %d sectors x %d challenges a partition: development key in %.1f s\n",
		shape.RegisteredProof(), shape.Nodes(), shape.SectorCount(), shape.ChallengeCount(), time.Since(t0).Seconds())

	engine, err := cuzk.NewEngine(nil, nil) // default options: the cpu backend
	if err != nil {
		return 0, err
	}
	defer engine.Close()
	id, err := engine.AddPoStKey(key, "post")
	if err != nil {
		return 0, err
	}
	// A faulty sector is found by number before anything is proved.
	if faulty, _, err := cuzk.PoStCheckVanilla(shape, randomness, vanilla, 0); err != nil || len(faulty) != 0 {
		return 0, fmt.Errorf("post: check of good vanilla proofs: faulty %v, %v", faulty, err)
	}
	damaged := append([]byte(nil), vanilla[1]...)
	damaged[8] ^= 1 // comm_r
	if faulty, why, err := cuzk.PoStCheckVanilla(shape, randomness, [][]byte{vanilla[0], damaged}, 0); err != nil ||
		len(faulty) != 1 || faulty[0] != ids[1] {
		return 0, fmt.Errorf("post: check with sector %d damaged: faulty %v (%s), %v", ids[1], faulty, why, err)
	}
	// Vanilla proofs of another randomness are refused before anything is queued.
	if _, err := engine.PoStSubmit(id, postRandomness(7), vanilla, 0); !errors.Is(err, cuzk.ErrBadFormat) {
		return 0, fmt.Errorf("post: submit for another randomness gave %v, expected bad_format", err)
	}
	t0 = time.Now()
	job, err := engine.PoStSubmit(id, randomness, vanilla, 0)
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
	if len(proof) != cuzk.ProofSize {
		return 0, fmt.Errorf("post: proof of %d bytes, one partition needs %d", len(proof), cuzk.ProofSize)
	}
	elapsed := time.Since(t0)
	if ok, err := cuzk.PoStVerify(key, shape, randomness, ids, commRs, 0, proof); err != nil || !ok {
		return 0, fmt.Errorf("post: the proof does not verify (%v)", err)
	}
	if ok, err := cuzk.PoStVerify(key, shape, postRandomness(6), ids, commRs, 0, proof); err != nil || ok {
		return 0, fmt.Errorf("post: the proof verified for another randomness (err %v)", err)
	}
	fmt.Printf("cuzk-go: post: sectors %v (challenges %v, %v): %d-byte proof in %.1f s, verified; rejected for another randomness\n",
		ids, challenges[0], challenges[1], len(proof), elapsed.Seconds())
	return len(ids), nil
}
