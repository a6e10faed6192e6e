module github.com/nnuekit/nnuekit

go 1.26

require (
	github.com/corentings/chess/v2 v2.3.2 // indirect
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/exp v0.0.0-20250128182459-e0ece0dbea4c // indirect
	golang.org/x/sys v0.41.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
