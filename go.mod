module ilpgnn

go 1.26

require (
	github.com/sbinet/npyio v0.6.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/hack-pad/go-indexeddb v0.3.2
	github.com/hack-pad/safejs v0.1.0 // indirect
)
