// Package await runs a call that cannot be interrupted (a graph build, a
// model load) so that its caller can stop waiting for it: on Ctrl-C, a
// command must answer at once, not when the call happens to end.
package await

// Result returns f's result, or ok false as soon as stop is closed (a nil
// stop never is). f then goes on in the background, and its result, if it
// has no error, is passed to release (nil: dropped) when it ends.
func Result[T any](stop <-chan struct{}, f func() (T, error), release func(T)) (v T, err error, ok bool) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err, true
	case <-stop:
		go func() {
			if r := <-done; r.err == nil && release != nil {
				release(r.v)
			}
		}()
		return v, nil, false
	}
}
