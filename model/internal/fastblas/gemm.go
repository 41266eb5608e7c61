package fastblas

import "runtime"

// gemm: C = alpha·op(A)·op(B) + beta·C, blocked into mr × nr tiles of C.
//
//	for each tile (i0, j0):  C[i0:i0+mr, j0:j0+nr] += alpha · A[i0:i0+mr, :] · B[:, j0:j0+nr]
//
// Small products (the default model's) take product.inPlace, large ones
// product.blocked. Both walk the same grid of tiles and, when k ≤ kc, sum
// each element of C in the same order, so they agree bit for bit there.
func gemm[T float](kr kernel[T], transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if alpha == 0 {
		scale(beta, c, m, n, ldc)
		return
	}
	add := beta != 0 // beta = 0: the kernels write every element of C once
	if add {
		scale(beta, c, m, n, ldc)
	}
	p := product[T]{kr: kr, alpha: alpha, c: c, ldc: ldc}
	p.ars, p.acs = lda, 1 // op(A)'s element (i, l) is a[i*ars + l*acs]
	if transA {
		p.ars, p.acs = 1, lda
	}
	p.brs, p.bcs = ldb, 1 // op(B)'s element (l, j) is b[l*brs + j*bcs]
	if transB {
		p.brs, p.bcs = 1, ldb
	}
	if m*n*k >= parallelMin && m >= 2*mr && runtime.GOMAXPROCS(0) > 1 {
		p.halves(m, n, k, a, b, add)
		return
	}
	p.rows(m, n, k, a, b, add)
}

// rows computes the m rows of C starting at a and p.c on the path their
// size calls for.
func (p product[T]) rows(m, n, k int, a, b []T, add bool) {
	if m*n*k >= blockedMin {
		p.blocked(m, n, k, a, b, add)
		return
	}
	p.inPlace(m, n, k, a, b, add)
}

// parallelMin: products of at least this many multiply-adds are split by
// rows over two goroutines when the program may run two at once. Each
// element of C is still summed by the same kernel in the same order (the
// split falls on a tile boundary), so the result is the same bit for bit.
// Waking a second goroutine costs about 0.1 ms on the 2-core test machine:
// split at 2^18 (the default model's 768 × 32 × 32 and up), a training step
// took 22% longer; at 2^22 the 3,072 × 64 × 32 evaluation product still
// lost. From 2^24 on, the d_model 256 products take about half the time
// they take on one goroutine (docs/performance.md); the default model's
// products are all below it.
var parallelMin = 1 << 24

// halves computes the top rows of C on a second goroutine and the bottom
// rows on this one; the split is a multiple of mr rows.
func (p product[T]) halves(m, n, k int, a, b []T, add bool) {
	mid := roundUp(m/2, mr)
	bottom := p
	bottom.c = p.c[mid*p.ldc:]
	done := make(chan struct{})
	go func() {
		p.rows(mid, n, k, a, b, add)
		close(done)
	}()
	bottom.rows(m-mid, n, k, a[mid*p.ars:], b, add)
	<-done
}

// blockedMin: products of at least this many multiply-adds take the
// cache-blocked path. Below about 10 M packing costs more than it saves
// (forced onto the blocked path, 768 × 32 × 32 took 23% more CPU); at
// d_model 128 (768 × 128 × 128) the two paths are even; the d_model 256
// products gain. The default model's largest product, 3,072 × 64 × 32
// (6.3 M, evaluation), stays in place. Tests lower it to exercise both.
var blockedMin = 1 << 23

// product holds what every tile of one call shares.
type product[T float] struct {
	kr       kernel[T]
	alpha    T
	ars, acs int // strides of op(A), in elements
	brs, bcs int // strides of op(B), in elements
	c        []T
	ldc      int
}

