module cuzk.example/gohost

go 1.19

require cuzk.example/cuzk v0.0.0

// The binding from this repository; a module outside it points the replace
// at its checkout of cuzk (or drops it once the binding is published).
replace cuzk.example/cuzk => ../../bindings/go
