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
// kept is stored once. A reader checks each frame's CRC and, past a damaged
// or cut-off one, looks for the next magic: the rest of the day replays.
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

// appendFrame appends one frame of kind with payload to dst.
func appendFrame(dst []byte, kind byte, payload []byte) []byte {
	dst = append(dst, magic...)
	dst = append(dst, kind)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	dst = binary.LittleEndian.AppendUint32(dst, crc32.Checksum(payload, castagnoli))
	return append(dst, payload...)
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
	if (h.kind != kindBody && h.kind != kindAnswer) || h.size > maxFrame || (h.kind == kindBody && h.size < 8) {
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
