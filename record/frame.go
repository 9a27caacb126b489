// Package record is the flight recorder: every answer the client receives
// from the service is appended, by day, to a recording under the data
// directory, and a Source answers requests from it as at any recorded
// moment. It imports no charm package: the screen, the headless commands
// and serve all record through the api client's one Recorder hook.
//
// A day is a folder (2026-11-24) of segments, one per process that
// recorded that day, so two processes never write the same file. A segment
// is a run of frames, each written with one write call:
//
//	magic "CWR1" | kind (1 byte) | payload length (uint32 LE) | CRC-32C of payload | payload
//
// A body frame ('B') holds the body's xxhash (a little-endian uint64) and the body
// compressed with zstd; an answer frame ('A') holds the answer's facts as
// JSON and names its body by that hash, so a body identical to one already
// kept is stored once. A delta frame ('D', since the second format; the
// first has no such frame and reads as before) holds the body's xxhash,
// its base's xxhash, the body's length (uint32 LE), the length of the
// steps that make the body from its base (a uvarint), the steps
// compressed with S2 and the bytes they insert with zstd (delta.go): the base is
// the previous body of the same request, and every keyEvery-th body of a
// request is a whole one, so a body is at most keyEvery-1 steps from one.
// A source frame ('S', since the second format) opens a segment whose
// writer knew where its answers came from: JSON, {"source": "sandbox"} or
// the service's URL.
// A reader checks each frame's CRC and, past a damaged or cut-off one,
// looks for the next magic: the rest of the day replays; a delta read
// back is checked against its hash, and one whose base is missing or
// damaged is skipped like a damaged body.
package record

import (
	"encoding/binary"
	"hash/crc32"
	"time"

	"chainwatch/api"
)

const (
	magic      = "CWR1"
	headerSize = 13
	kindBody   = 'B'
	kindAnswer = 'A'
	kindDelta  = 'D'
	kindSource = 'S'
	// deltaHead is a delta frame's payload before its steps: the body's
	// hash, its base's hash and the body's length.
	deltaHead = 20
	// maxFrame bounds a frame's payload: the client's largest body (256
	// MiB) compressed is smaller; a length past it is damage.
	maxFrame = 300 << 20
	// segmentExt names a segment file.
	segmentExt = ".cwr"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// meta is an answer frame's payload.
type meta struct {
	Key      string `json:"k"`
	Family   string `json:"f,omitempty"` // a tape page's family (api.Answer.Family)
	At       int64  `json:"t"`           // unix nanoseconds, the service's Date
	Status   int    `json:"s"`
	Cost     int    `json:"c"`
	Endpoint int    `json:"e"`
	Mode     string `json:"m"`
	Symbol   string `json:"y,omitempty"`
	Body     uint64 `json:"b"` // xxhash of the body; Size 0: none
	Size     int    `json:"n"`
}

func (m meta) at() time.Time { return time.Unix(0, m.At) }

// SandboxSource is the source of answers from a sandbox's simulated
// market (WithSource).
const SandboxSource = "sandbox"

// sourceMeta is a source frame's payload.
type sourceMeta struct {
	Source string `json:"source"`
}

// appendFrame appends one frame of kind to dst, its payload the parts
// one after the other.
func appendFrame(dst []byte, kind byte, parts ...[]byte) []byte {
	n, crc := 0, uint32(0)
	for _, p := range parts {
		n += len(p)
		crc = crc32.Update(crc, castagnoli, p)
	}
	dst = append(dst, magic...)
	dst = append(dst, kind)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	dst = binary.LittleEndian.AppendUint32(dst, crc)
	for _, p := range parts {
		dst = append(dst, p...)
	}
	return dst
}

// header is a frame's header as read.
type header struct {
	kind byte
	size int64
	crc  uint32
}

func parseHeader(b []byte) (header, bool) {
	if len(b) < headerSize || string(b[:4]) != magic {
		return header{}, false
	}
	h := header{kind: b[4], size: int64(binary.LittleEndian.Uint32(b[5:9])), crc: binary.LittleEndian.Uint32(b[9:13])}
	switch {
	case h.size > maxFrame,
		h.kind == kindBody && h.size < 8,
		h.kind == kindDelta && h.size < deltaHead,
		h.kind != kindBody && h.kind != kindDelta && h.kind != kindAnswer && h.kind != kindSource:
		return header{}, false
	}
	return h, true
}

// symbolOf is the symbol an answer is about, from its query.
func symbolOf(a api.Answer) string {
	if s := a.Query.Get("symbol"); s != "" {
		return s
	}
	return a.Query.Get("symbols")
}
