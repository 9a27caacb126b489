package ui

import (
	"strconv"
	"time"

	"chainwatch/theme"
)

// panePart is a piece of a segment in one tone: text, or ASCII bytes
// formatted into a paneNums buffer (no string made for a number).
type panePart struct {
	tone theme.Tone
	text string
	raw  []byte
}

// paneNums formats the numbers of a line into one buffer and hands out
// slices of it, so a bar of twenty figures costs no allocation per
// figure. Each slice is capped: a later append never writes into it.
type paneNums struct{ b []byte }

func (n *paneNums) cut(start int) []byte { return n.b[start:len(n.b):len(n.b)] }

func (n *paneNums) price(v float64) []byte {
	s := len(n.b)
	n.b = appendPrice(n.b, v)
	return n.cut(s)
}

func (n *paneNums) signed(v float64, decimals int) []byte {
	s := len(n.b)
	n.b = appendSigned(n.b, v, decimals)
	return n.cut(s)
}

func (n *paneNums) size(v int64) []byte {
	s := len(n.b)
	n.b = appendSize(n.b, v)
	return n.cut(s)
}

func (n *paneNums) int(v int64) []byte {
	s := len(n.b)
	n.b = strconv.AppendInt(n.b, v, 10)
	return n.cut(s)
}

func (n *paneNums) dur(d time.Duration) []byte {
	s := len(n.b)
	n.b = appendDur(n.b, d)
	return n.cut(s)
}

// with formats through any appender.
func (n *paneNums) with(app func([]byte) []byte) []byte {
	s := len(n.b)
	n.b = app(n.b)
	return n.cut(s)
}

// paneSeg is an item of a bar (header, status): a few toned parts that
// are shown or dropped whole. The bar keeps the highest priorities that
// fit; a shrinkable segment (free text, like an error) is cut with "…"
// down to shrink cells before anything is dropped for it.
//
// The first segParts parts live in the segment, so the usual segment
// allocates nothing; a part past them goes to more, which grows: no part
// is ever dropped for want of room (only the width drops anything).
type paneSeg struct {
	parts  [segParts]panePart
	more   []panePart // the parts past the array, in order
	n      int        // parts in all
	w      int
	prio   int
	right  bool // right-aligned group
	shrink int  // > 0: may be cut down to this many cells
	yield  int  // segments below this priority go before it is cut
	drop   bool
	allow  int // cells granted when shrinkable
}

// segParts is the parts a segment holds without allocating: the longest
// spelling drawn, the calendar's earnings line, has ten.
const segParts = 10

// part is the segment's i-th part, i < s.n.
func (s *paneSeg) part(i int) *panePart {
	if i < len(s.parts) {
		return &s.parts[i]
	}
	return &s.more[i-len(s.parts)]
}

// push appends a part w cells wide.
func (s *paneSeg) push(p panePart, w int) {
	if s.n < len(s.parts) {
		s.parts[s.n] = p
	} else {
		s.more = append(s.more, p)
	}
	s.n++
	s.w += w
}

// segRow holds one bar's segments: the first rowSegs in a fixed array, so
// drawing a usual bar allocates none; past them each segment is allocated
// on its own. Either way a segment handed out stays where it is while
// more are added, and none is ever refused: which ones show is the
// width's and the priorities' business (fitSegs), not the array's.
type segRow struct {
	segs [rowSegs]paneSeg
	n    int
	more []*paneSeg // the segments past the array, in order
	all  []paneSeg  // list's copy of every segment, once there are more
}

// rowSegs is the segments a bar holds without allocating: the header's
// second line has eleven on an open market with history figures.
const rowSegs = 12

// seg hands out the next segment, with its priority and side.
func (r *segRow) seg(prio int, right bool) *paneSeg {
	var s *paneSeg
	if r.n < len(r.segs) {
		s = &r.segs[r.n]
	} else {
		s = r.grow()
	}
	r.n++
	s.prio, s.right = prio, right
	return s
}

// grow allocates a segment past the array.
func (r *segRow) grow() *paneSeg {
	s := new(paneSeg)
	r.more = append(r.more, s)
	r.all = nil
	return s
}

// list is the segments handed out so far, to fit and draw once they are
// all filled in: past the array it is a copy, made once and kept, so that
// what fitSegs decides is what putSegs draws.
func (r *segRow) list() []paneSeg {
	if len(r.more) == 0 {
		return r.segs[:r.n]
	}
	if r.all == nil {
		r.all = make([]paneSeg, 0, r.n)
		r.all = append(r.all, r.segs[:]...)
		for _, s := range r.more {
			r.all = append(r.all, *s)
		}
	}
	return r.all
}

func (s *paneSeg) add(t theme.Tone, text string) *paneSeg {
	if text != "" {
		s.push(panePart{tone: t, text: text}, paneWidth(text))
	}
	return s
}

// addB adds ASCII bytes (a formatted number).
func (s *paneSeg) addB(t theme.Tone, b []byte) *paneSeg {
	if len(b) > 0 {
		s.push(panePart{tone: t, raw: b}, len(b))
	}
	return s
}

