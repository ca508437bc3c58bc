module ilpgnn

go 1.26.0

require (
	github.com/sbinet/npyio v0.6.0
	golang.org/x/net v0.62.0
	gonum.org/v1/gonum v0.17.0
	honnef.co/go/js/dom/v2 v2.0.0-20250304181735-b5e52f05e89d
)

require (
	github.com/hack-pad/go-indexeddb v0.3.2
	github.com/hack-pad/safejs v0.1.0 // indirect
)
