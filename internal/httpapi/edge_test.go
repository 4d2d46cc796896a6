package httpapi_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
)

func TestMalformedPathValuesAnswer404BeforeAnyQuery(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Edge")
		for _, c := range []struct {
			token, method, path, msg string
		}{
			{"", "GET", "/v1/orgs/%00/sso", "organization not found"},
			{"", "GET", "/v1/orgs/%ff%fe/sso", "organization not found"},
			{"", "GET", "/v1/orgs/" + org + "/saml/%00/start", "SAML provider not found"},
			{"", "GET", "/v1/orgs/%00/saml/abc/metadata", "organization not found"},
			{admin, "GET", "/v1/spaces/%00", "space not found"},
			{admin, "GET", "/v1/spaces/%ff%fe", "space not found"},
			{admin, "PATCH", "/v1/spaces/%00", "space not found"},
			{admin, "GET", "/v1/orgs/%00", "organization not found"},
			{admin, "GET", "/v1/orgs/" + org + "/members/%00", "user not found"},
			{admin, "GET", "/v1/collections/a%00b/spaces", "collection not found"},
			{admin, "GET", "/v1/spaces/" + space + "/content/page/%C3%A9", "page not found"},
			{admin, "GET", "/v1/spaces/" + space + "/content/path/a%00b", "page not found"},
			{admin, "GET", "/v1/spaces/" + space + "/content/path/%ff", "page not found"},
			{admin, "GET", "/v1/spaces/" + space + "/revisions/" + strings.Repeat("x", 255), "revision not found"},
			{admin, "GET", "/v1/spaces/" + space + "/revisions/a%20b", "revision not found"},
			{"", "GET", "/v1/files/%00?expires=1", "file not found"},
		} {
			t.Run(c.method+" "+c.path, func(t *testing.T) {
				s.DoUnchecked(t, c.token, c.method, c.path, nil).WantError(t, 404, c.msg)
			})
		}
		// The SAML form endpoint too, without a token.
		r := s.DoRaw(t, "", "POST", "/v1/orgs/%00/saml/x/acs",
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, []byte("SAMLResponse=x"))
		r.WantError(t, 404, "organization not found")
	})
}

func TestUncleanTextInBodiesAndQueriesAnswer400AndChangesNothing(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Edge")
		before := s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).Body
		spacesBefore := s.Do(t, admin, "GET", "/v1/orgs/"+org+"/spaces", nil).WantStatus(t, 200).Body
		teamsBefore := s.Do(t, admin, "GET", "/v1/orgs/"+org+"/teams", nil).WantStatus(t, 200).Body
		orgBefore := s.Do(t, admin, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).Body
		for _, c := range []struct {
			name, method, path, body, msg string
		}{
			{"space title/NUL", "POST", "/v1/orgs/" + org + "/spaces", `{"title":"a\u0000b"}`, "title must be valid UTF-8"},
			{"space title/invalid UTF-8", "POST", "/v1/orgs/" + org + "/spaces", "{\"title\":\"a\xff\xfeb\"}", "title must be valid UTF-8"},
			{"space emoji/NUL", "PATCH", "/v1/spaces/" + space, `{"emoji":"\u0000"}`, "emoji must be valid UTF-8"},
			{"space title/NUL after text", "PATCH", "/v1/spaces/" + space, `{"editMode":"live","title":"Fine \u0000"}`, "title must be"},
			{"transfer organization/NUL", "POST", "/v1/spaces/" + space + "/transfer", `{"organization":"\u0000"}`, "organization must be"},
			{"team member/NUL", "PUT", "/v1/orgs/" + org + "/teams", `{"title":"Team","members":["ok","\u0000"]}`, "members[1] must be"},
			{"org title/invalid UTF-8", "PATCH", "/v1/orgs/" + org, "{\"title\":\"\xc3\"}", "title must be"},
			{"saml entityID/NUL", "POST", "/v1/orgs/" + org + "/saml", `{"label":"x","entityID":"\u0000"}`, "entityID must be"},
			{"nested key/NUL", "POST", "/v1/spaces/" + space + "/move", `{"position":{"before":{"type":"space","sp\u0000ace":"x"}}}`, "position.before.sp"},
		} {
			t.Run(c.name, func(t *testing.T) {
				s.DoRaw(t, admin, c.method, c.path, http.Header{"Content-Type": {"application/json"}}, []byte(c.body)).
					WantError(t, 400, c.msg)
			})
		}
		for _, c := range []struct{ path, param string }{
			{"/v1/orgs/" + org + "/members?search=%00", "search"},
			{"/v1/orgs/" + org + "/teams?title=%ff", "title"},
			{"/v1/orgs?page=%00", "page"},
			{"/v1/orgs/" + org + "/search?query=a%00", "query"},
		} {
			t.Run(c.path, func(t *testing.T) {
				s.DoUnchecked(t, admin, "GET", c.path, nil).WantError(t, 400, "query parameter \""+c.param+"\"")
			})
		}
		if after := s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).Body; string(after) != string(before) {
			t.Errorf("the space changed:\n%s\n%s", before, after)
		}
		if after := s.Do(t, admin, "GET", "/v1/orgs/"+org+"/spaces", nil).Body; string(after) != string(spacesBefore) {
			t.Errorf("the spaces changed:\n%s\n%s", spacesBefore, after)
		}
		if after := s.Do(t, admin, "GET", "/v1/orgs/"+org+"/teams", nil).Body; string(after) != string(teamsBefore) {
			t.Errorf("the teams changed:\n%s\n%s", teamsBefore, after)
		}
		if after := s.Do(t, admin, "GET", "/v1/orgs/"+org, nil).Body; string(after) != string(orgBefore) {
			t.Errorf("the organization changed:\n%s\n%s", orgBefore, after)
		}
		// An escaped backslash followed by "u0000" is plain text.
		var sp struct{ Title string }
		s.DoRaw(t, admin, "PATCH", "/v1/spaces/"+space, http.Header{"Content-Type": {"application/json"}},
			[]byte(`{"title":"C:\\u0000"}`)).WantStatus(t, 200).JSON(t, &sp)
		if sp.Title != `C:\u0000` {
			t.Fatalf("title %q", sp.Title)
		}
	})
}

