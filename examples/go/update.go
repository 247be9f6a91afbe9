// Filecoin SnapDeals (EmptySectorUpdate) through the Go binding, the way a
// Curio update-prove task does it: take the vanilla partition proofs of a
// sector's update (the bytes filecoin-proofs-api's generate_partition_proofs
// returns, one per partition), make the update key of the proof type, submit
// them with the update's commitments (comm_r_old, comm_d_new, comm_r_new),
// wait, read the proof (192 bytes a partition) and verify it from the same
// commitments.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"cuzk.example/cuzk"
)

// runUpdate proves the 2 KiB update's vanilla partition proof
// <prefix>-update-0.vanilla with the commitments <prefix>-update.public
// (comm_r_old ‖ comm_d_new ‖ comm_r_new; both written by
// test_capi_update_fixture, h = 1) and verifies the proof; returns the
// number of partitions.
func runUpdate(prefix string) (partitions int, err error) {
	const registered = cuzk.UpdateStackedDrg2KiBV1
	const h = 1 // the fixture's; 0 would mean the same for 2 KiB
	path := prefix + "-update-0.vanilla"
	v, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	vanilla := [][]byte{v}
	pubPath := prefix + "-update.public"
	pub, err := os.ReadFile(pubPath)
	if err != nil {
		return 0, err
	}
	if len(pub) != 96 {
		return 0, fmt.Errorf("%s: %d bytes, expected 96 (comm_r_old, comm_d_new, comm_r_new)", pubPath, len(pub))
	}
	var commROld, commDNew, commRNew [32]byte
	copy(commROld[:], pub[0:32])
	copy(commDNew[:], pub[32:64])
	copy(commRNew[:], pub[64:96])

	t0 := time.Now()
	key, err := cuzk.UpdateKeySetupDev(registered)
	if err != nil {
		return 0, err
	}
	defer key.Close()
	fmt.Printf("cuzk-go: update: SnapDeals (registered update proof %d), %d partition(s) of %d bytes: development key in %.1f s\n",
		registered, len(vanilla), len(v), time.Since(t0).Seconds())

	engine, err := cuzk.NewEngine(nil, nil) // default options: the cpu backend
	if err != nil {
		return 0, err
	}
	defer engine.Close()
	id, err := engine.AddUpdateKey(key, "update")
	if err != nil {
		return 0, err
	}
	// A truncated vanilla proof is refused before anything is queued, naming it.
	_, err = engine.UpdateSubmit(id, commROld, commDNew, commRNew, h, [][]byte{v[:len(v)-1]})
	var e *cuzk.Error
	if !errors.As(err, &e) || e.Code != cuzk.ErrBadLength || !strings.Contains(e.Msg, "vanilla[0]") {
		return 0, fmt.Errorf("update: submit of a truncated vanilla proof gave %v, expected bad_length naming vanilla[0]", err)
	}
	t0 = time.Now()
	job, err := engine.UpdateSubmit(id, commROld, commDNew, commRNew, h, vanilla)
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
	if len(proof) != len(vanilla)*cuzk.ProofSize {
		return 0, fmt.Errorf("update: proof of %d bytes, %d partition(s) need %d", len(proof), len(vanilla),
			len(vanilla)*cuzk.ProofSize)
	}
	elapsed := time.Since(t0)
	if ok, err := cuzk.UpdateVerify(key, registered, commROld, commDNew, commRNew, h, proof); err != nil || !ok {
		return 0, fmt.Errorf("update: the proof does not verify (%v)", err)
	}
	if ok, err := cuzk.UpdateVerify(key, registered, commROld, commDNew, commRNew, 0, proof); err != nil || !ok {
		return 0, fmt.Errorf("update: the proof does not verify with h = 0, the production value (%v)", err)
	}
	other := commDNew
	other[1] ^= 1
	if ok, err := cuzk.UpdateVerify(key, registered, commROld, other, commRNew, h, proof); err != nil || ok {
		return 0, fmt.Errorf("update: the proof verified for another comm_d_new (err %v)", err)
	}
	fmt.Printf("cuzk-go: update: %d-byte proof in %.1f s, verified; rejected for another comm_d_new; "+
		"a truncated vanilla proof refused\n", len(proof), elapsed.Seconds())
	return len(vanilla), nil
}
