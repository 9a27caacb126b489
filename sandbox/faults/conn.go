package faults

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// drainFor bounds how long a truncated connection waits for the client to
// close its side; see closeGracefully.
const drainFor = 2 * time.Second

// truncate serves the request into a buffer, then sends the full headers
// (Content-Length of the whole body) and about half of the body, and closes
// the connection: the client sees a well-formed response whose body ends
// early (io.ErrUnexpectedEOF), as when a proxy or the network dies
// mid-transfer. A body-less answer (HEAD, 204) is cut before its headers.
//
// The response is written by hand on the hijacked connection, so that no
// recover middleware further out can turn the abort into a 500. Where the
// connection cannot be hijacked (HTTP/2), the handler aborts the stream
// with http.ErrAbortHandler after the partial body instead.
func truncate(w http.ResponseWriter, r *http.Request, next http.Handler) {
	buf := Buffer(next, r, nil)
	status, body := buf.Status(), buf.Body()
	half := body[:len(body)/2]

	h := buf.Header().Clone()
	h.Del("Transfer-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if h.Get("Content-Type") == "" && len(body) > 0 {
		h.Set("Content-Type", http.DetectContentType(body))
	}

	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		for k, v := range h {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		_, _ = w.Write(half)
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler)
	}
	if len(body) > 0 {
		h.Set("Connection", "close")
		if date := w.Header().Get("Date"); date != "" {
			h.Set("Date", date) // the service's clock, set further out
		} else {
			h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
		}
		writeResponse(rw.Writer, r.ProtoAtLeast(1, 1), status, h, half)
	}
	closeGracefully(conn)
}

// writeResponse writes a status line, headers and (part of) a body.
func writeResponse(bw *bufio.Writer, http11 bool, status int, h http.Header, body []byte) {
	proto := "HTTP/1.0"
	if http11 {
		proto = "HTTP/1.1"
	}
	fmt.Fprintf(bw, "%s %03d %s\r\n", proto, status, http.StatusText(status))
	_ = h.Write(bw)
	_, _ = bw.WriteString("\r\n")
	_, _ = bw.Write(body)
	_ = bw.Flush()
}

// closeGracefully sends FIN and waits (briefly) for the client to hang up
// before closing. Closing at once with unread request bytes in the kernel's
// buffer would make the kernel send a reset, and the client might then lose
// the partial body that is the point of a truncation.
func closeGracefully(conn net.Conn) {
	defer conn.Close()
	if cw, ok := tcpConn(conn); ok {
		_ = cw.CloseWrite()
		_ = conn.SetReadDeadline(time.Now().Add(drainFor))
		_, _ = io.Copy(io.Discard, conn)
	}
}

// reset closes the connection with SO_LINGER 0, so the kernel sends RST
// instead of FIN: the client gets "connection reset by peer" and no
// response at all. Without a hijackable connection it aborts the handler,
// which resets an HTTP/2 stream.
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := tcpConn(conn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// tcpConn finds the TCP connection under conn, unwrapping TLS.
func tcpConn(conn net.Conn) (*net.TCPConn, bool) {
	for {
		switch c := conn.(type) {
		case *net.TCPConn:
			return c, true
		case interface{ NetConn() net.Conn }:
			conn = c.NetConn()
		default:
			return nil, false
		}
	}
}
