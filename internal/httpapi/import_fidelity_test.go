package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

// flatPages returns the pages of a revision by title, children included.
func flatPages(pages []pageBody) map[string]pageBody {
	out := map[string]pageBody{}
	var walk func([]pageBody)
	walk = func(ps []pageBody) {
		for _, p := range ps {
			out[p.Title] = p
			walk(p.Pages)
		}
	}
	walk(pages)
	return out
}

// pageNodes returns a page's document nodes, as JSON values.
func pageNodes(t *testing.T, s *apitest.Server, token, space, page string) []any {
	t.Helper()
	var p struct{ Document struct{ Nodes []any } }
	s.Do(t, token, "GET", "/v1/spaces/"+space+"/content/page/"+page+"?format=document", nil).WantStatus(t, 200).JSON(t, &p)
	return p.Document.Nodes
}

// refsOf returns every data.ref in nodes, in order.
func refsOf(nodes []any) []map[string]any {
	var out []map[string]any
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if d, ok := v["data"].(map[string]any); ok {
				if r, ok := d["ref"].(map[string]any); ok {
					out = append(out, r)
				}
			}
			for _, k := range []string{"nodes", "fragments"} {
				walk(v[k])
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(nodes)
	return out
}

// linkStatus returns the link report of a space (or page) as ref → status,
// with its stats.
func linkStatus(t *testing.T, s *apitest.Server, token, path string) (map[string]string, linkList) {
	t.Helper()
	var l linkList
	s.Do(t, token, "GET", path, nil).WantStatus(t, 200).JSON(t, &l)
	out := map[string]string{}
	for _, it := range l.Items {
		key := refKey(it.Ref)
		if a, ok := it.Ref["anchor"].(string); ok {
			key = "page:" + it.Ref["page"].(string) + "#" + a
		}
		if it.Ref["kind"] == "file" {
			key = "file:" + it.Ref["file"].(string)
		}
		out[key] = it.Status
	}
	return out, l
}

func TestMarkdownImportKeepsLinksImagesAndAlerts(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		png := tinyPNG()
		pngURL := dataURL("image/png", png)

		// A zip: links between its pages, a missing target, a data: image
		// and an alert.
		importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"README.md": "# Home\n\nSee [Setup](guide/setup.md#install) and [Gone](guide/gone.md).\n\n" +
				"![Shot](" + pngURL + ")\n\n> [!TIP]\n> Start here.\n\n> A plain quote.\n",
			"guide/README.md": "# Guide\n\nThe guide.\n",
			"guide/setup.md":  "# Setup\n\n## Install\n\nBack [home](../README.md).\n",
		}))
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		pages := flatPages(rev.Pages)
		home, guide, setup := pages["Home"].ID, pages["Guide"].ID, pages["Setup"].ID
		if home == "" || guide == "" || setup == "" || len(rev.Files) != 1 {
			t.Fatalf("imported pages %v, files %+v", pages, rev.Files)
		}
		shot := rev.Files[0]
		if shot.Name != "image.png" || shot.ContentType != "image/png" || shot.Size != int64(len(png)) ||
			shot.Dimensions == nil || shot.Dimensions.Width != 1 || shot.Dimensions.Height != 1 {
			t.Errorf("data: image file %+v", shot)
		}
		nodes := pageNodes(t, s, admin, space, home)
		want := []map[string]any{
			{"kind": "anchor", "anchor": "install", "page": setup},
			{"kind": "url", "url": "guide/gone.md"},
			{"kind": "file", "file": shot.ID},
		}
		if diff := cmp.Diff(want, refsOf(nodes)); diff != "" {
			t.Errorf("home refs (-want +got):\n%s", diff)
		}
		var types []string
		for _, n := range nodes {
			m := n.(map[string]any)
			typ := m["type"].(string)
			if d, _ := m["data"].(map[string]any); d["style"] != nil {
				typ += "/" + d["style"].(string)
			}
			types = append(types, typ)
		}
		if diff := cmp.Diff([]string{"paragraph", "images", "hint/success", "blockquote"}, types); diff != "" {
			t.Errorf("home blocks (-want +got):\n%s", diff)
		}
		// The image file downloads as the bytes of the data: URL.
		var f fileBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/files/"+shot.ID, nil).WantStatus(t, 200).JSON(t, &f)
		resp, err := http.Get(s.URL + strings.TrimPrefix(f.DownloadURL, apitest.PublicURL))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(got, png) || resp.Header.Get("Content-Type") != "image/png" {
			t.Errorf("download: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(got))
		}
		status, l := linkStatus(t, s, admin, "/v1/spaces/"+space+"/content/page/"+home+"/links")
		wantStatus := map[string]string{
			"page:" + setup + "#install": "ok",
			"guide/gone.md":              "broken",
			"file:" + shot.ID:            "ok",
		}
		if diff := cmp.Diff(wantStatus, status); diff != "" || l.Stats.Total != 3 || l.Stats.Broken.Total != 1 {
			t.Errorf("home links (-want +got):\n%s\nstats %+v", diff, l.Stats)
		}
		var broken linkList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links?status=broken", nil).WantStatus(t, 200).JSON(t, &broken)
		if broken.Count != 1 || broken.Items[0].Ref["url"] != "guide/gone.md" || broken.Items[0].Relation != "reference" ||
			len(broken.Items[0].LocationReferences) != 1 || broken.Items[0].LocationReferences[0].Page.ID != home {
			t.Errorf("broken links %+v", broken)
		}

		// A single page, at the top level: its links resolve against the
		// space's pages by path.
		importInto(t, s, admin, space, "", "markdown", []byte("# Notes\n\n"+
			"[Setup](../guide/setup.md), [Install](guide/setup.md#install), [Guide](guide/README.md), [Missing](guide/nope.md).\n\n"+
			"> [!WARNING]\n> Read [the guide](https://example.com/guide) first.\n\n"+
			"![Again]("+pngURL+")\n"))
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		notes := flatPages(rev.Pages)["Notes"].ID
		if len(rev.Files) != 2 {
			t.Fatalf("files after the page import %+v", rev.Files)
		}
		again := rev.Files[1]
		want = []map[string]any{
			{"kind": "page", "page": setup},
			{"kind": "anchor", "anchor": "install", "page": setup},
			{"kind": "page", "page": guide},
			{"kind": "url", "url": "guide/nope.md"},
			{"kind": "url", "url": "https://example.com/guide"},
			{"kind": "file", "file": again.ID},
		}
		nodes = pageNodes(t, s, admin, space, notes)
		if diff := cmp.Diff(want, refsOf(nodes)); diff != "" {
			t.Errorf("notes refs (-want +got):\n%s", diff)
		}
		status, l = linkStatus(t, s, admin, "/v1/spaces/"+space+"/content/page/"+notes+"/links")
		wantStatus = map[string]string{
			"page:" + setup:              "ok",
			"page:" + setup + "#install": "ok",
			"page:" + guide:              "ok",
			"guide/nope.md":              "broken",
			"https://example.com/guide":  "ok",
			"file:" + again.ID:           "ok",
		}
		if diff := cmp.Diff(wantStatus, status); diff != "" || l.Stats.Broken.Total != 1 {
			t.Errorf("notes links (-want +got):\n%s\nstats %+v", diff, l.Stats)
		}
		_, l = linkStatus(t, s, admin, "/v1/spaces/"+space+"/links")
		// Distinct targets: 3 from home, 1 from setup, 5 new from notes.
		if l.Stats.Total != 9 || l.Stats.Broken.Total != 2 {
			t.Errorf("space link stats %+v", l.Stats)
		}

		// Into a page: relative to that page's place (setup's folder is
		// guide/).
		importInto(t, s, admin, space, guide, "markdown", []byte("[Setup](setup.md#install) and [up](../README.md)\n"))
		if diff := cmp.Diff([]map[string]any{{"kind": "anchor", "anchor": "install", "page": setup}, {"kind": "page", "page": home}},
			refsOf(pageNodes(t, s, admin, space, guide))); diff != "" {
			t.Errorf("guide refs (-want +got):\n%s", diff)
		}

		// The alert exports as it was written, and reads back as the same
		// hint.
		var md pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+notes+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &md)
		if md.Markdown == nil || !strings.Contains(*md.Markdown, "> [!WARNING]\n> Read [the guide](https://example.com/guide) first.\n") {
			t.Fatalf("exported markdown %v", deref(md.Markdown))
		}
		importInto(t, s, admin, space, notes, "markdown", []byte(*md.Markdown))
		reread := pageNodes(t, s, admin, space, notes)
		hint := func(nodes []any) string {
			for _, n := range nodes {
				if m := n.(map[string]any); m["type"] == "hint" {
					m = stripKeys(m).(map[string]any)
					b, _ := json.Marshal(m)
					return string(b)
				}
			}
			return ""
		}
		if h := hint(nodes); h == "" || h != hint(reread) {
			t.Errorf("hint after export and import:\n%s\nwas\n%s", hint(reread), h)
		}
	})
}

