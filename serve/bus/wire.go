package bus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"chainwatch/api"
)

// The bus's names: subjects, streams and buckets. Each mode has its own
// streams and bucket, so that a user's subject permissions (a delayed-only
// host) reach the JetStream API of its mode's only.
const (
	subjSource  = "chainwatch.source" // the source's heartbeat, core NATS
	subjWants   = "chainwatch.wants"  // .<mode>.<host>: a host's wants, core NATS
	subjAnswer  = "chainwatch.answer" // .<mode>.<endpoint>.<symbol>.<key hash>.<part>: answer bodies
	subjTape    = "chainwatch.tape"   // .<mode>.<symbol>: tape pages, kept for the window
	lockBucket  = "cw_source"         // the source lock: one source per bus
	lockKey     = "source"            // the lock's key in its bucket
	hdrID       = "Cw-Id"             // the answer's id: its parts and manifest share it
	hdrPart     = "Cw-Part"           // part i of n: "i/n"
	hdrManifest = "Cw-Manifest"       // a tape page's facts (JSON manifest)
	maxParts    = 4096                // an answer of more parts is refused: far beyond any chain
	lockTTL     = 5 * time.Second     // a source silent this long loses the lock
	beat        = time.Second         // the source's and hosts' heartbeat
	sourceLost  = 5 * time.Second     // a host refuses answers when the source is silent this long
	hostLost    = 3 * beat            // the source drops a host's wants when it is silent this long
	chunkRoom   = 8 << 10             // room left in a message for its headers
	answerWait  = 3 * time.Second     // how long a request waits for the source's first answer
	futureSlack = 5 * beat            // a page this far past the source's clock is from another run of it
)

// DefaultWindow is how long the bus keeps tape pages and answers: a host
// that joins or reconnects within it catches up without a request.
const DefaultWindow = time.Hour

// Modes are the data paths the bus relays, each on its own names.
var Modes = []api.Mode{api.Live, api.Delayed}

func answerStream(m api.Mode) string { return "CW_" + strings.ToUpper(string(m)) }
func tapeStream(m api.Mode) string   { return "CW_" + strings.ToUpper(string(m)) + "_TAPE" }
func answerBucket(m api.Mode) string { return "cw_" + string(m) }

// token is s as one subject or key token: what NATS does not allow in one
// becomes '_', and "" is "_".
func token(s string) string {
	if s == "" {
		return "_"
	}
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// keyHash names a request key in subjects and KV keys.
func keyHash(key string) string {
	h := fnv.New64a()
	h.Write([]byte(key))
	return fmt.Sprintf("%016x", h.Sum64())
}

// symbolOf is the symbol a request's query is about, for its subject
// and its failures' key.
func symbolOf(q url.Values) string {
	for _, k := range []string{"symbol", "symbols", "root"} {
		if v := q.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// manifest is an answer's facts without its body: the KV bucket's value
// per request key ("a.<hash>"), pointing at the body's parts in the
// answer stream; and a failure's ("f.<endpoint>.<symbol>"), with Err set.
type manifest struct {
	Key      string       `json:"key,omitempty"`
	Family   string       `json:"family,omitempty"`
	Endpoint api.Endpoint `json:"endpoint"`
	Symbol   string       `json:"symbol"`
	Status   int          `json:"status,omitempty"`
	At       time.Time    `json:"at"`
	Cost     int          `json:"cost,omitempty"`
	ID       string       `json:"id,omitempty"`
	Subject  string       `json:"subject,omitempty"` // the parts' subject, without ".<part>"
	Parts    int          `json:"parts,omitempty"`
	Err      string       `json:"err,omitempty"`
}

func answerKVKey(key string) string { return "a." + keyHash(key) }

// failKey is a failure's key by its endpoint's name (api.Endpoint's, the
// last element of a request key's path) and symbol.
func failKey(endpoint, symbol string) string { return "f." + token(endpoint) + "." + token(symbol) }

// codec compresses bodies (zstd: a chain's JSON repeats its names and
// strikes; BenchmarkFanoutSPX measures what a host receives) and is safe
// for concurrent use.
type codec struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

func newCodec() (*codec, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
	if err != nil {
		return nil, err
	}
	return &codec{enc: enc, dec: dec}, nil
}

func (c *codec) compress(b []byte) []byte { return c.enc.EncodeAll(b, nil) }

func (c *codec) decompress(b []byte) ([]byte, error) { return c.dec.DecodeAll(b, nil) }

// split cuts b into parts of at most size bytes (one empty part for an
// empty body).
func split(b []byte, size int) [][]byte {
	if len(b) == 0 {
		return [][]byte{nil}
	}
	var out [][]byte
	for len(b) > size {
		out = append(out, b[:size])
		b = b[size:]
	}
	return append(out, b)
}

// answerOf is the answer m's parts make up.
func answerOf(m manifest, mode api.Mode, body []byte) api.Answer {
	return api.Answer{Key: m.Key, Family: m.Family, Mode: mode, Endpoint: m.Endpoint, Status: m.Status,
		Body: body, At: m.At, Cost: m.Cost}
}

func encodeJSON(v any) []byte {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(v) // plain structs: cannot fail
	return b.Bytes()
}