// inPlace: for small products. A is read in place through its strides (a
// transposed A is only a swap of strides). B is read in place when it is
// not transposed; a transposed B, and the last partial column block of
// either, are first copied into zero-padded k × nr panels.
func (p product[T]) inPlace(m, n, k int, a, b []T, add bool) {
	nr, sz := p.kr.nr, p.kr.size
	blocks := (n + nr - 1) / nr
	buf := p.kr.get(blocks*k*nr + mr*k + mr*nr)
	defer p.kr.pool.Put(buf)
	panels, aTail, tile := (*buf)[:blocks*k*nr], (*buf)[blocks*k*nr:blocks*k*nr+mr*k], (*buf)[blocks*k*nr+mr*k:]
	first := 0 // B's full column blocks are read in place when not transposed
	if p.bcs == 1 {
		first = n / nr
	}
	pack(panels[first*k*nr:], b, first*nr, n-first*nr, nr, 0, k, p.bcs, p.brs)
	for i0 := 0; i0 < m; i0 += mr {
		h := min(mr, m-i0)
		aPtr, rs, cs := &a[i0*p.ars], p.ars*sz, p.acs*sz
		if h < mr {
			pack(aTail, a, i0, h, mr, 0, k, p.ars, p.acs)
			aPtr, rs, cs = &aTail[0], sz, mr*sz
		}
		for jb := 0; jb < blocks; jb++ {
			j0 := jb * nr
			bPtr, bld := &panels[jb*k*nr], nr*sz
			if jb < first {
				bPtr, bld = &b[j0], p.brs*sz
			}
			if h == mr && jb < n/nr { // a full tile, without tile's call
				p.kr.run(k, aPtr, rs, cs, bPtr, bld, &p.c[i0*p.ldc+j0], p.ldc*sz, p.alpha, add)
				continue
			}
			p.tile(k, aPtr, rs, cs, bPtr, bld, i0, j0, h, min(nr, n-j0), add, tile)
		}
	}
}

// Block sizes of the cache-blocked path, in elements (BLIS's names). The
// packed mc × kc block of A (96 × 768 float64s, 576 KiB) stays in the L2
// cache while every kc × nr panel of B meets its mr-row panels; the kc × nc
// block of B is packed once per pass over k. kc = 768 is the largest k the
// default model uses, so none of its products is split over k (a split
// rounds differently); kc = 256, the textbook fit of a B panel in L1,
// measured no faster on the d_model 256 products (docs/performance.md).
const (
	kc = 768
	mc = 96
	nc = 2048
)

// blocked: for large products, in the loop order of BLIS and GotoBLAS.
//
//	for j0 in steps of nc:          columns of C and B
//	  for l0 in steps of kc:        pack B[l0:l0+kc, j0:j0+nc] into kc × nr panels
//	    for i0 in steps of mc:      pack A[i0:i0+mc, l0:l0+kc] into mr × kc panels
//	      for each nr column, each mr row: one kernel call on packed panels
//
// The first pass over k writes C as the in-place path does (or adds to
// beta·C); later passes add their partial sums to it, so for k > kc each
// element is rounded once per pass, not summed in one register.
func (p product[T]) blocked(m, n, k int, a, b []T, add bool) {
	nr := p.kr.nr
	ncb, kcb, mcb := min(nc, roundUp(n, nr)), min(kc, k), min(mc, roundUp(m, mr))
	buf := p.kr.get(kcb*ncb + mcb*kcb + mr*nr)
	defer p.kr.pool.Put(buf)
	bPack, aPack, tile := (*buf)[:kcb*ncb], (*buf)[kcb*ncb:kcb*ncb+mcb*kcb], (*buf)[kcb*ncb+mcb*kcb:]
	for j0 := 0; j0 < n; j0 += nc {
		w := min(nc, n-j0)
		for l0 := 0; l0 < k; l0 += kc {
			kb := min(kc, k-l0)
			pack(bPack, b, j0, w, nr, l0, kb, p.bcs, p.brs)
			for i0 := 0; i0 < m; i0 += mc {
				h := min(mc, m-i0)
				pack(aPack, a, i0, h, mr, l0, kb, p.ars, p.acs)
				p.macro(kb, aPack, bPack, i0, j0, h, w, add || l0 > 0, tile)
			}
		}
	}
}

