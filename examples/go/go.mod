module cuzk.example/gohost

go 1.19
