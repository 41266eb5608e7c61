package gorgoniax

import (
	"hash"
	"hash/fnv"
)

// hashOf is every op's Hashcode: Gorgonia merges nodes whose ops and inputs
// hash alike, so an op's hash must cover all of its fields (WriteHash).
func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
