package nnue

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// WriteBullet writes n as a quantised bullet network file with layout f — the arrays of the
// table in format_bullet.go in bullet's order, little-endian, zero-padded to a multiple of 64
// bytes, as bullet saves quantised.bin — and returns the Spec that loads it back with
// ParseBullet or LoadBulletFile (n's own Spec: the file records no architecture, so the
// caller must keep the string, e.g. for examples/evaluate -arch). The feature-transformer
// rows are permuted from nnuekit's ALL order back into bullet's Chess768 order (the inverse
// of ParseBullet's permutation), so ParseBullet(bytes, spec, f) evaluates every position as
// n does.
//
// f.Transposed selects [B][2N] single-layer output weights; f.Header and f.Float must be zero
// (the writer has no header to write and writes integers only).
//
// Errors: n has no Spec, the Spec is not a bullet file's (the errors of BulletFileSize:
// other inputs, PSQT, a stage without a bullet array), a single-layer output bias outside
// int16 (bullet stores it as i16), an affine.i8 layer with a nonzero int32 bias (bullet's
// bias of that layer is dequant.f32's), a header or float layout, and write errors.
func WriteBullet(w io.Writer, n *Network, f BulletFile) (Spec, error) {
	spec, err := n.Spec()
	if err != nil {
		return Spec{}, fmt.Errorf("nnue: bullet: %w", err)
	}
	if f.Header != 0 || f.Float {
		return Spec{}, fmt.Errorf("nnue: bullet: the writer writes quantised files without a header (header %d, float %v)", f.Header, f.Float)
	}
	L, err := bulletLayoutOf(spec, f)
	if err != nil {
		return Spec{}, err
	}
	size, err := L.size(false)
	if err != nil {
		return Spec{}, err
	}
	arrays := make([][]byte, len(L.tensors))
	for i, t := range L.tensors {
		arrays[i] = make([]byte, t.bytes())
	}
	ft := n.FeatureTransformer()
	L.writeTransformerRows(arrays[0], ft)
	for j, v := range ft.Bias() {
		binary.LittleEndian.PutUint16(arrays[1][2*j:], uint16(v))
	}
	nb := L.nb
	stacks := n.Architecture().Stacks
	for b := range nb {
		if len(stacks[b]) != len(spec.Stack) {
			return Spec{}, fmt.Errorf("nnue: bullet: bucket %d has %d layers for %d declared stages", b, len(stacks[b]), len(spec.Stack))
		}
		for i, st := range spec.Stack {
			in, out := L.in[i], L.out[i]
			var ps []any
			layerParams(stacks[b][i], func(p any) { ps = append(ps, p) })
			switch st.Op {
			case "screlu_affine.i16", "crelu_affine.i16":
				ws, bias := *ps[0].(*[]int16), *ps[1].(*[]int32)
				for k := range in {
					idx := k*nb + b
					if f.Transposed {
						idx = b*in + k
					}
					binary.LittleEndian.PutUint16(arrays[L.w[i]][2*idx:], uint16(ws[k]))
				}
				if bias[0] < math.MinInt16 || bias[0] > math.MaxInt16 {
					return Spec{}, fmt.Errorf("nnue: bullet: output bias %d of bucket %d is outside int16, bullet's type for it", bias[0], b)
				}
				binary.LittleEndian.PutUint16(arrays[L.b[i]][2*b:], uint16(int16(bias[0])))
			case "affine.i8":
				ws, bias := *ps[0].(*[]int8), *ps[1].(*[]int32)
				for j, v := range bias[:out] {
					if v != 0 {
						return Spec{}, fmt.Errorf("nnue: bullet: %v of bucket %d has int32 bias %d at output %d; bullet's bias of this layer is the dequant.f32 one", st, b, v, j)
					}
				}
				p := pad32(in)
				for k := range in {
					for j := range out {
						arrays[L.w[i]][(k*nb+b)*out+j] = uint8(ws[j*p+k])
					}
				}
			case "dequant.f32":
				putF32s(arrays[L.b[i]][4*b*out:], (*ps[0].(*[]float32))[:out])
			case "affine.f32", "dot.f32":
				ws := *ps[0].(*[]float32)
				for k := range in {
					putF32s(arrays[L.w[i]][4*(k*nb+b)*out:], ws[k*out:(k+1)*out])
				}
				putF32s(arrays[L.b[i]][4*b*out:], (*ps[1].(*[]float32))[:out])
			}
		}
	}
	body := make([]byte, 0, (size+63)/64*64)
	for _, a := range arrays {
		body = append(body, a...)
	}
	body = body[:cap(body)]
	if _, err := w.Write(body); err != nil {
		return Spec{}, fmt.Errorf("nnue: bullet: %w", err)
	}
	return spec, nil
}

func putF32s(dst []byte, v []float32) {
	for i, x := range v {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(x))
	}
}

// writeTransformerRows is the inverse of transformerRows: the rows of ft (nnuekit's
// kings(…)*ALL order) into bullet's l0w [768·K][N].
func (L *bulletLayout) writeTransformerRows(l0w []byte, ft *FeatureTransformer) {
	n := L.n
	L.rowPairs(func(ours, theirs int) {
		dst := l0w[2*theirs*n : 2*(theirs+1)*n]
		for j, v := range ft.Weights(ours) {
			binary.LittleEndian.PutUint16(dst[2*j:], uint16(v))
		}
	})
}