// rawRequest opens a connection to the test server and sends head, the
// request line and headers, then partial, a part of the announced body.
func rawRequest(t *testing.T, s *apitest.Server, head, partial string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, head+"\r\n"+partial); err != nil {
		t.Fatal(err)
	}
	return conn
}

func TestStalledBodiesGet408AndAClosedConnection(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{BodyTimeout: 300 * time.Millisecond}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		spaces := s.Do(t, admin, "GET", "/v1/orgs/"+org+"/spaces", nil).WantStatus(t, 200).Body
		host := strings.TrimPrefix(s.URL, "http://")
		for _, c := range []struct{ name, head string }{
			{"authenticated", "POST /v1/orgs/" + org + "/spaces HTTP/1.1\r\nHost: " + host +
				"\r\nAuthorization: Bearer " + admin + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"},
			{"SAML ACS without a token", "POST /v1/orgs/" + org + "/saml/abc/acs HTTP/1.1\r\nHost: " + host +
				"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n"},
			{"unauthenticated JSON", "POST /v1/orgs/" + org + "/spaces HTTP/1.1\r\nHost: " + host +
				"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"},
		} {
			t.Run(c.name, func(t *testing.T) {
				conn := rawRequest(t, s, c.head, `{"title":"ab`)
				// A deadline on the test's side only, so a server that
				// never answers fails the test instead of hanging it.
				conn.SetReadDeadline(time.Now().Add(20 * time.Second))
				br := bufio.NewReader(conn)
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatalf("no answer to a stalled body: %v", err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if c.name == "unauthenticated JSON" {
					// Refused before the body is read; the connection
					// must still close rather than wait for the body.
					if res.StatusCode != 401 {
						t.Fatalf("status %d: %s", res.StatusCode, body)
					}
				} else if res.StatusCode != 408 || !strings.Contains(string(body), `"code":408`) {
					t.Fatalf("status %d body %s, want 408", res.StatusCode, body)
				}
				if _, err := br.ReadByte(); err != io.EOF {
					t.Fatalf("the connection stayed open after the answer (read: %v)", err)
				}
			})
		}
		if after := s.Do(t, admin, "GET", "/v1/orgs/"+org+"/spaces", nil).Body; string(after) != string(spaces) {
			t.Fatalf("a stalled request changed the spaces:\n%s\n%s", spaces, after)
		}
	})
}

