package wire

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"chainwatch/api"
)

// DecodeScanParams reads the custom scanner's request body: a JSON array of
// ScanFieldParam, or XML scan_params with scan_param items. Anything else is
// an error of one line, fit for a 400 body (the caller bounds the body's
// size, and the scan engine checks the fields themselves).
//
// Unknown keys and elements inside a field are ignored, as a lenient service
// does; the shape around them is not: a single object, another root, or an
// item that is not a field is refused with what was expected.
func DecodeScanParams(body []byte, f api.Format) ([]api.ScanFieldParam, error) {
	var (
		p   []api.ScanFieldParam
		err error
	)
	if f == api.XML {
		p, err = decodeScanXML(body)
	} else {
		p, err = decodeScanJSON(body)
	}
	if err != nil {
		return nil, errors.New(oneLine(err.Error()))
	}
	return p, nil
}

// bom is the UTF-8 byte order mark some Windows tools put before a body.
const bom = "\xef\xbb\xbf"

func decodeScanJSON(body []byte) ([]api.ScanFieldParam, error) {
	const want = "body must be a JSON array of scan fields"
	body = bytes.TrimSpace(bytes.TrimPrefix(body, []byte(bom)))
	switch {
	case len(body) == 0:
		return nil, errors.New(want + ": the body is empty")
	case body[0] == '{':
		return nil, errors.New(want + ", not a single object")
	case body[0] != '[':
		return nil, errors.New(want)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("body is not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	out := make([]api.ScanFieldParam, len(raw))
	for i, r := range raw {
		r = bytes.TrimSpace(r)
		if len(r) == 0 || r[0] != '{' {
			return nil, fmt.Errorf("body[%d] must be a scan field object, not %s", i, truncate(string(r), 20))
		}
		if err := json.Unmarshal(r, &out[i]); err != nil {
			return nil, fmt.Errorf("body[%d]: %s", i, strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	return out, nil
}

// xmlScanParam is a scan_param as read: include_in_resultset may be
// i:nil or empty, which is the default (true), where encoding/xml alone
// would read false.
type xmlScanParam struct {
	Formula            string         `xml:"formula"`
	DisplayName        string         `xml:"display_name"`
	IncludeInResultset api.Null[bool] `xml:"include_in_resultset"`
	Sort               api.SortOrder  `xml:"sort"`
}

func decodeScanXML(body []byte) ([]api.ScanFieldParam, error) {
	const want = "body must be an XML scan_params element of scan_param items"
	d := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(body, []byte(bom))))
	out := []api.ScanFieldParam{}
	const before, inside, after = 0, 1, 2
	state := before
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if state == after {
				return out, nil
			}
			return nil, errors.New(want + ": the body has no element")
		}
		if err != nil {
			return nil, fmt.Errorf("body is not valid XML: %s", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case state == after:
				return nil, errors.New(want + ": more than one root element")
			case state == before && t.Name.Local != "scan_params":
				return nil, fmt.Errorf("%s, not %s", want, truncate(t.Name.Local, 40))
			case state == before:
				state = inside
			case t.Name.Local != "scan_param":
				return nil, fmt.Errorf("%s: unexpected element %s in scan_params", want, truncate(t.Name.Local, 40))
			default:
				var p xmlScanParam
				if err := d.DecodeElement(&p, &t); err != nil {
					return nil, fmt.Errorf("scan_param[%d]: %s", len(out), err)
				}
				sp := api.ScanFieldParam{Formula: p.Formula, DisplayName: p.DisplayName, Sort: p.Sort}
				if v, ok := p.IncludeInResultset.Get(); ok {
					sp.IncludeInResultset = &v
				}
				out = append(out, sp)
			}
		case xml.EndElement:
			state = after // items are read whole, so this closes the root
		case xml.CharData:
			if s := bytes.TrimSpace(t); len(s) > 0 {
				return nil, fmt.Errorf("%s: unexpected text %q", want, truncate(string(s), 40))
			}
		}
	}
}

// oneLine makes an error message fit a one-line plain-text body.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return truncate(s, 300)
}

// truncate shortens s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
