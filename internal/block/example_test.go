package block

import (
	"fmt"
	"testing"
	"unsafe"
)

func TestBlockLayout(t *testing.T) {
	b := New(Len(3) + Len(4*5) + Len(2*70))
	a := b.Int8s(3)
	c := b.Int32s(5)
	d := b.Uint16s(70)
	pa, pc, pd := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&c[0])), uintptr(unsafe.Pointer(&d[0]))
	if pa%Page != 0 || pc != pa+uintptr(Len(3)) || pd != pc+uintptr(Len(20)) {
		t.Fatalf("layout %x %x %x", pa, pc, pd)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("taking past the end did not panic")
		}
	}()
	b.Uint8s(1)
}

func Example() {
	b := New(Len(32) + Len(4*8))
	w, bias := b.Int8s(32), b.Int32s(8)
	fmt.Println(len(w), len(bias), uintptr(unsafe.Pointer(&w[0]))%Page, Len(32))
	// Output: 32 8 0 64
}
