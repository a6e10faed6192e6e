// Package ucitest is a fake UCI engine for tests of UCI clients and tournament managers: it
// plays legal moves instantly and can be told to crash, hang, send an illegal move or take too
// long, after a given number of searches.
//
// A test binary becomes the fake engine when its TestMain calls MaybeRun first:
//
//	func TestMain(m *testing.M) {
//		ucitest.MaybeRun() // exits when NNUEKIT_FAKE_UCI is set
//		os.Exit(m.Run())
//	}
//
// and the test starts os.Args[0] with the environment variables below (uci.Spec.Env).
package ucitest
