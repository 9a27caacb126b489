package cmd

import (
	"io"
	"net"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"chainwatch/serve"
)

// The "done when": a burst of 1,000 window changes (sizes from
// 0x0 to 65535x65535, sent without waiting) at a real screen, then the
// client killed; under --max-sessions 1 a new login works within 15 s
// (a bounded wait, not a timing of speed).
func TestServeResizeBurstAtTheScreenThenLoginAgain(t *testing.T) {
	r := startDesk(t, serve.Options{MaxSessions: 1}, "alice")
	conn, err := net.DialTimeout("tcp", r.addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, r.addr, &gossh.ClientConfig{User: "trader",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(r.keys["alice"])}, HostKeyCallback: gossh.FixedHostKey(r.host), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(cc, chans, reqs)
	defer c.Close()
	ch, chReqs, err := c.OpenChannel("session", nil)
	if err != nil {
		t.Fatal(err)
	}
	go gossh.DiscardRequests(chReqs)
	go io.Copy(io.Discard, ch)
	pty := struct {
		Term                         string
		Columns, Rows, Width, Height uint32
		Modes                        string
	}{"xterm-256color", 160, 48, 0, 0, "\x00"}
	if ok, err := ch.SendRequest("pty-req", true, gossh.Marshal(&pty)); !ok || err != nil {
		t.Fatalf("pty-req: %v, %v", ok, err)
	}
	if _, err := ch.SendRequest("shell", false, nil); err != nil {
		t.Fatal(err)
	}
	const n = 1000
	for i := range n {
		w, h := uint32(i*65535/(n-1)), uint32((n-1-i)*65535/(n-1))
		if i%3 == 0 {
			w, h = uint32(i%7), uint32(i%5) // 0x0 and other sizes of nothing or next to it
		}
		win := struct{ Columns, Rows, Width, Height uint32 }{w, h, 0, 0}
		if _, err := ch.SendRequest("window-change", false, gossh.Marshal(&win)); err != nil {
			t.Fatalf("window-change %d: %v", i, err)
		}
	}
	conn.Close() // killed: no goodbye

	var last string
	for range 150 { // every 100 ms: 15 s
		c, err := r.dial(gossh.PublicKeys(r.keys["alice"]))
		if err == nil {
			sess, serr := c.NewSession()
			if serr == nil {
				out, rerr := sess.CombinedOutput("version")
				c.Close()
				if rerr == nil {
					return
				}
				last = rerr.Error() + ": " + string(out)
			} else {
				c.Close()
				last = serr.Error()
			}
		} else {
			last = err.Error()
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no login ran a command within 15s of the burst; the last try: %s", last)
}
