package tape

// ring holds the newest entries of a stream in a buffer allocated once:
// pushing onto a full ring overwrites the oldest entry, so a tape left
// running all day holds the same memory as after its first minute.
type ring[T any] struct {
	buf  []T
	next int // where the next push goes
	n    int // entries held
}

func newRing[T any](capacity int) ring[T] {
	return ring[T]{buf: make([]T, max(capacity, 1))}
}

// push returns the slot of a new newest entry, to be filled in place (the
// entries are large; filling in place saves a copy). Its old content is
// the evicted entry's, or the zero value.
func (r *ring[T]) push() *T {
	e := &r.buf[r.next]
	r.next++
	if r.next == len(r.buf) {
		r.next = 0
	}
	if r.n < len(r.buf) {
		r.n++
	}
	return e
}

// at returns the i-th newest entry: at(0) is the last pushed.
func (r *ring[T]) at(i int) *T {
	j := r.next - 1 - i
	if j < 0 {
		j += len(r.buf)
	}
	return &r.buf[j]
}

func (r *ring[T]) len() int { return r.n }
func (r *ring[T]) cap() int { return len(r.buf) }

// reset forgets every entry but keeps the buffer.
func (r *ring[T]) reset() {
	clear(r.buf)
	r.next, r.n = 0, 0
}
