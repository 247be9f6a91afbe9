package cuzk_test

import (
	"fmt"
	"os"

	"cuzk.example/cuzk"
)

// Proves a PoRep C2 from a C1 output file (SealCommitPhase1Output JSON) of
// a 2 KiB sector and verifies it (the README's snippet). A production
// prover loads the .params key with PoRepKeyLoad instead of making a
// development key.
func ExampleEngine_SubmitC2() {
	c1, _ := os.ReadFile("c1.json")
	var prover [32]byte // the sector's prover id
	sector := uint64(1) // and number
	shape, err := cuzk.PoRepShapeOfC1(c1)
	if err != nil {
		fmt.Println(err)
		return
	}
	key, _ := cuzk.PoRepDevKey(shape) // NOT a ceremony: development only
	defer key.Close()
	engine, _ := cuzk.NewEngine(nil, nil)
	defer engine.Close()
	id, _ := engine.AddPoRepKey(key, "porep-2k")
	job, err := engine.SubmitC2(id, c1, prover, sector)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer job.Close()
	if err := job.Wait(); err != nil {
		fmt.Println(err)
		return
	}
	proof, _ := job.Proofs() // 192 bytes a partition
	fmt.Println(len(proof))
}

// Proves the built-in SHA-256 circuit for one message and verifies it.
func ExampleEngine_Submit() {
	pce, _ := cuzk.NewSHA256PCE(48)
	defer pce.Close()
	key, _ := cuzk.SetupDevKey(pce)
	defer key.Close()
	engine, _ := cuzk.NewEngine(nil, nil)
	defer engine.Close()
	id, _ := engine.AddKey(key, pce, "sha256")
	inputs, aux, _ := cuzk.SHA256Witness(make([]byte, 48))
	job, _ := engine.Submit(id, "sha-0", []cuzk.Witness{{Inputs: inputs, Aux: aux}})
	defer job.Close()
	if err := job.Wait(); err != nil {
		fmt.Println(err)
		return
	}
	proof, _ := job.Proof(0)
	public, _ := job.PublicInputs(0)
	ok, _ := key.Verify(proof, public)
	fmt.Println(ok)
}
