package config

import (
	"fmt"
	"math"
)

// FormatBytes prints a size in decimal units, to three significant figures:
// 171 MB, 8 GB, 6.2 TB (999.7 kB rounds to 1 MB, not "1e+03 kB"). Sizes too
// big for any unit stay readable (1.2e+09 TB).
func FormatBytes(n float64) string {
	units := []string{"bytes", "kB", "MB", "GB", "TB"}
	i := 0
	for ; i < len(units)-1 && math.Abs(n) >= 999.5; i++ {
		n /= 1000
	}
	return fmt.Sprintf("%.3g %s", n, units[i])
}
