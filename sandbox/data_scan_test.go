package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"chainwatch/api"
)

// The scanner's POST: body format (415), size (413), shape and rules
// (400), and what a run costs.
func TestDataScanRequests(t *testing.T) {
	t.Parallel()
	e, _ := newSessionEnv(t, nil) // the market TestDataEndpoints scans
	post := func(contentType, query, body string) (*http.Response, string) {
		h := http.Header{}
		if contentType != "" {
			h.Set("Content-Type", contentType)
		}
		return e.call(http.MethodPost, e.url("live", pathScanner, query), h, strings.NewReader(body))
	}
	const unsupported = "Content-Type must be one of application/json, text/json, application/xml, text/xml"
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded"} {
		resp, body := post(ct, "", `[{"formula":"price"}]`)
		wantError(t, "Content-Type "+ct, resp, body, http.StatusUnsupportedMediaType, unsupported)
	}
	resp, body := post("application/json", "", "["+strings.Repeat(" ", 1<<20)+"]")
	wantError(t, "1 MiB body", resp, body, http.StatusRequestEntityTooLarge, "the request body must be at most 1 MiB")

	many := make([]string, 51)
	for i := range many {
		many[i] = `{"formula":"price","display_name":"p` + strings.Repeat("x", i) + `"}`
	}
	long := strings.Repeat("price+", 167)[:1001]
	for _, c := range []struct{ query, body, want string }{
		{"all_results=yes", `[{"formula":"price"}]`, `all_results must be true or false, not "yes"`},
		{"", "", "body must be a JSON array of scan fields: the body is empty"},
		{"", `{"formula":"price"}`, "body must be a JSON array of scan fields, not a single object"},
		{"", `[]`, "fields is required: at least one field"},
		{"", "[" + strings.Join(many, ",") + "]", "fields must have at most 50 entries, not 51"},
		{"", `[{"formula":" "}]`, "fields[0].formula is required"},
		{"", `[{"formula":"` + long + `"}]`, "fields[0].formula must be at most 1000 characters, not 1001"},
		{"", `[{"formula":"price","sort":"up"}]`, `fields[0].sort must be one of asc, desc, none, not "up"`},
		{"", `[{"formula":"price","display_name":"p"},{"formula":"iv30","display_name":"p"}]`,
			`fields[1].display_name "p" is already the name of fields[0]`},
		{"", `[{"formula":"price"},{"formula":"price"}]`,
			`fields[1].display_name is required: the formula "price" is already the name of fields[0]`},
	} {
		resp, body := post("application/json", c.query, c.body)
		wantError(t, c.body, resp, body, http.StatusBadRequest, c.want)
	}
	resp, body = post("application/json", "", `[{"formula":"iv31 > 40"}]`)
	if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(body, `fields[0].formula "iv31 > 40": `) ||
		!strings.Contains(body, "iv31") || strings.Count(body, "\n") != 1 {
		t.Errorf("unknown field: %d %q, want a one-line 400 naming the formula", resp.StatusCode, body)
	}
	resp, body = post("text/xml", "", `<scan/>`)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "scan_params") {
		t.Errorf("XML body of another root: %d %q, want 400 naming scan_params", resp.StatusCode, body)
	}
	if used, _ := points(t, "after the errors", resp); used != 0 {
		t.Fatalf("errors were charged: %d points", used)
	}

	// Runs: 30 live, 150 with all_results, 50 delayed; JSON or XML both ways.
	fields := `[{"formula":"price","display_name":"Price","sort":"desc"},{"formula":"iv30 > 0","include_in_resultset":false}]`
	resp, body = post("application/json", "", fields)
	var res api.ScanResult
	if err := json.Unmarshal([]byte(body), &res); resp.StatusCode != http.StatusOK || err != nil || len(res.Inputs) != 2 || len(res.Output) > 20 {
		t.Fatalf("scan: %d %v, %d inputs and %d rows", resp.StatusCode, err, len(res.Inputs), len(res.Output))
	}
	resp, _ = post("text/json", "all_results=true", fields)
	if used, _ := points(t, "all results", resp); resp.StatusCode != http.StatusOK || used != 30+150 {
		t.Errorf("all_results: %d with %d points used, want 200 and 180", resp.StatusCode, used)
	}
	xmlBody := `<?xml version="1.0"?><scan_params><scan_param><formula>price</formula></scan_param></scan_params>`
	h := http.Header{"Content-Type": {"application/xml"}, "Accept": {"application/xml"}}
	resp, body = e.call(http.MethodPost, e.url("delayed", pathScanner, ""), h, strings.NewReader(xmlBody))
	if used, _ := points(t, "xml", resp); resp.StatusCode != http.StatusOK || used != 180+50 || !strings.Contains(body, "<scan_result") {
		t.Errorf("XML scan: %d with %d points used, %.80q", resp.StatusCode, used, body)
	}

	// The metadata is free and lists the fields formulas may name.
	resp, body = e.getLive(pathScanner, "")
	var meta api.ScannerMetadata
	if err := json.Unmarshal([]byte(body), &meta); resp.StatusCode != http.StatusOK || err != nil || len(meta.Fields) == 0 || len(meta.Operators) == 0 {
		t.Fatalf("metadata: %d %v, %d fields", resp.StatusCode, err, len(meta.Fields))
	}
	if used, _ := points(t, "metadata", resp); used != 230 {
		t.Errorf("metadata charged: %d points used, want 230", used)
	}
}
