// cuzk — the constraint-system interface that circuits are written against,
// and its four implementations.
//
// A circuit is a class derived from r1cs::circuit whose synthesize() allocates
// variables and enforces constraints a·b = c on a constraint_system. We chose
// a virtual interface over a template concept: circuits and gadgets are
// compiled once (into the library) and run against any system, and the cost
// of a virtual call per allocation is small next to the work behind it.
//
// The four systems:
//   witness_cs    keeps the assignment (inputs including ONE, aux); enforce()
//                 only counts. keeps_constraints() is false, so gadgets skip
//                 building linear combinations altogether. This is the per-proof
//                 fast path, paired with a PCE for a = A·w, b = B·w, c = C·w.
//   test_cs       keeps the assignment and every constraint; first_unsatisfied()
//                 names the first constraint whose a·b != c. For tests and for
//                 debugging a circuit.
//   recording_cs  records the constraints once into a pce (pce.hpp). Values
//                 passed to alloc are accepted and ignored
//                 (is_witness_generator() is false).
//   counting_cs   only counts inputs, aux and constraints (neither values nor
//                 constraints are kept): sizing a circuit.
//
// Every system allocates input 0 = ONE (value 1) in its constructor, so
// num_inputs() starts at 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/r1cs/lc.hpp"
#include "cuzk/r1cs/packed_aux.hpp"
#include "cuzk/r1cs/pce_builder.hpp"

namespace cuzk::r1cs {

class constraint_system {
public:
    virtual ~constraint_system() = default;

    // A new private (aux) variable with the given value.
    virtual variable alloc(const fr& value) = 0;
    // A new public input variable with the given value.
    virtual variable alloc_input(const fr& value) = 0;
    // Adds the constraint a·b = c.
    virtual void enforce(const linear_combination& a, const linear_combination& b,
                         const linear_combination& c) = 0;
    // True when the values given to alloc are kept (a witness is produced);
    // when false they may be ignored, and circuits may pass anything.
    virtual bool is_witness_generator() const = 0;
    // True when enforce() uses its arguments. When false (witness_cs), a
    // gadget may call enforce_count() instead of building the combinations.
    virtual bool keeps_constraints() const = 0;

    virtual size_t num_inputs() const = 0;       // including ONE
    virtual size_t num_aux() const = 0;
    virtual size_t num_constraints() const = 0;

    // Convenience: a bit as 0 or 1.
    variable alloc_bit(bool v) { return alloc(v ? fr::one() : fr::zero()); }
    // For systems that do not keep constraints: count one without building it.
    // (Equivalent to enforce() with empty combinations.)
    void enforce_count()
    {
        static const linear_combination empty;
        enforce(empty, empty, empty);
    }
};

class circuit {
public:
    virtual ~circuit() = default;
    // Allocates the circuit's variables and constraints. const: a circuit
    // object holds its (optional) witness data and may be synthesized many
    // times, also concurrently on different systems.
    virtual void synthesize(constraint_system& cs) const = 0;
    // Optionally, a faster way to the witness: exactly the assignment that
    // synthesize() leaves in a witness_cs (inputs starting with ONE, then
    // aux), made by other means, e.g. independent parts synthesized
    // concurrently on `threads` threads (0 = all cores). Returns false, with
    // the vectors untouched, when the circuit has no such path; the caller
    // then synthesizes on a witness_cs. A virtual here (rather than a
    // separate interface found by dynamic_cast) keeps every caller on the
    // one circuit type and costs circuits without a fast path nothing.
    virtual bool witness(std::vector<fr>& inputs, std::vector<fr>& aux, unsigned threads) const
    {
        (void)inputs;
        (void)aux;
        (void)threads;
        return false;
    }
    // Optionally, the same witness with aux handed to `aux` in slices as
    // they are made (packed_aux.hpp), never as one full vector; inputs as in
    // witness(). Returns false, touching nothing, when the circuit has no
    // such path; the caller then uses witness() or synthesis.
    virtual bool witness_packed(std::vector<fr>& inputs, packed_aux_sink& aux, unsigned threads) const
    {
        (void)inputs;
        (void)aux;
        (void)threads;
        return false;
    }
};

// ---- witness_cs ---------------------------------------------------------------

class witness_cs final : public constraint_system {
public:
    witness_cs() { inputs_.push_back(fr::one()); }
    // Pre-sizes the assignment vectors (counts from a PCE or an earlier run).
    void reserve(size_t inputs, size_t aux)
    {
        inputs_.reserve(inputs);
        aux_.reserve(aux);
    }