var openConns = regexp.MustCompile(`(?m)^folio_http_open_connections (\d+)$`)

func TestOpenConnectionsAreCounted(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		gauge := func() int {
			t.Helper()
			res, err := http.Get(s.URL + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			m := openConns.FindSubmatch(b)
			if m == nil {
				t.Fatalf("no folio_http_open_connections in /metrics:\n%s", b)
			}
			n, _ := strconv.Atoi(string(m[1]))
			return n
		}
		base := gauge()
		var conns []net.Conn
		for range 5 {
			c, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		// The server counts a connection once it has accepted it: wait for
		// that, however slow the machine, rather than for a fixed time.
		deadline := time.Now().Add(10 * time.Second)
		for gauge() < base+5 {
			if time.Now().After(deadline) {
				t.Fatalf("open connections %d, want at least %d", gauge(), base+5)
			}
			time.Sleep(10 * time.Millisecond)
		}
		for _, c := range conns {
			c.Close()
		}
		for gauge() > base {
			if time.Now().After(deadline) {
				t.Fatalf("open connections %d after closing, want %d", gauge(), base)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

func TestImportedNULAndInvalidUTF8AreReplaced(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Edge")
		for _, c := range []struct{ source, url string }{
			{"markdown", "data:text/markdown,%23%20Nul%00title%0A%0ABody%20with%00nul%20and%20%FF%FE%20bytes%0A"},
			{"html", "data:text/html,%3Ch1%3EHtml%00title%3C%2Fh1%3E%3Cp%3EBody%00%FF%3C%2Fp%3E"},
		} {
			s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": c.source, "url": c.url}).
				WantStatus(t, 201)
		}
		var pages struct {
			Pages []struct{ ID, Title string }
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		if len(pages.Pages) != 2 {
			t.Fatalf("pages %+v", pages.Pages)
		}
		for _, p := range pages.Pages {
			if !strings.Contains(p.Title, "\uFFFD") || strings.ContainsRune(p.Title, 0) {
				t.Errorf("title %q: NUL should read as U+FFFD", p.Title)
			}
			var md struct{ Markdown string }
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+p.ID+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &md)
			if strings.ContainsRune(md.Markdown, 0) || !strings.Contains(md.Markdown, "\uFFFD") {
				t.Errorf("page %q: markdown %q", p.Title, md.Markdown)
			}
		}
		// The search index holds the text too.
		var hits struct{ Items []any }
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query=body", nil).WantStatus(t, 200).JSON(t, &hits)
		if len(hits.Items) != 2 {
			t.Fatalf("search found %d pages", len(hits.Items))
		}
	})
}

// TestBodyDeadlineEndsWithTheBody: a request whose body arrived in time
// may work longer than the body timeout (here an import whose source
// answers after it) without its context being cancelled. net/http lifts
// the read deadline when it starts watching the connection after the body,
// which this test holds it to.
func TestBodyDeadlineEndsWithTheBody(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{BodyTimeout: 200 * time.Millisecond}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Slow")
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(700 * time.Millisecond)
			w.Write([]byte("# Late\n\nWorth the wait.\n"))
		}))
		defer remote.Close()
		var res struct{ Revision string }
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": remote.URL + "/late.md"}).
			WantStatus(t, 201).JSON(t, &res)
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+res.Revision, nil).WantStatus(t, 200)
	})
}

// TestOversizedSAMLFormAnswers413: the assertion consumer service reads a
// form, not JSON, and still answers a body over the limit with 413.
func TestOversizedSAMLFormAnswers413(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{MaxBody: 1024}, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		body := []byte("SAMLResponse=" + strings.Repeat("a", 4096))
		req, err := http.NewRequest("POST", s.URL+"/v1/orgs/"+org+"/saml/abc/acs", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.ContentLength = -1 // chunked: the limit is met while reading
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		got, _ := io.ReadAll(res.Body)
		if res.StatusCode != 413 || !strings.Contains(string(got), `"code":413`) {
			t.Fatalf("status %d: %s", res.StatusCode, got)
		}
	})
}
