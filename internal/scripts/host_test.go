package scripts

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBinaryStrings(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	back, err := binaryBytes(binaryString(all))
	if err != nil || string(back) != string(all) {
		t.Fatalf("round trip: %v", err)
	}
	if _, err := binaryBytes("€"); err == nil {
		t.Error("a character above U+00FF was taken as a byte")
	}
}

func TestParseURL(t *testing.T) {
	cases := []struct {
		name, raw, base string
		hasBase         bool
		want            string // href, or "" for an error
	}{
		{"lower-cases scheme and host", "HTTP://EXAMPLE.com/A", "", false, "http://example.com/A"},
		{"drops the default port", "https://x.example:443/", "", false, "https://x.example/"},
		{"keeps another port", "https://x.example:8443", "", false, "https://x.example:8443/"},
		{"removes dot segments", "https://x.example/a/./b/../c", "", false, "https://x.example/a/c"},
		{"encodes spaces and non-ASCII", "https://x.example/a b?q=c d&é", "", false, "https://x.example/a%20b?q=c%20d&%C3%A9"},
		{"strips tabs and newlines", " https://x.exa\tmple/\n", "", false, "https://x.example/"},
		{"punycode", "https://ÄÖ.example/", "", false, "https://xn--4ca0b.example/"},
		{"resolves against a base", "c?d#e", "https://x.example/a/b", true, "https://x.example/a/c?d#e"},
		{"opaque", "mailto:someone@x.example", "", false, "mailto:someone@x.example"},
		{"relative without a base", "/a", "", false, ""},
		{"special scheme without a host", "https:///a", "", false, ""},
		{"bad base", "a", "not a url", true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseURL(tc.raw, tc.base, tc.hasBase)
			if tc.want == "" {
				if err == nil {
					t.Errorf("parseURL(%q) = %s, want an error", tc.raw, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseURL(%q): %v", tc.raw, err)
			}
			var p urlParts
			if err := json.Unmarshal([]byte(got), &p); err != nil {
				t.Fatal(err)
			}
			if p.Href != tc.want {
				t.Errorf("href = %q, want %q", p.Href, tc.want)
			}
		})
	}
}

func TestParseMultipart(t *testing.T) {
	body := "--XX\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nh\xc3\xa9\r\n" +
		"--XX\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\nContent-Type: application/x\r\n\r\n\x00\xff\r\n--XX--\r\n"
	got, err := parseMultipart("multipart/form-data; boundary=XX", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	var entries []formEntry
	if err := json.Unmarshal([]byte(got), &entries); err != nil {
		t.Fatal(err)
	}
	v, d := "hé", "\x00\u00ff"
	want := []formEntry{{Name: "a", Value: &v}, {Name: "f", Filename: "x.bin", Type: "application/x", Data: &d}}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"text/plain", "multipart/form-data", "multipart/form-data; boundary=\"\""} {
		if _, err := parseMultipart(bad, []byte(body)); err == nil {
			t.Errorf("content type %q accepted", bad)
		}
	}
	if _, err := parseMultipart("multipart/form-data; boundary=XX", []byte("--XX\r\nbroken")); err == nil {
		t.Error("a truncated body was accepted")
	}
}

func TestUTF8AndBase64(t *testing.T) {
	if s, _ := utf8Decode([]byte("\xEF\xBB\xBFa\xFFb"), false, false); s != "a\uFFFDb" {
		t.Errorf("decode = %q", s)
	}
	if s, _ := utf8Decode([]byte("\xEF\xBB\xBFa"), false, true); s != "\uFEFFa" {
		t.Errorf("decode keeping the BOM = %q", s)
	}
	if _, err := utf8Decode([]byte{0xFF}, true, false); err == nil {
		t.Error("fatal decode accepted invalid UTF-8")
	}
	for in, want := range map[string]string{"YQ==": "a", "YQ": "a", " Y Q = = ": "a", "": ""} {
		if got, err := forgivingBase64(in); err != nil || string(got) != want {
			t.Errorf("atob(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"Y", "YQ=", "Y=Q=", "*"} {
		if _, err := forgivingBase64(bad); err == nil {
			t.Errorf("atob(%q) accepted", bad)
		}
	}
}
