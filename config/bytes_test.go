package config

import "testing"

func TestFormatBytes(t *testing.T) {
	cases := []struct {
		n    float64
		want string
	}{
		{0, "0 bytes"},
		{1, "1 byte"},
		{2, "2 bytes"},
		{999.7e3, "1 MB"},
		{171e6, "171 MB"},
		{6.2e12, "6.2 TB"},
	}
	for _, tc := range cases {
		if got := FormatBytes(tc.n); got != tc.want {
			t.Errorf("FormatBytes(%g) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