    variable alloc(const fr& value) override
    {
        aux_.push_back(value);
        return variable::aux(uint32_t(aux_.size() - 1));
    }
    variable alloc_input(const fr& value) override
    {
        inputs_.push_back(value);
        return variable::input(uint32_t(inputs_.size() - 1));
    }
    void enforce(const linear_combination&, const linear_combination&, const linear_combination&) override
    {
        ++constraints_;
    }
    bool is_witness_generator() const override { return true; }
    bool keeps_constraints() const override { return false; }
    size_t num_inputs() const override { return inputs_.size(); }
    size_t num_aux() const override { return aux_.size(); }
    size_t num_constraints() const override { return constraints_; }

    std::span<const fr> inputs() const noexcept { return inputs_; }
    std::span<const fr> aux() const noexcept { return aux_; }
    std::span<fr> aux_mut() noexcept { return aux_; }
    std::vector<fr> take_inputs() noexcept { return std::move(inputs_); }
    std::vector<fr> take_aux() noexcept { return std::move(aux_); }

private:
    std::vector<fr> inputs_;
    std::vector<fr> aux_;
    size_t constraints_ = 0;
};

// ---- counting_cs ----------------------------------------------------------------

// Counts inputs, aux variables and constraints and keeps nothing: neither
// values (is_witness_generator() is false, so circuits may pass anything)
// nor constraints (keeps_constraints() is false, so gadgets never build
// linear combinations). Sizing a circuit of 10^8 constraints this way needs
// no memory beyond the circuit's own.
class counting_cs final : public constraint_system {
public:
    variable alloc(const fr&) override { return variable::aux(uint32_t(aux_++)); }
    variable alloc_input(const fr&) override { return variable::input(uint32_t(inputs_++)); }
    void enforce(const linear_combination&, const linear_combination&, const linear_combination&) override
    {
        ++constraints_;
    }
    bool is_witness_generator() const override { return false; }
    bool keeps_constraints() const override { return false; }
    size_t num_inputs() const override { return inputs_; }
    size_t num_aux() const override { return aux_; }
    size_t num_constraints() const override { return constraints_; }

private:
    size_t inputs_ = 1;   // ONE
    size_t aux_ = 0;
    size_t constraints_ = 0;
};

// ---- test_cs --------------------------------------------------------------------

class test_cs final : public constraint_system {
public:
    struct constraint {
        linear_combination a, b, c;
    };

    test_cs() { inputs_.push_back(fr::one()); }

    variable alloc(const fr& value) override
    {
        aux_.push_back(value);
        return variable::aux(uint32_t(aux_.size() - 1));
    }
    variable alloc_input(const fr& value) override
    {
        inputs_.push_back(value);
        return variable::input(uint32_t(inputs_.size() - 1));
    }
    void enforce(const linear_combination& a, const linear_combination& b, const linear_combination& c) override
    {
        constraints_.push_back({a, b, c});
    }
    bool is_witness_generator() const override { return true; }
    bool keeps_constraints() const override { return true; }
    size_t num_inputs() const override { return inputs_.size(); }
    size_t num_aux() const override { return aux_.size(); }
    size_t num_constraints() const override { return constraints_.size(); }

