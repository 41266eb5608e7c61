package fastblas

// gemm: C = alpha·op(A)·op(B) + beta·C, blocked into mr × nr tiles of C.
//
//	for each tile (i0, j0):  C[i0:i0+mr, j0:j0+nr] += alpha · A[i0:i0+mr, :] · B[:, j0:j0+nr]
//
// A is read in place through its strides (a transposed A is only a swap of
// strides). B is read in place when it is not transposed; a transposed B,
// and the last partial column block of either, are first copied into
// zero-padded k × nr panels. Partial tiles are computed into a scratch tile
// and added to (or, with beta = 0, copied into) C.
func gemm[T float](kr kernel[T], transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if alpha == 0 {
		scale(beta, c, m, n, ldc)
		return
	}
	add := beta != 0 // beta = 0: the kernels write every element of C once
	if add {
		scale(beta, c, m, n, ldc)
	}
	ars, acs := lda, 1 // A's element (i, l) is a[i*ars + l*acs]
	if transA {
		ars, acs = 1, lda
	}
	nr, sz := kr.nr, kr.size
	blocks := (n + nr - 1) / nr
	buf := kr.get(blocks*k*nr + mr*k + mr*nr)
	defer kr.pool.Put(buf)
	panels, aTail, tile := (*buf)[:blocks*k*nr], (*buf)[blocks*k*nr:blocks*k*nr+mr*k], (*buf)[blocks*k*nr+mr*k:]
	inPlace := packB(transB, n, k, nr, b, ldb, panels)
	for i0 := 0; i0 < m; i0 += mr {
		h := min(mr, m-i0)
		aPtr, rs, cs := &a[i0*ars], ars*sz, acs*sz
		if h < mr {
			packRows(a, i0, h, k, ars, acs, aTail)
			aPtr, rs, cs = &aTail[0], k*sz, sz
		}
		for jb := 0; jb < blocks; jb++ {
			j0 := jb * nr
			w := min(nr, n-j0)
			bPtr, bld := &panels[jb*k*nr], nr*sz
			if w == nr && inPlace {
				bPtr, bld = &b[j0], ldb*sz
			}
			if h == mr && w == nr {
				kr.run(k, aPtr, rs, cs, bPtr, bld, &c[i0*ldc+j0], ldc*sz, alpha, add)
				continue
			}
			kr.run(k, aPtr, rs, cs, bPtr, bld, &tile[0], nr*sz, alpha, false)
			for r := 0; r < h; r++ {
				row := c[(i0+r)*ldc+j0 : (i0+r)*ldc+j0+w]
				if !add {
					copy(row, tile[r*nr:r*nr+w])
					continue
				}
				for j := range row {
					row[j] += tile[r*nr+j]
				}
			}
		}
	}
}

// packB copies into panels what the kernel cannot read in place: with
// transB every column block, otherwise only the last partial one. Panel jb
// holds B[l, jb*nr + j] at panels[jb*k*nr + l*nr + j], zero past column n.
// It reports whether full blocks are read from b itself.
func packB[T float](transB bool, n, k, nr int, b []T, ldb int, panels []T) (inPlace bool) {
	blocks := (n + nr - 1) / nr
	first := 0
	if !transB {
		first = n / nr
	}
	for jb := first; jb < blocks; jb++ {
		p := panels[jb*k*nr : (jb+1)*k*nr]
		clear(p)
		j0 := jb * nr
		w := min(nr, n-j0)
		for l := 0; l < k; l++ {
			for j := 0; j < w; j++ {
				if transB {
					p[l*nr+j] = b[(j0+j)*ldb+l] // B is stored n × k
				} else {
					p[l*nr+j] = b[l*ldb+j0+j]
				}
			}
		}
	}
	return !transB
}

// packRows copies the h < mr last rows of op(A) into an mr × k block,
// zero-padded, so the kernel never reads past A.
func packRows[T float](a []T, i0, h, k, ars, acs int, dst []T) {
	clear(dst)
	for r := 0; r < h; r++ {
		for l := 0; l < k; l++ {
			dst[r*k+l] = a[(i0+r)*ars+l*acs]
		}
	}
}

// scale sets C = beta·C; beta = 0 overwrites (NaNs included), as BLAS does.
func scale[T float](beta T, c []T, m, n, ldc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// get returns a scratch buffer of at least size elements from the pool.
func (kr kernel[T]) get(size int) *[]T {
	if p, ok := kr.pool.Get().(*[]T); ok && cap(*p) >= size {
		*p = (*p)[:size]
		return p
	}
	s := make([]T, size)
	return &s
}
