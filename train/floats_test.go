package train

// floats widens a float32 or float64 slice for inspection.
func floats(d interface{}) []float64 {
	switch x := d.(type) {
	case []float64:
		return x
	case []float32:
		out := make([]float64, len(x))
		for i, v := range x {
			out[i] = float64(v)
		}
		return out
	}
	return nil
}