    std::span<const fr> inputs() const noexcept { return inputs_; }
    std::span<const fr> aux() const noexcept { return aux_; }
    // Overwrite values (to test that a wrong witness is caught).
    void set_input(size_t i, const fr& v) { inputs_.at(i) = v; }
    void set_aux(size_t j, const fr& v) { aux_.at(j) = v; }
    const std::vector<constraint>& constraints() const noexcept { return constraints_; }

    // The index of the first constraint with a·b != c under the current
    // assignment, or nullopt when all hold.
    std::optional<size_t> first_unsatisfied() const;
    bool is_satisfied() const { return !first_unsatisfied(); }

private:
    std::vector<fr> inputs_;
    std::vector<fr> aux_;
    std::vector<constraint> constraints_;
};

// ---- checking_cs ----------------------------------------------------------------

// Keeps the assignment and checks each constraint as it arrives, keeping
// none: a satisfaction test for circuits too large for test_cs's memory.
class checking_cs final : public constraint_system {
public:
    checking_cs() { inputs_.push_back(fr::one()); }
    variable alloc(const fr& value) override
    {
        aux_.push_back(value);
        return variable::aux(uint32_t(aux_.size() - 1));
    }
    variable alloc_input(const fr& value) override
    {
        inputs_.push_back(value);
        return variable::input(uint32_t(inputs_.size() - 1));
    }
    void enforce(const linear_combination& a, const linear_combination& b, const linear_combination& c) override;
    bool is_witness_generator() const override { return true; }
    bool keeps_constraints() const override { return true; }
    size_t num_inputs() const override { return inputs_.size(); }
    size_t num_aux() const override { return aux_.size(); }
    size_t num_constraints() const override { return constraints_; }

    std::span<const fr> inputs() const noexcept { return inputs_; }
    // The index of the first constraint with a·b != c, or nullopt.
    std::optional<size_t> first_unsatisfied() const noexcept { return first_bad_; }

private:
    std::vector<fr> inputs_;
    std::vector<fr> aux_;
    size_t constraints_ = 0;
    std::optional<size_t> first_bad_;
};

// ---- recording_cs -------------------------------------------------------------------

// Records constraints into CSR rows. Rows are canonicalised as they arrive
// (repeated variables merged, zero coefficients dropped, columns sorted) and
// coefficients are coded: +1 and −1 by a tag, anything else by an index into a
// deduplicated coefficient table. Inputs may be allocated after aux variables
// (packing public outputs at the end is common), so aux columns are held with
// bit 31 set until finish() knows the final input count and maps aux j to
// column num_inputs + j.
class recording_cs final : public constraint_system {
public:
    recording_cs() = default;
    // A recording of one part of a larger circuit: its first input is input
    // `first_input` (>= 1: input 0 is ONE) and its first aux variable aux
    // `first_aux`, and its constraints may use every variable before those
    // (the parts recorded elsewhere). finish() then counts those variables
    // too. Throws errc::invalid_argument for first_input 0.
    recording_cs(size_t first_input, size_t first_aux);

    variable alloc(const fr&) override;
    variable alloc_input(const fr&) override;
    void enforce(const linear_combination& a, const linear_combination& b, const linear_combination& c) override;
    bool is_witness_generator() const override { return false; }
    bool keeps_constraints() const override { return true; }
    size_t num_inputs() const override { return num_inputs_; }
    size_t num_aux() const override { return num_aux_; }
    size_t num_constraints() const override { return size_t(b_.num_constraints()); }

    // The recorded matrices with densities. Leaves this object as new (only
    // ONE allocated).
    pce finish();

private:
    size_t num_inputs_ = 1;
    size_t num_aux_ = 0;
    pce_builder b_{pce_builder::columns::tagged};
    std::vector<pce_builder::entry> sa_, sb_, sc_;   // scratch rows
};

// Records `c` into a PCE (convenience: recording_cs + finish()).
pce record(const circuit& c);

} // namespace cuzk::r1cs
