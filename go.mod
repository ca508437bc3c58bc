module ilpgnn

go 1.26

require (
	github.com/sbinet/npyio v0.6.0
	gonum.org/v1/gonum v0.17.0
)

require honnef.co/go/js/dom/v2 v2.0.0-20250304181735-b5e52f05e89d // indirect

require (
	github.com/hack-pad/go-indexeddb v0.3.2
	github.com/hack-pad/safejs v0.1.0 // indirect
)
