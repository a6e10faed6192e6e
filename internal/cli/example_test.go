package cli_test

import "fmt"

// An example command's main, with its flags defined and run(o, w) its work:
//
//	func main() {
//		var o options
//		flag.StringVar(&o.set, "set", "all", "feature-set spec")
//		cli.Parse("features", usage)
//		cli.Run("features", func(w io.Writer) error { return run(o, w) })
//	}
func Example() {
	fmt.Println("see the comment")
	// Output: see the comment
}
