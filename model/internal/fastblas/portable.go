package fastblas

// portableGemm: C = alpha·op(A)·op(B) + beta·C in plain Go, for WebAssembly,
// where there are no assembly kernels. It keeps a 4 × 4 block of C in local
// variables while k runs innermost, instead of gonum's one pass over a row
// of C per element of A, and it rounds every element exactly as gonum's
// pure-Go Dgemm does (v0.11.0, blas/gonum/dgemm.go), so that switching to it
// changes no bit of a browser run:
//
//   - NN, TN and TT (gonum's AxpyUnitary/AxpyInc loops): C is first scaled
//     by beta; then, for l = 0, 1, ..., k-1, t = alpha·A[i,l] is rounded and,
//     when t ≠ 0, C[i,j] += t·B[l,j], with the product rounded before the sum.
//   - NT (gonum's DotUnitary loop): s = Σ_l A[i,l]·B[j,l] in order from 0,
//     then C[i,j] += alpha·s; when gonum takes its parallel path (at least
//     minParBlocks blocks of 64 × 64 in C) it does this once per 64 steps of l.
//
// Products are rounded before they are added (float64(x*y)) so that no
// compiler fuses them into an FMA. On amd64 gonum's DotUnitary is assembly
// with several partial sums, so there NT agrees with gonum to rounding only.
func portableGemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if alpha == 0 && beta == 1 { // gonum's quick return: C untouched, even where A·B would be NaN
		return
	}
	scale(beta, c, m, n, ldc)
	ars, acs := strides(transA, lda)
	brs, bcs := strides(transB, ldb)
	dot := !transA && transB
	chunk := k // dot order: steps of l summed before adding to C
	if dot && blocks64(m)*blocks64(n) >= minParBlocks {
		chunk = gonumBlock
	}
	nBlocks := (n + pr - 1) / pr
	buf := f64.get(nBlocks*pr*k + pr*k + pr*pr)
	defer f64.pool.Put(buf)
	bPack, aPack, scratch := (*buf)[:nBlocks*pr*k], (*buf)[nBlocks*pr*k:nBlocks*pr*k+pr*k], (*buf)[nBlocks*pr*k+pr*k:]
	pack(bPack, b, 0, n, pr, 0, k, bcs, brs)
	for i0 := 0; i0 < m; i0 += pr {
		h := min(pr, m-i0)
		pack(aPack, a, i0, h, pr, 0, k, ars, acs)
		if !dot {
			for l, v := range aPack { // gonum's t = alpha·A[i,l], rounded
				aPack[l] = alpha * v
			}
		}
		for j0 := 0; j0 < n; j0 += pr {
			w := min(pr, n-j0)
			tile, ldt := c[i0*ldc+j0:], ldc
			if h < pr || w < pr { // a partial tile is worked in scratch
				tile, ldt = scratch, pr
				copyTile(scratch, pr, c[i0*ldc+j0:], ldc, h, w)
			}
			productTile(dot, chunk, alpha, aPack, bPack[j0*k:(j0+pr)*k], tile, ldt)
			if h < pr || w < pr {
				copyTile(c[i0*ldc+j0:], ldc, scratch, pr, h, w)
			}
		}
	}
}

// strides are the row and column strides of op(X) for X stored row-major
// with leading dimension ld.
func strides(trans bool, ld int) (rows, cols int) {
	if trans {
		return 1, ld
	}
	return ld, 1
}

// productTile adds the product of one packed 4-row block of A (ap) and one
// packed 4-column block of B (bp) to a 4 × 4 tile of C, in gonum's order:
// dot products summed chunk steps of l at a time (NT), else axpy steps.
func productTile(dot bool, chunk int, alpha float64, ap, bp, tile []float64, ldt int) {
	if !dot {
		axpyTile(ap, bp, tile, ldt)
		return
	}
	k := len(ap) / pr
	for l0 := 0; l0 < k; l0 += chunk {
		l1 := min(k, l0+chunk)
		dotTile(ap[l0*pr:l1*pr], bp[l0*pr:l1*pr], alpha, tile, ldt)
	}
}

const (
	pr           = 4  // rows and columns of the portable kernel's block of C
	gonumBlock   = 64 // gonum's blockSize
	minParBlocks = 4  // gonum's minParBlock
)

