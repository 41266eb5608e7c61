package config

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// ByteSize is a number of bytes that prints as 8 GB and parses from 500MB,
// 8GB, 16GiB or a plain number of bytes; *ByteSize is a flag.Value.
type ByteSize int64

func (b ByteSize) String() string { return FormatBytes(float64(b)) }

// Set parses s as ParseByteSize does.
func (b *ByteSize) Set(s string) error {
	v, err := ParseByteSize(s)
	if err == nil {
		*b = v
	}
	return err
}

var (
	sizePattern = regexp.MustCompile(`^([0-9]+(?:\.[0-9]*)?) *([a-zA-Z]*)$`)
	sizeUnits   = map[string]float64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
)

// maxByteSize keeps a ByteSize clear of int64's end, where float64 rounds.
const maxByteSize = 1 << 62

// ParseByteSize reads a size in decimal (kB, MB, GB, TB) or binary (KiB,
// MiB, GiB, TiB) units, in any case, or a plain number of bytes.
func ParseByteSize(s string) (ByteSize, error) {
	m := sizePattern.FindStringSubmatch(strings.TrimSpace(s))
	unit, ok := 0.0, false
	if m != nil {
		unit, ok = sizeUnits[strings.ToLower(m[2])]
	}
	if !ok {
		return 0, fmt.Errorf("want a size such as 500MB, 8GB or 16GiB, got %q", s)
	}
	n, _ := strconv.ParseFloat(m[1], 64) // the pattern admits only numbers; a huge one is +Inf
	switch v := n * unit; {
	case v < 1:
		return 0, fmt.Errorf("want a size of at least 1 byte, got %q", s)
	case v >= maxByteSize:
		return 0, fmt.Errorf("want a size of at most %s, got %q", FormatBytes(maxByteSize), s)
	default:
		return ByteSize(v), nil
	}
}

// FormatBytes prints a size in decimal units, to three significant figures:
// 171 MB, 8 GB, 6.2 TB (999.7 kB rounds to 1 MB, not "1e+03 kB"). Sizes too
// big for any unit stay readable (1.2e+09 TB).
func FormatBytes(n float64) string {
	units := []string{"bytes", "kB", "MB", "GB", "TB"}
	i := 0
	for ; i < len(units)-1 && math.Abs(n) >= 999.5; i++ {
		n /= 1000
	}
	if i == 0 && n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%.3g %s", n, units[i])
}
