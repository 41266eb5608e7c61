package main

// Formatting shared by the model view and the worked examples, kept to 80 columns.

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// lineWidth is the widest line explain prints.
const lineWidth = 80

// vector prints a vector in full when short, else its first 4 and last 2
// entries and its length |v|, so a 32-number word vector fits on one line.
func vector(v []float64) string {
	if len(v) <= 6 {
		return "[" + join(v, "%.3f") + "]"
	}
	return fmt.Sprintf("[%s … %s]  |v| = %.2f", join(v[:4], "%.3f"), join(v[len(v)-2:], "%.3f"), norm(v))
}

func join(v []float64, format string) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf(format, x)
	}
	return strings.Join(parts, ", ")
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// bar draws a weight in [0, 1] as up to 10 blocks. Anything else is clamped
// (NaN and negatives draw nothing): a bad number must not crash the table.
func bar(w float64) string {
	if !(w > 0) {
		return ""
	}
	return strings.Repeat("█", int(math.Round(10*min(w, 1))))
}

// clip shortens a word to n runes for a table column.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// wrap breaks text at spaces into lines of at most width runes, the lines
// after the first indented; a word longer than a line stays whole.
func wrap(text string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = indent + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

func sqrtf(n int) float64 { return math.Sqrt(float64(n)) }