func blocks64(x int) int { return (x + gonumBlock - 1) / gonumBlock }

// copyTile copies the h × w corner of src into dst.
func copyTile(dst []float64, ldd int, src []float64, lds, h, w int) {
	for r := 0; r < h; r++ {
		copy(dst[r*ldd:r*ldd+w], src[r*lds:r*lds+w])
	}
}

// axpyTile: C[r,j] += t_r·B[l,j] for l in order, skipping t_r = 0 as gonum
// does; ap holds t (alpha·A, rounded) and bp holds B, 4 per step of l.
func axpyTile(ap, bp []float64, c []float64, ldc int) {
	c0, c1, c2, c3 := c[:4:4], c[ldc:ldc+4:ldc+4], c[2*ldc:2*ldc+4:2*ldc+4], c[3*ldc:3*ldc+4:3*ldc+4]
	c00, c01, c02, c03 := c0[0], c0[1], c0[2], c0[3]
	c10, c11, c12, c13 := c1[0], c1[1], c1[2], c1[3]
	c20, c21, c22, c23 := c2[0], c2[1], c2[2], c2[3]
	c30, c31, c32, c33 := c3[0], c3[1], c3[2], c3[3]
	bp = bp[:len(ap)]
	for l := 0; l+4 <= len(ap); l += 4 {
		t, bl := ap[l:l+4:l+4], bp[l:l+4:l+4]
		b0, b1, b2, b3 := bl[0], bl[1], bl[2], bl[3]
		if t0 := t[0]; t0 != 0 {
			c00, c01, c02, c03 = c00+float64(t0*b0), c01+float64(t0*b1), c02+float64(t0*b2), c03+float64(t0*b3)
		}
		if t1 := t[1]; t1 != 0 {
			c10, c11, c12, c13 = c10+float64(t1*b0), c11+float64(t1*b1), c12+float64(t1*b2), c13+float64(t1*b3)
		}
		if t2 := t[2]; t2 != 0 {
			c20, c21, c22, c23 = c20+float64(t2*b0), c21+float64(t2*b1), c22+float64(t2*b2), c23+float64(t2*b3)
		}
		if t3 := t[3]; t3 != 0 {
			c30, c31, c32, c33 = c30+float64(t3*b0), c31+float64(t3*b1), c32+float64(t3*b2), c33+float64(t3*b3)
		}
	}
	c0[0], c0[1], c0[2], c0[3] = c00, c01, c02, c03
	c1[0], c1[1], c1[2], c1[3] = c10, c11, c12, c13
	c2[0], c2[1], c2[2], c2[3] = c20, c21, c22, c23
	c3[0], c3[1], c3[2], c3[3] = c30, c31, c32, c33
}

// dotTile: C[r,j] += alpha·s_rj, where s_rj = Σ_l A[r,l]·B[l,j] in order
// from 0; ap holds A and bp holds B, 4 per step of l.
func dotTile(ap, bp []float64, alpha float64, c []float64, ldc int) {
	var s00, s01, s02, s03, s10, s11, s12, s13, s20, s21, s22, s23, s30, s31, s32, s33 float64
	bp = bp[:len(ap)]
	for l := 0; l+4 <= len(ap); l += 4 {
		a, bl := ap[l:l+4:l+4], bp[l:l+4:l+4]
		b0, b1, b2, b3 := bl[0], bl[1], bl[2], bl[3]
		a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
		s00, s01, s02, s03 = s00+float64(a0*b0), s01+float64(a0*b1), s02+float64(a0*b2), s03+float64(a0*b3)
		s10, s11, s12, s13 = s10+float64(a1*b0), s11+float64(a1*b1), s12+float64(a1*b2), s13+float64(a1*b3)
		s20, s21, s22, s23 = s20+float64(a2*b0), s21+float64(a2*b1), s22+float64(a2*b2), s23+float64(a2*b3)
		s30, s31, s32, s33 = s30+float64(a3*b0), s31+float64(a3*b1), s32+float64(a3*b2), s33+float64(a3*b3)
	}
	for r, s := range [4][4]float64{{s00, s01, s02, s03}, {s10, s11, s12, s13}, {s20, s21, s22, s23}, {s30, s31, s32, s33}} {
		row := c[r*ldc : r*ldc+4]
		for j := range row {
			row[j] += float64(alpha * s[j])
		}
	}
}
