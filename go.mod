module ilpgnn

go 1.26

require (
	github.com/campoy/embedmd v1.0.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/sbinet/npyio v0.6.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