// macro multiplies one packed h × kb block of A by one packed kb × w block
// of B into C[i0:i0+h, j0:j0+w], one B panel against every A panel.
func (p product[T]) macro(kb int, aPack, bPack []T, i0, j0, h, w int, add bool, tile []T) {
	nr, sz := p.kr.nr, p.kr.size
	for jr := 0; jr < w; jr += nr {
		bPtr := &bPack[jr*kb]
		for ir := 0; ir < h; ir += mr {
			p.tile(kb, &aPack[ir*kb], sz, mr*sz, bPtr, nr*sz, i0+ir, j0+jr, min(mr, h-ir), min(nr, w-jr), add, tile)
		}
	}
}

// tile adds alpha·A·B to the h × w tile of C at (i0, j0), or writes it
// there without add. A full tile is the kernel's own work, and so is a
// narrow one of mr rows where the kernel can mask columns; any other is
// computed in the scratch tile, holding a copy of C's h × w block when
// adding, and copied back. So every element of C, in a full tile or not,
// is stored by the kernel's own formula (acc·alpha, or C + acc·alpha in
// one FMA), and the result does not depend on where the tiles fall: the
// 16-wide AVX-512 kernels agree with the 8-wide AVX2 ones bit for bit.
func (p product[T]) tile(k int, aPtr *T, rs, cs int, bPtr *T, bld int, i0, j0, h, w int, add bool, tile []T) {
	nr, sz, c, ldc := p.kr.nr, p.kr.size, p.c, p.ldc
	if h == mr && w == nr {
		p.kr.run(k, aPtr, rs, cs, bPtr, bld, &c[i0*ldc+j0], ldc*sz, p.alpha, add)
		return
	}
	if h == mr && p.kr.masked != nil { // AVX-512: columns past w are masked off
		p.kr.masked(k, aPtr, rs, cs, bPtr, bld, &c[i0*ldc+j0], ldc*sz, p.alpha, add, 1<<w-1)
		return
	}
	for r := 0; add && r < h; r++ {
		copy(tile[r*nr:r*nr+w], c[(i0+r)*ldc+j0:(i0+r)*ldc+j0+w])
	}
	p.kr.run(k, aPtr, rs, cs, bPtr, bld, &tile[0], nr*sz, p.alpha, add)
	for r := 0; r < h; r++ {
		copy(c[(i0+r)*ldc+j0:(i0+r)*ldc+j0+w], tile[r*nr:r*nr+w])
	}
}

// pack copies count indices from first (rows of op(A), or columns of
// op(B)) by kb steps from l0 into width-wide panels, zero-padded past
// count: index first + q·width + r at step l0 + l goes to
// dst[q·width·kb + l·width + r]. The source's element (i, l) is src[i*is + l*ls].
func pack[T float](dst, src []T, first, count, width, l0, kb, is, ls int) {
	for q := 0; q*width < count; q++ {
		panel := dst[q*width*kb : (q+1)*width*kb]
		rows := min(width, count-q*width)
		if rows < width {
			clear(panel)
		}
		base := (first+q*width)*is + l0*ls
		if ls == 1 && rows%4 == 0 {
			for r := 0; r < rows; r += 4 {
				pack4(panel[r:], src[base+r*is:], is, kb, width)
			}
			continue
		}
		if ls == 1 { // each index's run over l is contiguous
			for r := 0; r < rows; r++ {
				for l, v := range src[base+r*is : base+r*is+kb] {
					panel[l*width+r] = v
				}
			}
			continue
		}
		for l := 0; l < kb; l++ { // is == 1: each step's indices are contiguous
			d, s := panel[l*width:l*width+rows], src[base+l*ls:base+l*ls+rows]
			for r := range d { // a loop: copy's call costs more than a 4- or 8-element run
				d[r] = s[r]
			}
		}
	}
}

// pack4 is pack's loop for four indices whose runs over l are contiguous
// (A's rows, or a transposed B's columns): one pass over l reading four
// runs side by side into four columns of a width-wide panel.
func pack4[T float](panel, src []T, is, kb, width int) {
	r0, r1, r2, r3 := src[:kb], src[is:is+kb], src[2*is:2*is+kb], src[3*is:3*is+kb]
	for l := range r0 {
		d := panel[l*width : l*width+4 : l*width+4]
		d[0], d[1], d[2], d[3] = r0[l], r1[l], r2[l], r3[l]
	}
}

func roundUp(x, to int) int { return (x + to - 1) / to * to }

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