// fitSegs drops the lowest-priority segments until the kept ones, gap
// cells apart, fit in width; takes back any dropped one that fits again
// (a long low item may have gone first); then, rather than cut a
// shrinkable segment, drops kept ones below its yield priority; and
// grants shrinkable segments the room left.
func fitSegs(segs []paneSeg, width, gap int) {
	for {
		need, kept := segsNeed(segs, gap)
		if need <= width || kept == 0 {
			break
		}
		segs[lowestKept(segs, 1<<30)].drop = true
	}
	for {
		best := -1
		for i := range segs {
			if segs[i].drop && (best < 0 || segs[i].prio > segs[best].prio) {
				segs[i].drop = false
				if need, _ := segsNeed(segs, gap); need <= width {
					best = i
				}
				segs[i].drop = true
			}
		}
		if best < 0 {
			break
		}
		segs[best].drop = false
	}
	for i := range segs {
		s := &segs[i]
		if s.drop || s.shrink <= 0 || s.yield <= 0 {
			continue
		}
		for {
			need, _ := segsNeed(segs, gap)
			if need-min(s.w, s.shrink)+s.w <= width {
				break
			}
			low := lowestKept(segs, s.yield)
			if low < 0 {
				break
			}
			segs[low].drop = true
		}
	}
	need, _ := segsNeed(segs, gap)
	spare := max(width-need, 0)
	for i := range segs {
		s := &segs[i]
		if s.drop || s.shrink <= 0 {
			s.allow = s.w
			continue
		}
		base := min(s.w, s.shrink)
		s.allow = min(s.w, base+spare)
		spare -= s.allow - base
	}
}

// lowestKept is the kept segment of the lowest priority below limit, or -1.
func lowestKept(segs []paneSeg, limit int) int {
	low := -1
	for i := range segs {
		if !segs[i].drop && segs[i].prio < limit && (low < 0 || segs[i].prio < segs[low].prio) {
			low = i
		}
	}
	return low
}

// segsNeed is the width the kept segments need at least, and how many
// there are.
func segsNeed(segs []paneSeg, gap int) (need, kept int) {
	for i := range segs {
		if segs[i].drop {
			continue
		}
		w := segs[i].w
		if segs[i].shrink > 0 {
			w = min(w, segs[i].shrink)
		}
		if kept > 0 {
			need += gap
		}
		need += w
		kept++
	}
	return need, kept
}

// putSegs writes the kept segments: the left group from the start, the
// right group against the end, gap blanks between neighbours.
func putSegs(l *paneLine, segs []paneSeg, gap int, st *theme.Styles, shade theme.Shade) {
	rightW, nRight := 0, 0
	for i := range segs {
		if !segs[i].drop && segs[i].right {
			if nRight > 0 {
				rightW += gap
			}
			rightW += segs[i].allow
			nRight++
		}
	}
	first := true
	for i := range segs {
		if s := &segs[i]; !s.drop && !s.right {
			if !first {
				l.blank(gap)
			}
			first = false
			putSeg(l, s, st, shade)
		}
	}
	l.blank(l.room() - rightW)
	first = true
	for i := range segs {
		if s := &segs[i]; !s.drop && s.right {
			if !first {
				l.blank(gap)
			}
			first = false
			putSeg(l, s, st, shade)
		}
	}
}

// putSeg writes one segment in at most its allowed cells, ending with "…"
// when it had to be cut.
func putSeg(l *paneLine, s *paneSeg, st *theme.Styles, shade theme.Shade) {
	left := s.allow
	cut := s.allow < s.w
	if cut {
		left-- // for the ellipsis
	}
	last := s.parts[0].tone
	for i := 0; i < s.n && left > 0; i++ {
		p := s.part(i)
		last = p.tone
		if p.raw != nil {
			r := p.raw[:min(len(p.raw), left)]
			l.putASCII(st.Span(p.tone, shade), r)
			left -= len(r)
			continue
		}
		t := p.text
		if w := paneWidth(t); w > left {
			t = cutWords(t, left)
			left = paneWidth(t) // a word cut short ends the segment
		}
		l.put(st.Span(p.tone, shade), t)
		left -= paneWidth(t)
	}
	if cut && s.allow > 0 {
		l.put(st.Span(last, shade), "…")
	}
}

// appendDur appends a short age: "42s", "3m05s", "2h07m", "3d04h".
// Rounded down to the second: "ago" never runs ahead of the clock.
func appendDur(dst []byte, d time.Duration) []byte {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	two := func(dst []byte, v int64) []byte { return append(dst, byte('0'+v/10), byte('0'+v%10)) }
	switch {
	case s < 60:
		dst = strconv.AppendInt(dst, s, 10)
		return append(dst, 's')
	case s < 3600:
		dst = strconv.AppendInt(dst, s/60, 10)
		dst = append(dst, 'm')
		dst = two(dst, s%60)
		return append(dst, 's')
	case s < 86400:
		dst = strconv.AppendInt(dst, s/3600, 10)
		dst = append(dst, 'h')
		dst = two(dst, s%3600/60)
		return append(dst, 'm')
	default:
		dst = strconv.AppendInt(dst, s/86400, 10)
		dst = append(dst, 'd')
		dst = two(dst, s%86400/3600)
		return append(dst, 'h')
	}
}
