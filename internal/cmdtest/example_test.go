package cmdtest_test

import "fmt"

// An example program's test file hands the child process to main in TestMain and checks the
// command line as a user meets it:
//
//	func TestMain(m *testing.M) {
//		cmdtest.RunMainIfAsked("evaluate", main)
//		os.Exit(m.Run())
//	}
//
//	func TestHelp(t *testing.T) { cmdtest.CheckHelp(t, "evaluate") }
//
//	func TestBadFEN(t *testing.T) {
//		out, code := cmdtest.Run(t, "-fen", "x")
//		// code is 1 or 2, out holds the error
//	}
func Example() {
	fmt.Println("see the comment")
	// Output: see the comment
}
