package simd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestNoExportedVariables: the package exports no mutable variables — every kernel is a
// function over an unexported dispatch variable that only install assigns (doc/simd.md
// "Public surface"), so no caller can replace a kernel.
func TestNoExportedVariables(t *testing.T) {
	fset := token.NewFileSet()
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files++
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					if id.IsExported() {
						t.Errorf("%s: exported variable %s", fset.Position(id.Pos()), id.Name)
					}
				}
			}
		}
	}
	if files < 20 {
		t.Fatalf("parsed only %d files", files)
	}
}