// stripKeys returns v without node keys, which a re-import may assign anew.
func stripKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if k != "key" {
				out[k] = stripKeys(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = stripKeys(x)
		}
		return out
	}
	return v
}

func TestMarkdownImportRefusesBadDataURL(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Before\n\nText.\n"))
		var before revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &before)
		for _, tt := range []struct {
			name, src, msg string
		}{
			{"bad base64", "![x](data:image/png;base64,@@@)\n", `image data: URL "data:image/png;base64,@@@" is not valid base64`},
			{"not an image", "![x](data:text/html;base64,PGI+)\n", `image data: URL "data:text/html;base64,PGI+" must hold an image`},
		} {
			t.Run(tt.name, func(t *testing.T) {
				s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import",
					map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("# New\n\n"+tt.src))}).
					WantError(t, 400, tt.msg)
				zip := zipOf(t, map[string]string{"README.md": tt.src})
				s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import",
					map[string]any{"source": "zip", "url": dataURL("application/zip", zip)}).
					WantError(t, 400, "zip entry README.md: "+tt.msg)
			})
		}
		var after revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &after)
		if after.ID != before.ID || len(after.Pages) != 1 || len(after.Files) != 0 {
			t.Errorf("refused imports changed the space: revision %s (was %s), %d pages, %d files", after.ID, before.ID, len(after.Pages), len(after.Files))
		}
	})
}
